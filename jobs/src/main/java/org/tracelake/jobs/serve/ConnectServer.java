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
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.sql.WarehouseViews;
import org.tracelake.jobs.warehouse.SparkCatalogs;
import org.tracelake.jobs.warehouse.Warehouse;
import scala.runtime.BoxedUnit;

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
    /** The endpoint of `sql` on this machine ({@link LocalEndpoint}), or null when serve listens elsewhere. */
    private final LocalEndpoint local;

    private ConnectServer(
            SparkSession spark,
            ScheduledExecutorService watcher,
            String host,
            int port,
            List<String> tables,
            int functions,
            LocalEndpoint local) {
        this.spark = spark;
        this.watcher = watcher;
        this.host = host;
        this.port = port;
        this.tables = tables;
        this.functions = functions;
        this.local = local;
    }

    /**
     * Starts the application and the server on {@code host:port} (port 0: any free port). Every call must carry
     * {@code token} (Spark Connect's pre-shared token); every request passes {@link RequestGate} and every statement
     * {@link PlanCheck}, which refuse writes unless {@code allowWrites}.
     */
    public static ConnectServer start(
            SparkConf conf, String warehouseRoot, String host, int port, String token, boolean allowWrites)
            throws IOException {
        if (token == null || token.isBlank()) throw new IllegalArgumentException("serve needs a token");
        conf.set("spark.connect.grpc.binding.address", host);
        conf.set("spark.connect.grpc.binding.port", Integer.toString(port));
        conf.set("spark.connect.authenticate.token", token);
        String interceptors =
                conf.get("spark.connect.grpc.interceptor.classes", "").strip();
        conf.set(
                "spark.connect.grpc.interceptor.classes",
                (interceptors.isEmpty() ? "" : interceptors + ",") + RequestGate.class.getName());
        // The web UI listens on every interface with no authentication and shows every client's statements: off
        // unless the owner asks for it (--conf spark.ui.enabled=true).
        conf.setIfMissing("spark.ui.enabled", "false");
        ServePolicy.allowWrites(allowWrites);
        // Spark isolates each session's artifacts (jars, classes, files) in a class loader of its own, and its code
        // cache is kept per class loader: every client session (every `sql` process) compiled each query's generated
        // code again, a quarter of a served query's CPU (a profile of eight one-query clients: 124 of 517 samples in
        // CodeGenerator; 16 with the isolation off). serve takes no artifact (RequestGate refuses AddArtifacts,
        // PlanCheck ADD JAR/FILE/ARCHIVE), so there is nothing to isolate.
        conf.setIfMissing("spark.sql.artifact.isolation.enabled", "false");
        // A client's repeated query must be planned again, so that it lists the tables' files again.
        conf.setIfMissing("spark.connect.session.planCache.enabled", "false");
        // every client's session names the tables by the same catalog: in the application's configuration
        SparkCatalogs.configure(conf, warehouseRoot);
        ReleaseNoise.drop();
        SparkSession spark = SparkSessions.create(conf);
        ScheduledExecutorService watcher = null;
        LocalEndpoint local = null;
        try {
            int functions = SharedFunctions.shareWithNewSessions(spark);
            Warehouse warehouse =
                    new Warehouse(warehouseRoot, spark.sparkContext().hadoopConfiguration());
            WarehouseViews views = new WarehouseViews(spark, warehouse, WarehouseViews.Scope.SHARED);
            List<String> tables = views.refresh();
            // From here on, every new session (each client's) checks its statements. The server's own session, whose
            // analyser exists already, keeps creating the shared views.
            org.apache.spark.sql.classic.SparkSession classic = (org.apache.spark.sql.classic.SparkSession) spark;
            classic.sessionState().analyzer();
            java.util.Set<String> folders = new java.util.HashSet<>();
            for (String table : org.tracelake.schemas.Tables.ALL) {
                folders.add(new org.apache.hadoop.fs.Path(warehouse.table(table)).toString());
            }
            ServePolicy.tableFolders(folders);
            classic.extensions().injectParser((session, parser) -> new PathReadParser(parser));
            classic.extensions().injectCheckRule(session -> plan -> {
                PlanCheck.check((org.apache.spark.sql.classic.SparkSession) session, plan);
                return BoxedUnit.UNIT;
            });
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
            // `sql` on this machine is answered without a Spark Connect client (LocalClient): only when serve is this
            // machine's, as the address sql finds it by is announced only then
            if (isLoopback(host)) local = LocalEndpoint.start(spark, token);
            return new ConnectServer(
                    spark, watcher, host, SparkConnectService$.MODULE$.localPort(), tables, functions, local);
        } catch (RuntimeException | IOException e) {
            if (local != null) local.close();
            if (watcher != null) watcher.shutdownNow();
            spark.stop();
            throw e;
        }
    }

    /** The address clients connect to. */
    public String address() {
        return "sc://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * The address a Spark Connect client should use: on this machine {@code sc://localhost:PORT}, because Spark's
     * clients send a token over a plain channel only to {@code localhost} (to any other name they insist on TLS).
     */
    public String clientAddress() {
        return isLoopback(host) ? "sc://localhost:" + port : address();
    }

    /** Whether serve listens on this machine's loopback address only (a name that does not resolve: no). */
    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The port of the endpoint `sql` on this machine uses ({@link LocalEndpoint}), or 0 when there is none. */
    public int localPort() {
        return local == null ? 0 : local.port();
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

    /**
     * Starts {@link ServeWarmup} against this server (its own address, with the clients' token), unless
     * {@code spark.tracelake.serve.warmupQueries} is 0 or serve listens on another machine's address (the warm-up
     * speaks to it as a client on this machine would).
     */
    public void warmUp(String token) {
        int queries = Settings.of(spark.sparkContext().getConf())
                .get(Settings.SERVE_WARMUP_QUERIES)
                .intValue();
        if (isLoopback(host)) ServeWarmup.start(address(), localPort(), token, tables, queries);
    }

    /** Stops accepting clients, then the application. */
    @Override
    public void close() {
        if (local != null) local.close();
        watcher.shutdownNow();
        try {
            SparkConnectService$.MODULE$.stop(scala.Option.<Object>apply(10L), scala.Option.apply(TimeUnit.SECONDS));
        } finally {
            spark.stop();
        }
    }
}
