package org.tracelake.jobs.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.TraceStyle;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.PartitionFiles;

/**
 * The application on a real Spark standalone cluster: a master and two one-core workers on 127.0.0.1, each its own
 * JVM started from the project's Spark jars, the refresh submitted through Spark's own submit entry point with the
 * shaded application jar — exactly the README's {@code spark-submit} line. While the ingest stage runs, one executor
 * JVM is killed with SIGKILL (issue 16: executors die on real clusters); Spark reruns its tasks elsewhere. The
 * refresh must still exit 0, and every table must equal what {@code bin/tracelake refresh} (local[*], nothing killed)
 * writes from the same archive: the same metric rows, the same events (count and content hash per rank), every
 * trace file in trace_files exactly once, no "two files claim one rank". No process may outlive the test. Runs after
 * {@code package} (failsafe), because it needs the application jar.
 */
class StandaloneClusterIT {
    private static final double RELATIVE_TOLERANCE = 1e-9;
    /** A metric row's identity: METRICS.md §5's (workload, metric, figure, scope, rank, step, key). */
    private static final List<String> KEY = List.of("workload", "metric", "figure", "scope", "rank", "step", "key");

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES) // a few minutes on a quiet 2-core machine; generous for a shared one
    void refreshOnAStandaloneClusterLosingAnExecutorWritesTheSameTablesAsLocal() throws Exception {
        Path home = Path.of(System.getProperty("tracelake.home", ".")).toAbsolutePath();
        StandaloneCluster.Build build = StandaloneCluster.Build.of(home);
        Path archive = tmp.resolve("archive");
        TestFiles.copyTree(home.resolve("data"), archive);
        // Enough files (48 rank traces) that the ingest stage runs a while on two one-core executors, so the kill
        // lands while tasks are running.
        SampleArchiveGenerator.write(
                archive, new WorkloadSpec("wide-48", TraceStyle.MODERN, 48, 1, 3, 4, false, 5, 50_000, 7));
        Path clusterWarehouse = tmp.resolve("warehouse-cluster");
        Path localWarehouse = tmp.resolve("warehouse-local");
        Path runDir = home.resolve("jobs/target/cluster-it/" + System.currentTimeMillis());

        StandaloneCluster cluster = StandaloneCluster.start(build, runDir, 2);
        try {
            Path log = runDir.resolve("logs/submit.log");
            // As the README submits it: the project's spark-defaults.conf travels with --properties-file.
            Process driver = cluster.submit(
                    "1g",
                    List.of(
                            "--properties-file",
                            home.resolve("conf/spark-defaults.conf").toString()),
                    List.of("refresh", "--archive", archive.toString(), "--warehouse", clusterWarehouse.toString()),
                    log);
            // The moment a task of the events ingest has started writing (its unfinished file exists), worker 0's
            // executor is killed.
            long killed = -1;
            while (driver.isAlive() && killed < 0) {
                if (ingestTaskRunning(clusterWarehouse.resolve("_staging"))) killed = cluster.killExecutor(0);
                else Thread.sleep(50);
            }
            assertTrue(killed > 0, "no executor was killed during the ingest stage\n" + cluster.logTails(40));
            if (!driver.waitFor(15, TimeUnit.MINUTES))
                fail("the submitted refresh did not finish in 15 minutes\n" + cluster.logTails(40));
            assertEquals(
                    0,
                    driver.exitValue(),
                    "spark-submit refresh failed after executor " + killed + " was killed\n" + cluster.logTails(60));
            // The kill landed mid-stage: the driver lost a running task with the executor, and ran it again.
            String driverLog = Files.readString(log);
            assertTrue(
                    driverLog.contains("ExecutorLostFailure"),
                    "no task was lost with the executor\n" + cluster.logTails(60));
            // Both workers ran an executor for the application: the work was spread over the cluster.
            for (Path work : cluster.workerDirs()) {
                assertTrue(
                        hasExecutorDir(work), "no executor ran on the worker of " + work + "\n" + cluster.logTails(40));
            }
        } finally {
            cluster.close();
        }
        assertEquals(List.of(), cluster.survivors(), "processes left behind by the cluster");

        Path localLog = runDir.resolve("logs/local.log");
        Process local = new ProcessBuilder(build.localCommand(
                        "1g",
                        List.of(
                                "refresh",
                                "--archive",
                                archive.toString(),
                                "--warehouse",
                                localWarehouse.toString(),
                                "--master",
                                "local[*]")))
                .redirectErrorStream(true)
                .redirectOutput(localLog.toFile())
                .start();
        try {
            if (!local.waitFor(10, TimeUnit.MINUTES)) fail("the local refresh did not finish in 10 minutes");
        } finally {
            local.descendants().forEach(ProcessHandle::destroyForcibly);
            local.destroyForcibly();
            local.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(0, local.exitValue(), "local refresh failed\n" + StandaloneCluster.tail(localLog, 60));

        SparkSession spark = SharedSpark.get();
        // this JVM's session has read no warehouse yet: Iceberg's source reads a table by its path through a catalog
        // that tracelake configures on first use (a Hive one otherwise, and there is no Hive)
        org.tracelake.jobs.warehouse.SparkCatalogs.forPaths(
                spark,
                new org.tracelake.jobs.warehouse.Warehouse(
                        localWarehouse.toString(), spark.sparkContext().hadoopConfiguration()));
        Map<String, List<Row>> onCluster = metricRows(spark, clusterWarehouse);
        Map<String, List<Row>> onLocal = metricRows(spark, localWarehouse);
        assertFalse(onLocal.isEmpty(), "the local refresh wrote no metric rows");
        long workloads = onLocal.keySet().stream()
                .map(k -> k.split("\u0001", 2)[0])
                .distinct()
                .count();
        long sampleWorkloads;
        try (Stream<Path> folders = Files.list(home.resolve("data"))) {
            sampleWorkloads = folders.filter(Files::isDirectory).count();
        }
        // data/'s nine (two Kineto runs, a sample of every other format) and the generated one
        assertEquals(sampleWorkloads + 1, workloads, "every sample workload and the generated one have metrics");
        assertEquals(
                onLocal.keySet(),
                onCluster.keySet(),
                "the same metric rows (by workload, metric, figure, scope, rank, step, key)");
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, List<Row>> e : onLocal.entrySet()) {
            List<Row> expected = e.getValue();
            List<Row> actual = onCluster.get(e.getKey());
            if (expected.size() != actual.size()) {
                differences.add(
                        e.getKey() + ": " + expected.size() + " local rows vs " + actual.size() + " on the cluster");
                continue;
            }
            for (int i = 0; i < expected.size(); i++) {
                String d = difference(expected.get(i), actual.get(i));
                if (d != null) differences.add(e.getKey().replace('\u0001', '|') + ": " + d);
            }
        }
        assertEquals(List.of(), differences, "metric rows that differ between local[*] and the standalone cluster");
        assertEquals(count(spark, localWarehouse, "events"), count(spark, clusterWarehouse, "events"), "events rows");
        // the tables of data/'s format samples, read and computed on the executors (an Nsight export's SQLite too)
        for (String table : List.of(
                "memory_events",
                "memory_segments",
                "iteration_telemetry",
                "et_nodes",
                "flight_recorder",
                "process_group_status",
                "collective_hangs")) {
            long rows = count(spark, localWarehouse, table);
            assertTrue(rows > 0, table + " is empty after the local refresh");
            assertEquals(rows, count(spark, clusterWarehouse, table), table + " rows");
        }
        assertEquals(
                eventsByRank(spark, localWarehouse),
                eventsByRank(spark, clusterWarehouse),
                "events per rank: count and content hash");
        List<Row> files = traceFiles(spark, clusterWarehouse);
        assertEquals(traceFiles(spark, localWarehouse), files, "trace_files: one identical row per input file");
        assertEquals(
                files.size(),
                files.stream()
                        .map(r -> r.getString(0) + "/" + r.getString(1))
                        .distinct()
                        .count(),
                "no trace file listed twice");
        assertTrue(
                files.stream()
                        .noneMatch(r -> r.getString(7) != null && r.getString(7).contains("claim")),
                "no duplicate-rank error: " + files);
        TestFiles.deleteTree(runDir); // logs, SPARK_HOME links and the workers' copies of the jar: kept only on failure
    }

    /** Metric rows by key; within a key sorted by their text, so duplicate keys compare as multisets. */
    private static Map<String, List<Row>> metricRows(SparkSession spark, Path warehouse) {
        Map<String, List<Row>> out = new TreeMap<>();
        List<Row> rows = spark.read()
                .format("iceberg")
                .load(warehouse.resolve("metrics").toString())
                .drop("computed_at")
                .collectAsList();
        for (Row r : rows) {
            StringBuilder key = new StringBuilder();
            for (String k : KEY) key.append(key.length() == 0 ? "" : "\u0001").append(Objects.toString(r.getAs(k)));
            out.computeIfAbsent(key.toString(), x -> new ArrayList<>()).add(r);
        }
        for (List<Row> l : out.values()) l.sort((a, b) -> a.toString().compareTo(b.toString()));
        return out;
    }

    /** Null when the rows agree: every column equal, doubles to 1e-9 relative. */
    private static String difference(Row expected, Row actual) {
        for (String field : expected.schema().fieldNames()) {
            Object a = expected.getAs(field);
            Object b = actual.getAs(field);
            if (a instanceof Double x && b instanceof Double y) {
                if (x.isNaN() && y.isNaN()) continue;
                double scale = Math.max(Math.abs(x), Math.abs(y));
                if (Math.abs(x - y) <= RELATIVE_TOLERANCE * scale) continue;
            } else if (Objects.equals(a, b)) {
                continue;
            }
            return field + " local=" + a + " cluster=" + b;
        }
        return null;
    }

    /** Per (workload, rank): the events and a hash of their content, which a duplicated or lost row would change. */
    private static List<Row> eventsByRank(SparkSession spark, Path warehouse) {
        return spark.read()
                .format("iceberg")
                .load(warehouse.resolve("events").toString())
                .selectExpr("workload", "rank", "xxhash64(to_json(struct(*))) AS h")
                .groupBy("workload", "rank")
                .agg(functions.count("*"), functions.sum("h"))
                .orderBy("workload", "rank")
                .collectAsList();
    }

    /** What trace_files says of each file, without the run id and the path's folder (the two runs' archives are one). */
    private static List<Row> traceFiles(SparkSession spark, Path warehouse) {
        return spark.read()
                .format("iceberg")
                .load(warehouse.resolve("trace_files").toString())
                .selectExpr(
                        "workload",
                        "regexp_extract(path, '[^/]+$', 0) AS file",
                        "format",
                        "rank",
                        "rank_source",
                        "status",
                        "events_read",
                        "error")
                .orderBy("workload", "file")
                .collectAsList();
    }

    /** An ingest task is writing: the events staging holds a task attempt folder (FileOutputCommitter's layout). */
    private static boolean ingestTaskRunning(Path staging) {
        if (!Files.isDirectory(staging)) return false;
        try (Stream<Path> files = Files.walk(staging)) {
            // an ingest task writes each file's events under the staging area's unfinished files until it commits
            return files.anyMatch(p -> p.toString().contains("/" + PartitionFiles.UNFINISHED + "/events/."));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false; // the folder moved while being walked: look again
        }
    }

    private static long count(SparkSession spark, Path warehouse, String table) {
        return spark.read()
                .format("iceberg")
                .load(warehouse.resolve(table).toString())
                .count();
    }

    private static boolean hasExecutorDir(Path workerDir) throws IOException {
        try (Stream<Path> apps = Files.list(workerDir)) {
            for (Path app : apps.filter(p -> p.getFileName().toString().startsWith("app-"))
                    .toList()) {
                try (Stream<Path> executors = Files.list(app)) {
                    if (executors.anyMatch(Files::isDirectory)) return true;
                }
            }
        }
        return false;
    }
}
