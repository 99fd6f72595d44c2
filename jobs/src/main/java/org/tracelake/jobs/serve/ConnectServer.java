package org.tracelake.jobs.serve;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connect.service.SparkConnectService$;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.sql.WarehouseViews;
import org.tracelake.jobs.warehouse.SparkCatalogs;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * {@code tracelake serve}: one Spark application over the warehouse with a Spark Connect server in it. Every
 * warehouse table is a view that lists its files at each query (so every query sees the latest refresh), every udf is
 * a function of every client's session, and {@code metric_reference} is the metric catalog. A table a refresh creates
 * after the start gets its view within {@link #WATCH_SECONDS} seconds.
 */
public final class ConnectServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(ConnectServer.class);
    /** How often the warehouse is looked at for tables with no view yet (one listing per table). */
    static final int WATCH_SECONDS = 2;

    private final SparkSession spark;
    private final ScheduledExecutorService watcher;
    private final String host;
    private final int port;
    private final List<String> tables;
    private final int functions;

    private ConnectServer(
            SparkSession spark,
            ScheduledExecutorService watcher,
            String host,
            int port,
            List<String> tables,
            int functions) {
        this.spark = spark;
        this.watcher = watcher;
        this.host = host;
        this.port = port;
        this.tables = tables;
        this.functions = functions;
    }

    /** Starts the application and the server on {@code host:port} (port 0: any free port). */
    public static ConnectServer start(SparkConf conf, String warehouseRoot, String host, int port) throws IOException {
        conf.set("spark.connect.grpc.binding.address", host);
        conf.set("spark.connect.grpc.binding.port", Integer.toString(port));
        // A client's repeated query must be planned again, so that it lists the tables' files again.
        conf.setIfMissing("spark.connect.session.planCache.enabled", "false");
        // every client's session names the tables by the same catalog: in the application's configuration
        SparkCatalogs.configure(conf, warehouseRoot);
        ReleaseNoise.drop();
        SparkSession spark = SparkSessions.create(conf);
        ScheduledExecutorService watcher = null;
        try {
            int functions = SharedFunctions.shareWithNewSessions(spark);
            Warehouse warehouse =
                    new Warehouse(warehouseRoot, spark.sparkContext().hadoopConfiguration());
            WarehouseViews views = new WarehouseViews(spark, warehouse, WarehouseViews.Scope.SHARED);
            List<String> tables = views.refresh();
            watcher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tracelake-serve-watcher");
                t.setDaemon(true);
                return t;
            });
            watcher.scheduleWithFixedDelay(
                    () -> {
                        try {
                            views.refresh();
                        } catch (RuntimeException e) {
                            LOG.warn("could not look for new tables under " + warehouse.root() + ": " + e.getMessage());
                        }
                    },
                    WATCH_SECONDS,
                    WATCH_SECONDS,
                    TimeUnit.SECONDS);
            SparkConnectService$.MODULE$.start(spark.sparkContext());
            return new ConnectServer(spark, watcher, host, SparkConnectService$.MODULE$.localPort(), tables, functions);
        } catch (RuntimeException | IOException e) {
            if (watcher != null) watcher.shutdownNow();
            spark.stop();
            throw e;
        }
    }

    /** The address clients connect to. */
    public String address() {
        return "sc://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    public int port() {
        return port;
    }

    public List<String> tables() {
        return tables;
    }

    public int functions() {
        return functions;
    }

    /** Stops accepting clients, then the application. */
    @Override
    public void close() {
        watcher.shutdownNow();
        try {
            SparkConnectService$.MODULE$.stop(scala.Option.<Object>apply(10L), scala.Option.apply(TimeUnit.SECONDS));
        } finally {
            spark.stop();
        }
    }
}
