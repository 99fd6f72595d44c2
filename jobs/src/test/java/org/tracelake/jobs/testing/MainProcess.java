package org.tracelake.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tracelake command as a real process: bin/tracelake's java command line with the test classpath, so a test can
 * kill it, run two at once, or read its exit code and standard error as a scheduler would.
 */
public final class MainProcess {
    private static final Pattern SERVE_ADDRESS = Pattern.compile("listening on (sc://127\\.0\\.0\\.1:(\\d+))");

    private MainProcess() {}

    /** Starts {@code org.tracelake.jobs.Main args…} (standard output discarded, standard error kept in the process). */
    public static Process start(String... args) throws IOException {
        return start(ProcessBuilder.Redirect.DISCARD, args);
    }

    /** Starts {@code Main args…} with its standard output written to a file. */
    public static Process startTo(Path stdout, String... args) throws IOException {
        return start(ProcessBuilder.Redirect.to(stdout.toFile()), args);
    }

    /** Starts {@code Main args…} with both outputs written to files. */
    public static Process startTo(Path stdout, Path stderr, String... args) throws IOException {
        return start(ProcessBuilder.Redirect.to(stdout.toFile()), ProcessBuilder.Redirect.to(stderr.toFile()), args);
    }

    private static Process start(ProcessBuilder.Redirect stdout, String... args) throws IOException {
        return start(stdout, ProcessBuilder.Redirect.PIPE, args);
    }

    private static Process start(ProcessBuilder.Redirect stdout, ProcessBuilder.Redirect stderr, String... args)
            throws IOException {
        ProcessBuilder pb =
                new ProcessBuilder(command(args)).redirectOutput(stdout).redirectError(stderr);
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        return pb.start();
    }

    /** The address {@code serve} printed to its standard output ({@code sc://127.0.0.1:PORT}), or null so far. */
    public static String serveAddress(Path stdout) {
        try {
            if (!Files.exists(stdout)) return null;
            Matcher m = SERVE_ADDRESS.matcher(Files.readString(stdout));
            return m.find() ? m.group(1) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The token a {@code serve} of this warehouse wrote for its clients ({@code _serve/token}). */
    public static String serveToken(Path warehouse) throws IOException {
        return Files.readString(warehouse.resolve("_serve").resolve("token")).strip();
    }

    /**
     * The address Spark's JVM client takes for a serve on this machine: {@code sc://localhost:PORT/;token=T} (that
     * client sends a token over a plain channel only to {@code localhost}).
     */
    public static String clientUrl(String address, String token) {
        return address.replace("sc://127.0.0.1:", "sc://localhost:") + "/;token=" + token;
    }

    /** The java command line of {@code Main args…}. */
    public static List<String> command(String... args) throws IOException {
        Path home = home();
        return java(
                List.of("-Xmx1g", "-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2-test.properties")),
                System.getProperty("java.class.path"),
                args);
    }

    /**
     * The java command line of {@code Main args…} on the thin client's own class path, as bin/tracelake runs {@code sql}
     * with statements through serve: tracelake's classes and the jars of {@code jobs/target/client-classpath.txt}
     * only (written by the build), with log4j's simple logger. A class the client needs outside those jars fails here.
     */
    public static List<String> thinClientCommand(String... args) throws IOException {
        Path home = home();
        String jars = Files.readString(home.resolve("jobs/target/client-classpath.txt"))
                .strip();
        return java(
                List.of(
                        "-Xmx1g",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Dlog4j2.loggerContextFactory=org.apache.logging.log4j.simple.SimpleLoggerContextFactory",
                        "-Dorg.apache.logging.log4j.simplelog.level=WARN",
                        "-Dorg.apache.logging.log4j.simplelog.logFile=system.err"),
                home.resolve("jobs/target/classes") + ":" + jars,
                args);
    }

    /**
     * The java command line bin/tracelake runs first for {@code sql} statements while a serve of the warehouse runs:
     * serve's local client ({@code serve/LocalClient}) with tracelake's own classes and nothing else on the class
     * path, as the launcher gives it the jar alone. A class it needs from any other jar fails here.
     */
    public static List<String> localClientCommand(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                home().resolve("jobs/target/classes").toString(),
                "org.tracelake.jobs.serve.LocalClient"));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    private static Path home() {
        return Path.of(System.getProperty("tracelake.home", "."));
    }

    /** java, the given options, Spark's module options (jobs/target/jvm-options.txt), the class path, Main args…. */
    private static List<String> java(List<String> options, String classpath, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options);
        cmd.addAll(Arrays.asList(Files.readString(home().resolve("jobs/target/jvm-options.txt"))
                .trim()
                .split("\\s+")));
        cmd.addAll(List.of("-cp", classpath, "org.tracelake.jobs.Main"));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** Polls a condition every 20 ms until it holds or the time is up (a bound, not a timing assertion). */
    public static boolean waitFor(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(20);
        }
        return false;
    }
}
