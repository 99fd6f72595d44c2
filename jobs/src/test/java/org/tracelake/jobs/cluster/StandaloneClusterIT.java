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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestFiles;

/**
 * The application on a real Spark standalone cluster: a master and two one-core workers on 127.0.0.1, each its own
 * JVM started from the project's Spark jars, the refresh submitted through Spark's own submit entry point with the
 * shaded application jar — exactly the README's {@code spark-submit} line. Every metric row it writes must equal
 * the row {@code bin/tracelake refresh} (local[*]) writes from the same archive, and no process may outlive the test.
 * Runs after {@code package} (failsafe), because it needs the application jar.
 */
class StandaloneClusterIT {
    private static final double RELATIVE_TOLERANCE = 1e-9;
    /** A metric row's identity: METRICS.md §5's (workload, metric, figure, scope, rank, step, key). */
    private static final List<String> KEY = List.of("workload", "metric", "figure", "scope", "rank", "step", "key");

    @TempDir Path tmp;

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES) // a few minutes on a quiet 2-core machine; generous for a shared one
    void refreshOnAStandaloneClusterWritesTheSameMetricsAsLocal() throws Exception {
        Path home = Path.of(System.getProperty("tracelake.home", ".")).toAbsolutePath();
        StandaloneCluster.Build build = StandaloneCluster.Build.of(home);
        Path archive = tmp.resolve("archive");
        copyTree(home.resolve("data"), archive);
        Path clusterWarehouse = tmp.resolve("warehouse-cluster");
        Path localWarehouse = tmp.resolve("warehouse-local");
        Path runDir = home.resolve("jobs/target/cluster-it/" + System.currentTimeMillis());

        StandaloneCluster cluster = StandaloneCluster.start(build, runDir, 2);
        try {
            Path log = runDir.resolve("logs/submit.log");
            // As the README submits it: the project's spark-defaults.conf travels with --properties-file.
            Process driver = cluster.submit("1g", List.of("--properties-file", home.resolve("conf/spark-defaults.conf").toString()),
                    List.of("refresh", "--archive", archive.toString(), "--warehouse", clusterWarehouse.toString()), log);
            if (!driver.waitFor(15, TimeUnit.MINUTES)) fail("the submitted refresh did not finish in 15 minutes\n" + cluster.logTails(40));
            assertEquals(0, driver.exitValue(), "spark-submit refresh failed\n" + cluster.logTails(60));
            // Both workers ran an executor for the application: the work was spread over the cluster.
            for (Path work : cluster.workerDirs()) {
                assertTrue(hasExecutorDir(work), "no executor ran on the worker of " + work + "\n" + cluster.logTails(40));
            }
        } finally {
            cluster.close();
        }
        assertEquals(List.of(), cluster.survivors(), "processes left behind by the cluster");

        Path localLog = runDir.resolve("logs/local.log");
        Process local = new ProcessBuilder(build.localCommand("1g", List.of("refresh", "--archive", archive.toString(),
                "--warehouse", localWarehouse.toString(), "--master", "local[*]")))
                .redirectErrorStream(true).redirectOutput(localLog.toFile()).start();
        try {
            if (!local.waitFor(10, TimeUnit.MINUTES)) fail("the local refresh did not finish in 10 minutes");
        } finally {
            local.descendants().forEach(ProcessHandle::destroyForcibly);
            local.destroyForcibly();
            local.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(0, local.exitValue(), "local refresh failed\n" + StandaloneCluster.tail(localLog, 60));

        SparkSession spark = SharedSpark.get();
        Map<String, List<Row>> onCluster = metricRows(spark, clusterWarehouse);
        Map<String, List<Row>> onLocal = metricRows(spark, localWarehouse);
        assertFalse(onLocal.isEmpty(), "the local refresh wrote no metric rows");
        long workloads = onLocal.keySet().stream().map(k -> k.split("\u0001", 2)[0]).distinct().count();
        assertEquals(2, workloads, "both sample workloads have metrics");
        assertEquals(onLocal.keySet(), onCluster.keySet(), "the same metric rows (by workload, metric, figure, scope, rank, step, key)");
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, List<Row>> e : onLocal.entrySet()) {
            List<Row> expected = e.getValue();
            List<Row> actual = onCluster.get(e.getKey());
            if (expected.size() != actual.size()) {
                differences.add(e.getKey() + ": " + expected.size() + " local rows vs " + actual.size() + " on the cluster");
                continue;
            }
            for (int i = 0; i < expected.size(); i++) {
                String d = difference(expected.get(i), actual.get(i));
                if (d != null) differences.add(e.getKey().replace('\u0001', '|') + ": " + d);
            }
        }
        assertEquals(List.of(), differences, "metric rows that differ between local[*] and the standalone cluster");
        assertEquals(count(spark, localWarehouse, "events"), count(spark, clusterWarehouse, "events"), "events rows");
        TestFiles.deleteTree(runDir); // logs, SPARK_HOME links and the workers' copies of the jar: kept only on failure
    }

    /** Metric rows by key; within a key sorted by their text, so duplicate keys compare as multisets. */
    private static Map<String, List<Row>> metricRows(SparkSession spark, Path warehouse) {
        Map<String, List<Row>> out = new TreeMap<>();
        List<Row> rows = spark.read().parquet(warehouse.resolve("metrics").toString()).drop("computed_at").collectAsList();
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

    private static long count(SparkSession spark, Path warehouse, String table) {
        return spark.read().parquet(warehouse.resolve(table).toString()).count();
    }

    private static boolean hasExecutorDir(Path workerDir) throws IOException {
        try (Stream<Path> apps = Files.list(workerDir)) {
            for (Path app : apps.filter(p -> p.getFileName().toString().startsWith("app-")).toList()) {
                try (Stream<Path> executors = Files.list(app)) {
                    if (executors.anyMatch(Files::isDirectory)) return true;
                }
            }
        }
        return false;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(dest);
                else Files.copy(p, dest);
            }
        }
    }
}
