package org.tracelake.jobs.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.tracelake.jobs.refresh.PreviousLayout;
import org.tracelake.jobs.serve.ConnectServer;
import org.tracelake.jobs.serve.RunningServe;
import org.tracelake.jobs.serve.ServeToken;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.warehouse.Warehouse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = {
            "One long-lived Spark application over the warehouse that Spark Connect clients query:",
            "`tracelake sql --remote sc://HOST:PORT`, PySpark's",
            "SparkSession.builder.remote(\"sc://HOST:PORT\"), or any Spark Connect client of",
            "this Spark version. Load once, ask many times: a query pays no JVM or Spark start.",
            "Every warehouse table is a view that lists its files at each query (every query",
            "sees the latest refresh; refreshes run alongside), every udf is a function, and",
            "metric_reference is the metric catalog. Prints the address it listens on;",
            "stops on Ctrl-C or SIGTERM. Reads only: takes no warehouse lock.",
            "Every client must present a token: a new one per start, in WAREHOUSE/_serve/token",
            "(readable by its owner only; `sql --remote` reads it there), or yours",
            "(--token-file, or SPARK_CONNECT_AUTHENTICATE_TOKEN). Clients read tables and",
            "views and call the udfs; writes, reads of files by path, jars, functions and",
            "shared views are refused (--allow-writes lifts the write rules).",
            "Binds 127.0.0.1 unless --host says otherwise; another address needs your own",
            "token, and the channel is not encrypted: see docs/RELIABILITY.md (Security)."
        })
