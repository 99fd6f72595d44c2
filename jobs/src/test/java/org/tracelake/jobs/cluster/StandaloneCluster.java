package org.tracelake.jobs.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A real Spark standalone cluster on 127.0.0.1, started from the project's own Spark jars: one master and N workers
 * (one core, 1 GB each), every one a separate JVM, plus {@link #submit} for the driver through Spark's own submit
 * entry point. Used by {@code StandaloneClusterIT} and by the benchmark's scaling runs.
 *
 * <p>Every process it starts is remembered by its pid and stopped by {@link #close()} — with its children (the
 * executors a worker forks), SIGTERM first, then SIGKILL — and again by a JVM shutdown hook if the caller never
 * got to close it. Each JVM it starts, executors included, carries {@code -Dtracelake.cluster.id=<id>} so that
 * {@link #survivors()} can prove afterwards that nothing is left running.
 */
public final class StandaloneCluster implements AutoCloseable {
    public static final String MARKER_PROPERTY = "tracelake.cluster.id";
    private static final Pattern MASTER_URL = Pattern.compile("Starting Spark master at (spark://\\S+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    /** What {@code mvn package} left in jobs/target that a cluster needs. */
    public record Build(Path home, Path appJar, Path thinJar, List<Path> classpath, List<String> jvmOptions) {
        public static Build of(Path home) throws IOException {
            Path target = home.resolve("jobs/target");
            Path appJar = target.resolve("tracelake-jobs-0.1.0-SNAPSHOT-app.jar");
            Path thinJar = target.resolve("tracelake-jobs-0.1.0-SNAPSHOT.jar");
            for (Path p :
                    List.of(appJar, thinJar, target.resolve("classpath.txt"), target.resolve("jvm-options.txt"))) {
                if (!Files.isRegularFile(p)) throw new IllegalStateException(p + " is missing: run mvn package first");
            }
            List<Path> classpath = new ArrayList<>();
            for (String entry :
                    Files.readString(target.resolve("classpath.txt")).trim().split(java.io.File.pathSeparator)) {
                if (!entry.isBlank()) classpath.add(Path.of(entry));
            }
            List<String> opts = Arrays.asList(
                    Files.readString(target.resolve("jvm-options.txt")).trim().split("\\s+"));
            return new Build(home, appJar, thinJar, classpath, opts);
        }

        /**
         * The jars a Spark distribution would ship: the local classpath minus tracelake's own modules and minus every
         * library the application jar carries itself (a jar whose first class is also in the app jar). So a cluster
         * built from them proves the app jar needs no {@code --jars}.
         */
        public List<Path> sparkJars() throws IOException {
            Set<String> inApp = new HashSet<>();
            try (ZipFile app = new ZipFile(appJar.toFile())) {
                app.stream()
                        .map(ZipEntry::getName)
                        .filter(n -> n.endsWith(".class"))
                        .forEach(inApp::add);
            }
            List<Path> jars = new ArrayList<>();
            for (Path p : classpath) {
                String name = p.getFileName().toString();
                if (!name.endsWith(".jar") || !Files.isRegularFile(p) || name.startsWith("tracelake-")) continue;
                if (!carriedByApp(p, inApp)) jars.add(p);
            }
            return jars;
        }

        private static boolean carriedByApp(Path jar, Set<String> inApp) throws IOException {
            try (ZipFile z = new ZipFile(jar.toFile())) {
                return z.stream()
                        .map(ZipEntry::getName)
                        .filter(n ->
                                n.endsWith(".class") && !n.startsWith("META-INF/") && !n.endsWith("module-info.class"))
                        .findFirst()
                        .map(inApp::contains)
                        .orElse(false);
            }
        }

        /** bin/tracelake's command line: the job on local Spark in one JVM with the project's classpath. */
        public List<String> localCommand(String heap, List<String> jobArgs) {
            List<String> cmd = new ArrayList<>();
            cmd.add(java());
            cmd.add("-Xmx" + heap);
            cmd.addAll(jvmOptions);
            cmd.add("-Dtracelake.home=" + home);
            cmd.add("-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2.properties"));
            StringBuilder cp = new StringBuilder(thinJar.toString());
            for (Path p : classpath) cp.append(java.io.File.pathSeparator).append(p);
            cmd.addAll(List.of("-cp", cp.toString(), "org.tracelake.jobs.Main"));
            cmd.addAll(jobArgs);
            return cmd;
        }
    }

    private final Build build;
    private final Path dir;
    private final Path sparkHome;
    private final String id = UUID.randomUUID().toString();
    private final List<Process> started = Collections.synchronizedList(new ArrayList<>());
    private final Set<ProcessHandle> seen = Collections.synchronizedSet(new LinkedHashSet<>());
    private final Thread shutdownHook = new Thread(this::stopAll, "stop standalone cluster");
    private final List<Path> workerDirs = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();
    private String masterUrl;
    private boolean closed;

    private StandaloneCluster(Build build, Path dir) throws IOException {
        this.build = build;
        this.dir = dir;
        this.sparkHome = dir.resolve("spark-home");
        Files.createDirectories(dir.resolve("logs"));
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a master and {@code workers} workers of one core and 1 GB each on 127.0.0.1, under {@code dir} (its
     * SPARK_HOME, logs and the workers' work dirs), and waits until every worker has registered.
     */
    public static StandaloneCluster start(Build build, Path dir, int workers) throws IOException, InterruptedException {
        StandaloneCluster c = new StandaloneCluster(build, dir);
        try {
            c.makeSparkHome();
            int port = freePort();
            Path masterLog = c.dir.resolve("logs/master.log");
            c.daemon(
                    masterLog,
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(port),
                    "--webui-port",
                    Integer.toString(freePort()));
            // The master may move to another port when the chosen one was taken meanwhile: its log says where it is.
            c.masterUrl =
                    c.awaitLog(masterLog, MASTER_URL, "the master to start").group(1);
            List<Path> logs = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                Path work = c.dir.resolve("worker-" + i);
                Files.createDirectories(work);
                c.workerDirs.add(work);
                Path log = c.dir.resolve("logs/worker-" + i + ".log");
                logs.add(log);
                c.workers.add(c.daemon(
                        log,
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        "127.0.0.1",
                        "--cores",
                        "1",
                        "--memory",
                        "1g",
                        "--webui-port",
                        Integer.toString(freePort()),
                        "--work-dir",
                        work.toString(),
                        c.masterUrl));
            }
            for (Path log : logs)
                c.awaitLog(log, Pattern.compile("Successfully registered with master"), "a worker to register");
            return c;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            c.close();
            throw e;
        }
    }

    public String masterUrl() {
        return masterUrl;
    }

    public Path dir() {
        return dir;
    }

    /** The workers' work dirs: each application gets app-*&#47;&lt;executor&gt;/ in the worker that ran an executor for it. */
    public List<Path> workerDirs() {
        return List.copyOf(workerDirs);
    }

    /**
     * The driver, as {@code spark-submit --master <url> [options] --class org.tracelake.jobs.Main <app jar> args}
     * runs it in client mode: Spark's submit entry point in a JVM of {@code driverHeap} with Spark's jars only, the
     * app jar added by SparkSubmit. Output goes to {@code log}; the caller waits for the process.
     */
    public Process submit(String driverHeap, List<String> submitOptions, List<String> appArgs, Path log)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-Xmx" + driverHeap);
        cmd.addAll(build.jvmOptions());
        cmd.add("-D" + MARKER_PROPERTY + "=" + id);
        cmd.add("-Dlog4j2.configurationFile=" + build.home().resolve("conf/log4j2.properties"));
        cmd.addAll(List.of(
                "-cp",
                sparkHome.resolve("jars") + "/*",
                "org.apache.spark.deploy.SparkSubmit",
                "--master",
                masterUrl,
                "--conf",
                "spark.executor.extraJavaOptions=" + String.join(" ", build.jvmOptions()) + " -D" + MARKER_PROPERTY
                        + "=" + id,
                "--conf",
                "spark.driver.host=127.0.0.1",
                "--conf",
                "spark.driver.bindAddress=127.0.0.1"));
        cmd.addAll(submitOptions);
        cmd.addAll(List.of("--class", "org.tracelake.jobs.Main", build.appJar().toString()));
        cmd.addAll(appArgs);
        return launch(cmd, log);
    }

    /**
     * SIGKILLs the executor JVM a worker forked (found among that worker's children by its main class, never by a
     * machine-wide search), as a crashed or OOM-killed executor dies; returns its pid, or -1 when the worker runs none.
     */
    public long killExecutor(int worker) {
        for (ProcessHandle h : workers.get(worker).descendants().toList()) {
            if (h.isAlive() && describe(h).contains("org.apache.spark.executor.CoarseGrainedExecutorBackend")) {
                seen.add(h);
                h.destroyForcibly();
                return h.pid();
            }
        }
        return -1;
    }

    /** The exact command lines started so far, for reports. */
    public List<String> commands() {
        return List.copyOf(commands);
    }

    private final List<String> commands = Collections.synchronizedList(new ArrayList<>());

    /** Stops every process this cluster started, children first by pid; idempotent. */
    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    /**
     * Processes of this cluster still alive: any pid it started or saw as a child, and any process whose command
     * line carries this cluster's marker (an executor orphaned by a dead worker would still show here).
     */
    public List<String> survivors() {
        Map<Long, String> alive = new LinkedHashMap<>();
        synchronized (seen) {
            for (ProcessHandle h : seen) if (h.isAlive()) alive.put(h.pid(), describe(h));
        }
        String marker = "-D" + MARKER_PROPERTY + "=" + id;
        ProcessHandle.allProcesses()
                .filter(h -> h.isAlive() && describe(h).contains(marker))
                .forEach(h -> alive.put(h.pid(), describe(h)));
        List<String> out = new ArrayList<>();
        alive.forEach((pid, cmd) -> out.add(pid + ": " + (cmd.length() > 300 ? cmd.substring(0, 300) + "…" : cmd)));
        return out;
    }

    /** The last lines of a log, for failure messages. */
    public static String tail(Path log, int lines) {
        try {
            if (!Files.exists(log)) return "(no " + log + ")";
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return log + ":\n" + String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    public String logTails(int lines) {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir.resolve("logs"))) {
            for (Path p : files.sorted().toList()) sb.append(tail(p, lines)).append("\n");
        } catch (IOException e) {
            sb.append("(no logs: ").append(e).append(")");
        }
        return sb.toString();
    }

    private synchronized void stopAll() {
        if (closed) return;
        closed = true;
        List<Process> procs;
        synchronized (started) {
            procs = new ArrayList<>(started);
        }
        Collections.reverse(procs); // drivers first, then workers, the master last
        for (Process p : procs) stop(p);
    }

    /** SIGTERM (a worker then stops its executors itself), then SIGKILL for whatever of its tree is still up. */
    private void stop(Process p) {
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        seen.addAll(tree);
        if (p.isAlive()) {
            p.destroy();
            try {
                p.waitFor(15, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        tree.add(p.toHandle());
        for (ProcessHandle h : tree) if (h.isAlive()) h.destroyForcibly();
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(15, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // survivors() reports it
            }
        }
    }

    private Process daemon(Path log, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-Xmx256m");
        cmd.addAll(build.jvmOptions());
        cmd.add("-D" + MARKER_PROPERTY + "=" + id);
        cmd.add("-Dspark.master.rest.enabled=false"); // no REST submission server: one port fewer to bind
        cmd.addAll(List.of("-cp", sparkHome.resolve("jars") + "/*", mainClass));
        cmd.addAll(Arrays.asList(args));
        return launch(cmd, log);
    }

    private synchronized Process launch(List<String> cmd, Path log) throws IOException {
        if (closed) throw new IllegalStateException("cluster already stopped");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        // A worker builds its executors' classpath from SPARK_HOME/jars and needs the Scala version to find them.
        env.put("SPARK_HOME", sparkHome.toString());
        env.put("SPARK_SCALA_VERSION", "2.13");
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.remove("SPARK_CONF_DIR");
        Process p = pb.start();
        started.add(p);
        seen.add(p.toHandle());
        commands.add(String.join(" ", cmd));
        return p;
    }

    private void makeSparkHome() throws IOException {
        Path jars = sparkHome.resolve("jars");
        Files.createDirectories(jars);
        for (Path jar : build.sparkJars()) {
            Path link = jars.resolve(jar.getFileName());
            if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                Files.createSymbolicLink(link, jar.toAbsolutePath());
        }
    }

    private Matcher awaitLog(Path log, Pattern pattern, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)) {
                Matcher m = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
                if (m.find()) return m;
            }
            synchronized (started) {
                for (Process p : started) {
                    if (!p.isAlive())
                        throw new IllegalStateException("a cluster process exited (" + p.exitValue()
                                + ") while waiting for " + what + "\n" + logTails(40));
                }
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("timed out waiting for " + what + "\n" + logTails(40));
    }

    private static String describe(ProcessHandle h) {
        ProcessHandle.Info info = h.info();
        return info.command().orElse("?") + " "
                + String.join(" ", info.arguments().orElse(new String[0]));
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }
}
