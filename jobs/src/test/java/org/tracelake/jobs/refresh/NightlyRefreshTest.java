package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;

/**
 * A week of nightly refreshes over one archive, in order: first run, nothing changed, one rank's trace replaced
 * by a slower one, a file corrupted, a workload deleted. Each step asserts on what the run recorded.
 */
class NightlyRefreshTest {
    @TempDir
    Path tmp;

    @Test
    void nightlyRefreshes() throws IOException {
        SparkSession spark = SharedSpark.get();
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, -1, 0);

        // Night 1: everything is new.
        Refresh.Result first = archive.refresh(spark);
        assertEquals(2, first.workloads().size());
        assertTrue(first.allOk());
        // The refresh leaves nothing cached in the session that lives on (the metric engine caches nothing at all).
        assertTrue(spark.sharedState().cacheManager().isEmpty(), "a dataset is still cached after the refresh");

        // Night 2: nothing changed — no trace file is read, no table is rewritten.
        java.util.Map<String, Long> before =
                TestFiles.sizes(archive.warehouse, "events", "metrics", "trace_files", "workloads", "collectives");
        Refresh.Result unchanged = archive.refresh(spark);
        assertEquals(0, unchanged.workloads().size());
        assertEquals(2, unchanged.unchanged().size());
        assertEquals(
                before,
                TestFiles.sizes(archive.warehouse, "events", "metrics", "trace_files", "workloads", "collectives"));
        Row run2 = runRow(spark, archive, unchanged.runId());
        assertEquals(0L, run2.<Long>getAs("files_read"));
        assertEquals(0L, run2.<Long>getAs("workloads_refreshed"));
        assertEquals(6L, run2.<Long>getAs("files_unchanged")); // 2 workloads × (2 traces + 1 card)

        // Night 3: alpha's traces are replaced by a run where rank 1 is 300 µs late to every collective.
        Path alphaDir = archive.archive.resolve("alpha");
        TestFiles.deleteTree(alphaDir);
        archive.generated("alpha", 2, 3, 1, 300);
        Refresh.Result slower = archive.refresh(spark);
        assertEquals(
                List.of("alpha"),
                slower.workloads().stream().map(w -> w.workload()).toList());
        assertEquals(
                List.of("beta"), slower.unchanged().stream().map(w -> w.name()).toList());
        // straggler_lag's mean went from 0 to 300 µs: reported as moved.
        Row moved = slower.regressions().shown().stream()
                .filter(r -> "straggler_lag".equals(r.getAs("metric")) && "mean_lag_us".equals(r.getAs("figure")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no regression row for straggler_lag: " + slower.regressions()));
        assertEquals(0.0, moved.<Double>getAs("previous_value"), 1e-9);
        assertEquals(300.0, moved.<Double>getAs("value"), 1e-9);
        long historyRuns = spark.read()
                .format("iceberg")
                .load(archive.table("metrics_history"))
                .where("workload = 'alpha' AND metric = 'straggler_lag' AND figure = 'mean_lag_us'")
                .count();
        assertEquals(2, historyRuns); // nights 1 and 3; beta was not recomputed on night 3
        long regressionRows = spark.read()
                .format("iceberg")
                .load(archive.table("regressions"))
                .where("run_id = '" + slower.runId() + "'")
                .count();
        assertEquals(slower.regressions().count(), regressionRows);
        assertEquals(regressionRows, slower.regressions().shown().size()); // fewer than History.REGRESSIONS_SHOWN

        // Night 4: a beta trace is truncated — beta fails and keeps its previous tables; alpha is untouched.
        long betaEvents = countEvents(spark, archive, "beta");
        Path betaRank0 = archive.generatedTrace("beta", 0, 3);
        byte[] whole = Files.readAllBytes(betaRank0);
        Files.write(betaRank0, java.util.Arrays.copyOf(whole, whole.length / 3));
        Refresh.Result broken = archive.refresh(spark);
        assertFalse(broken.allOk());
        assertEquals(betaEvents, countEvents(spark, archive, "beta"));
        assertTrue(spark.read()
                        .format("iceberg")
                        .load(archive.table("metrics"))
                        .where("workload = 'beta'")
                        .count()
                > 0);
        Row ledger = spark.read()
                .format("iceberg")
                .load(archive.table("trace_files"))
                .where("workload = 'beta' AND path LIKE '%rank0_trace.json'")
                .first();
        assertEquals("error", ledger.getAs("status"));
        assertEquals("partial", runRow(spark, archive, broken.runId()).getAs("status"));

        // Night 5: alpha's folder is gone — removed from the current tables, kept in the history. Beta, still
        // broken, is retried and still fails.
        TestFiles.deleteTree(alphaDir);
        Refresh.Result removed = archive.refresh(spark);
        assertEquals(List.of("alpha"), removed.removed());
        assertEquals(0, countEvents(spark, archive, "alpha"));
        assertEquals(
                0,
                spark.read()
                        .format("iceberg")
                        .load(archive.table("metrics"))
                        .where("workload = 'alpha'")
                        .count());
        assertTrue(spark.read()
                        .format("iceberg")
                        .load(archive.table("metrics_history"))
                        .where("workload = 'alpha'")
                        .count()
                > 0);
        assertFalse(Files.exists(archive.warehouse.resolve("exports/metrics/alpha.json")));
        assertEquals(
                List.of("beta"),
                removed.workloads().stream().map(w -> w.workload()).toList());

        assertEquals(
                5, spark.read().format("iceberg").load(archive.table("runs")).count());
    }

    private static Row runRow(SparkSession spark, TestArchive archive, String runId) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("runs"))
                .where("run_id = '" + runId + "'")
                .first();
    }

    private static long countEvents(SparkSession spark, TestArchive archive, String workload) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = '" + workload + "'")
                .count();
    }
}
