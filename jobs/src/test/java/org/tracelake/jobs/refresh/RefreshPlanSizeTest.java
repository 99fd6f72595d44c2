package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.schemas.Tables;

/**
 * A cold refresh is a small Spark plan whatever the archive holds (issue 27): the refresh of the bundled data/ is at
 * most 12 Spark jobs, 30 stages and 40 SQL executions (the command line adds one job for its summary, within the 12),
 * and a refresh of 48 small workloads is no larger. Counted by a listener on the session, so the figures do not depend
 * on the machine.
 */
class RefreshPlanSizeTest {
    static final int MAX_JOBS = 12;
    static final int MAX_STAGES = 30;
    static final int MAX_SQL = 40;

    @TempDir
    Path tmp;

    @Test
    void aColdRefreshIsASmallPlanWhateverTheNumberOfWorkloads() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive sample = new TestArchive(tmp.resolve("sample"));
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), sample.archive);
        SparkJobCounts data = refreshCounting(spark, sample);
        assertTrue(
                data.jobs <= MAX_JOBS - 1 && data.stages <= MAX_STAGES && data.sql <= MAX_SQL,
                "a cold refresh of data/ (without the command line's summary job): " + data);

        TestArchive wide = new TestArchive(tmp.resolve("wide"));
        for (int i = 0; i < 48; i++) wide.generated(String.format(Locale.ROOT, "w%02d", i), 2, 2, -1, 0);
        SparkJobCounts many = refreshCounting(spark, wide);
        assertTrue(
                many.jobs <= data.jobs && many.stages <= data.stages && many.sql <= data.sql,
                "48 workloads " + many + " against data/'s 2 " + data);
    }

    /**
     * A nightly refresh with a previous run (the regression check against it) and maintenance due stays in the same
     * bound, maintenance adding at most one job (issue 39) and the warehouse check it brings one more (issue 45): every
     * table's small files are compacted in one job, every data file checked in one, and the
     * comparison with the previous run is one shuffle, not a job per stage of a SQL plan.
     */
    @Test
    void aNightlyRefreshWithHistoryAndMaintenanceIsASmallPlan() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive sample = new TestArchive(tmp.resolve("nightly"));
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), sample.archive);
        assertTrue(sample.refresh(spark).allOk());
        try (var files = java.nio.file.Files.walk(sample.archive.resolve("llama3-8b-fsdp-h100x4"))) {
            java.nio.file.attribute.FileTime now = java.nio.file.attribute.FileTime.from(java.time.Instant.now());
            for (Path f : files.filter(java.nio.file.Files::isRegularFile).toList())
                java.nio.file.Files.setLastModifiedTime(f, now);
        }
        spark.conf().set(Settings.MAINTENANCE_EVERY_DAYS.name(), "0");
        SparkJobCounts nightly;
        try {
            nightly = refreshCounting(spark, sample);
        } finally {
            spark.conf().unset(Settings.MAINTENANCE_EVERY_DAYS.name());
        }
        List<String> maintenance = nightly.jobsDescribed(d -> d.startsWith("maintain"));
        assertEquals(1, maintenance.size(), "maintenance ran, in one job: " + maintenance);
        // on the day maintenance is due the refresh first checks every data file of the warehouse (issue 45): one job
        List<String> check = nightly.jobsDescribed(d -> d.startsWith("check"));
        assertEquals(1, check.size(), "the warehouse check ran, in one job: " + check);
        assertTrue(
                nightly.jobs <= MAX_JOBS && nightly.stages <= MAX_STAGES && nightly.sql <= MAX_SQL,
                "a nightly refresh of one changed workload with maintenance due (without the command line's summary"
                        + " job, with maintenance's one): " + nightly);
    }

    /**
     * The metrics phase is one Spark job whatever side tables the run has (issue 30): the side families (memory
     * snapshots, telemetry, Flight Recorder dumps) run in the metric engine's workload task, and the hangs they find
     * are staged there too, not by a job of their own. A run of every format {@code generate --formats all} writes (each
     * side table present) and a run of one Kineto workload (none) each start exactly one job described "metrics"
     * between ingest and the swap (the export after the swap, "metrics: export", is the commit's).
     */
    @Test
    void theMetricsPhaseIsOneJobWhateverSideTablesTheRunHas() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive samples = new TestArchive(tmp.resolve("formats"));
        assertEquals(ExitCodes.OK, Main.run("generate", "--formats", "all", "-o", samples.archive.toString()));
        List<String> withSideTables = metricsJobs(spark, samples);
        // the run had every side table, and the side families' rows and hangs came out of that one job
        for (String table : List.of(
                Tables.MEMORY_EVENTS,
                Tables.MEMORY_SEGMENTS,
                Tables.ITERATION_TELEMETRY,
                Tables.FLIGHT_RECORDER,
                Tables.PROCESS_GROUP_STATUS)) {
            assertTrue(spark.read().format("iceberg").load(samples.table(table)).count() > 0, table);
        }
        Dataset<Row> metrics = spark.read().format("iceberg").load(samples.table(Tables.METRICS));
        for (String metric : List.of("peak_allocated_bytes", "telemetry_overlap", "hang_root_ranks")) {
            assertTrue(
                    metrics.where(col("metric")
                                            .equalTo(metric)
                                            .and(col("status").equalTo("ok")))
                                    .count()
                            > 0,
                    metric);
        }
        assertEquals(
                1,
                spark.read()
                        .format("iceberg")
                        .load(samples.table(Tables.COLLECTIVE_HANGS))
                        .count());
        assertEquals(List.of("metrics"), withSideTables, "jobs of the metrics phase with every side table");

        TestArchive kineto = new TestArchive(tmp.resolve("kineto")).generated("w", 2, 2, -1, 0);
        assertEquals(List.of("metrics"), metricsJobs(spark, kineto), "jobs of the metrics phase with no side table");
    }

    /** The descriptions of the metrics phase's jobs in a refresh of the archive (the export after the swap aside). */
    private static List<String> metricsJobs(SparkSession spark, TestArchive archive) throws Exception {
        return refreshCounting(spark, archive)
                .jobsDescribed(d -> d.startsWith("metrics") && !d.equals("metrics: export"));
    }

    private static SparkJobCounts refreshCounting(SparkSession spark, TestArchive archive) throws Exception {
        return SparkJobCounts.during(spark, () -> {
            Refresh.Result result = archive.refresh(spark);
            assertTrue(result.allOk(), "the refresh failed: " + result);
        });
    }
}