public final class ServeCommand implements Callable<Integer> {
    @Option(
            names = "--port",
            defaultValue = "15002",
            paramLabel = "PORT",
            description = "Port to listen on (0: any free port). Default: ${DEFAULT-VALUE}, Spark Connect's.")
    int port;

    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            paramLabel = "ADDRESS",
            description = "Address to bind. Default: ${DEFAULT-VALUE} (this machine only).")
    String host;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description = "Read the clients' token from this file (one line) instead of making one per start.")
    java.nio.file.Path tokenFile;

    @Option(
            names = "--allow-writes",
            description = "Let clients write: INSERT, CREATE/DROP/ALTER TABLE, DataFrame writes. Only on a host where"
                    + " every holder of the token is trusted.")
    boolean allowWrites;

    @Option(
            names = "--background",
            description = "Start serve as a process of its own and return once it listens (its output in"
                    + " WAREHOUSE/_serve/serve.log); `sql` on this warehouse then uses it. --stop stops it.")
    boolean background;

    @Option(names = "--stop", description = "Stop the serve running for this warehouse (SIGTERM), and wait for it.")
    boolean stop;

    @Spec
    CommandSpec spec;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        if (stop) return stopRunning();
        if (port < 0 || port > 65535) {
            System.err.println("--port takes 0 to 65535, not " + port);
            return ExitCodes.USAGE;
        }
        SparkConf conf = sparkOptions.conf("tracelake serve");
        String problem = missingWarehouse(conf);
        if (problem != null) {
            System.err.println(problem);
            return ExitCodes.USAGE;
        }
        boolean loopback;
        try {
            loopback = InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            System.err.println("--host " + host + " is not an address of this machine: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        String given;
        try {
            given = givenToken();
        } catch (IOException e) {
            System.err.println("--token-file: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (!loopback && given == null) {
            System.err.println("--host " + host + " opens serve to other machines: give it a token of yours"
                    + " (--token-file FILE or SPARK_CONNECT_AUTHENTICATE_TOKEN) and put TLS in front"
                    + " (docs/RELIABILITY.md, Security)");
            return ExitCodes.USAGE;
        }
        java.nio.file.Path local = ServeToken.localFolder(warehouseOption.warehouse);
        if (given == null && local == null) {
            System.err.println("--warehouse " + warehouseOption.warehouse + " is not on a local disk, where serve"
                    + " keeps its token readable by you only: give one (--token-file FILE or"
                    + " SPARK_CONNECT_AUTHENTICATE_TOKEN)");
            return ExitCodes.USAGE;
        }
        if (background) return startInBackground(local);
        String token = given != null ? given : ServeToken.generate();
        java.nio.file.Path written = given != null ? null : ServeToken.write(local, token);

        ConnectServer server;
        try {
            server = ConnectServer.start(conf, warehouseOption.warehouse, host, port, token, allowWrites);
        } catch (RuntimeException | IOException e) {
            if (written != null) ServeToken.remove(local, token);
            throw e;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread stopper = new Thread(
                () -> {
                    System.out.println("tracelake serve: stopping");
                    System.out.flush();
                    try {
                        if (local != null) RunningServe.remove(local);
                        server.close();
                    } finally {
                        if (written != null) ServeToken.remove(local, token);
                        stopped.countDown();
                    }
                },
                "tracelake-serve-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        System.out.println(
                "tracelake serve: listening on " + server.address() + " (warehouse " + warehouseOption.warehouse + ": "
                        + server.tables().size() + " tables, " + server.functions() + " functions, metric_reference)");
        System.out.println("tracelake serve: clients present the token "
                + (written != null ? "in " + written + " (yours only; `sql --remote` reads it there)" : "you gave")
                + "; PySpark: SparkSession.builder.remote(\"" + server.clientAddress() + "/;token=TOKEN\")");
        System.out.println("tracelake serve: channel not encrypted (Spark Connect serves plain gRPC)"
                + (loopback
                        ? "; bound to this machine only"
                        : "; bound to " + host + ": put a TLS proxy in front (docs/RELIABILITY.md, Security)"));
        System.out.println(
                allowWrites
                        ? "tracelake serve: WARNING --allow-writes: every client holding the token may write, change"
                                + " and drop tables, and write files anywhere this user can"
                        : "tracelake serve: read-only: clients read tables and views and call the udfs; writes, reads"
                                + " of files by path, jars, functions and shared views are refused");
        System.out.println("tracelake serve: Ctrl-C or SIGTERM stops it");
        System.out.flush();
        // announced last, once it answers: `sql` on this warehouse uses it from now on
        if (local != null && loopback) RunningServe.write(local, server.address(), server.localPort());
        server.warmUp(token);
        stopped.await(); // until SIGTERM/Ctrl-C runs the hook (the JVM then exits with 143/130, as a stopped server
        // does)
        return ExitCodes.OK;
    }

    /** {@code --stop}: SIGTERM to the serve announced in the warehouse, then waits for it to end. */
    private int stopRunning() throws InterruptedException {
        RunningServe running = RunningServe.find(warehouseOption.warehouse);
        if (running == null) {
            System.err.println("no serve is running for " + warehouseOption.warehouse);
            return ExitCodes.FAILED;
        }
        ProcessHandle process = ProcessHandle.of(running.pid()).orElse(null);
        if (process == null) return ExitCodes.OK;
        process.destroy();
        try {
            process.onExit().get(120, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            System.err.println("serve (pid " + running.pid() + ") did not stop within 120 s of SIGTERM");
            return ExitCodes.FAILED;
        }
        System.out.println(
                "tracelake serve: stopped the serve on " + running.address() + " (pid " + running.pid() + ")");
        return ExitCodes.OK;
    }

    /**
     * {@code --background}: the same command, without this option, as a process of its own (in a session of its own
     * where {@code setsid} exists, so that closing the terminal does not stop it); returns once it announces itself.
     */
    private int startInBackground(java.nio.file.Path local) throws IOException, InterruptedException {
        if (local == null) {
            System.err.println("--background needs a warehouse on a local disk (its log and address live there)");
            return ExitCodes.USAGE;
        }
        RunningServe already = RunningServe.find(warehouseOption.warehouse);
        if (already != null) {
            System.out.println(
                    "tracelake serve: already running on " + already.address() + " (pid " + already.pid() + ")");
            return ExitCodes.OK;
        }
        java.nio.file.Path dir = Files.createDirectories(local.resolve(ServeToken.FOLDER));
        java.nio.file.Path log = dir.resolve("serve.log");
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(java.nio.file.Path.of("/usr/bin/setsid"))) cmd.add("/usr/bin/setsid");
        cmd.add(ProcessHandle.current()
                .info()
                .command()
                .orElse(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString()));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.tracelake.jobs.Main", "serve"));
        // the arguments after "serve" (picocli may give the whole command line to a subcommand), less this option
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        int serve = args.indexOf("serve");
        for (String a : serve >= 0 ? args.subList(serve + 1, args.size()) : args) {
            if (!a.equals("--background")) cmd.add(a);
        }
        Files.deleteIfExists(log);
        Process child = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(log.toFile())
                .redirectErrorStream(true)
                .start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            RunningServe running = RunningServe.find(warehouseOption.warehouse);
            if (running != null) {
                System.out.println("tracelake serve: running in the background on " + running.address() + " (pid "
                        + running.pid() + "; log " + log + "); `tracelake sql --warehouse " + warehouseOption.warehouse
                        + "` uses it, `tracelake serve --stop --warehouse " + warehouseOption.warehouse
                        + "` stops it");
                return ExitCodes.OK;
            }
            if (!child.isAlive()) {
                System.err.println("serve ended with exit code " + child.exitValue() + " before it listened; its log, "
                        + log + ":");
                for (String line : Files.readAllLines(log)) System.err.println("  " + line);
                return child.exitValue() == ExitCodes.USAGE ? ExitCodes.USAGE : ExitCodes.FAILED;
            }
            Thread.sleep(100);
        }
        System.err.println("serve did not listen within 10 minutes; it is still starting (pid " + child.pid() + ", log "
                + log + ")");
        return ExitCodes.FAILED;
    }

    /** The token the user gave (--token-file, else Spark Connect's variable), or null: serve makes one. */
    private String givenToken() throws IOException {
        if (tokenFile != null) return ServeToken.read(tokenFile);
        String env = System.getenv(ServeToken.ENV);
        return env == null || env.isBlank() ? null : env.strip();
    }

    /** Why the warehouse cannot be served (it does not exist, or is a file), or null. Checked before Spark starts. */
    private String missingWarehouse(SparkConf conf) throws IOException {
        Path root = new Path(warehouseOption.warehouse);
        FileSystem fs = root.getFileSystem(SparkSessions.hadoopConf(conf));
        if (!fs.exists(root)) {
            return "no warehouse at " + warehouseOption.warehouse + ": run `tracelake refresh --warehouse "
                    + warehouseOption.warehouse + "` first, or pass --warehouse";
        }
        if (!fs.getFileStatus(root).isDirectory()) {
            return "--warehouse " + warehouseOption.warehouse + " is a file, not a warehouse folder";
        }
        if (PreviousLayout.found(new Warehouse(warehouseOption.warehouse, SparkSessions.hadoopConf(conf))))
            return "tracelake serve: " + PreviousLayout.message(warehouseOption.warehouse);
        return null;
    }
}
