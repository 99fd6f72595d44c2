package org.tracelake.jobs.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.tracelake.jobs.serve.ConnectServer;
import org.tracelake.jobs.spark.SparkSessions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
            "Binds 127.0.0.1 unless --host says otherwise; Spark Connect has no authentication",
            "of its own here, so bind another address only on a network you trust."
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

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
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
        ConnectServer server = ConnectServer.start(conf, warehouseOption.warehouse, host, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread stopper = new Thread(
                () -> {
                    System.out.println("tracelake serve: stopping");
                    System.out.flush();
                    server.close();
                    stopped.countDown();
                },
                "tracelake-serve-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        System.out.println(
                "tracelake serve: listening on " + server.address() + " (warehouse " + warehouseOption.warehouse + ": "
                        + server.tables().size() + " tables, " + server.functions() + " functions, metric_reference)");
        System.out.println("tracelake serve: connect with `bin/tracelake sql --remote " + server.address()
                + "` or SparkSession.builder.remote(\"" + server.address() + "\"); Ctrl-C or SIGTERM stops it");
        System.out.flush();
        stopped.await(); // until SIGTERM/Ctrl-C runs the hook (the JVM then exits with 143/130, as a stopped server
        // does)
        return ExitCodes.OK;
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
        return null;
    }
}
