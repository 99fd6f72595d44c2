package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.QuotaFileSystem;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;

/**
 * A warehouse that cannot be written (issue 16): the disk fills up in the middle of a refresh, or has no room at all.
 * The warehouse is the same directory seen through {@link QuotaFileSystem} ({@code quotafs:///…}), a local file system
 * whose files may hold a few bytes in all: the refresh, a real {@code tracelake refresh} process, must end with exit 1
 * and a message naming the file it could not write, leave the previous tables readable and unchanged, and the next
 * run (with room again) must complete.
 */
class UnwritableWarehouseTest {
    @TempDir
    Path tmp;

    @Test
    void aDiskThatFillsUpEndsTheRunWithExit1AndTheNextRunRecovers() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, -1, 0);
        assertTrue(archive.refresh(spark).allOk());
        List<Row> eventsBefore = eventsPerWorkload(spark, archive);
        long metricsBefore =
                spark.read().format("iceberg").load(archive.table("metrics")).count();
        assertEquals(0.0, meanLag(spark, archive, "alpha"), 1e-9);

        // Night 2: alpha's traces are replaced by a run where rank 1 is 300 µs late; the disk has room for 20 kB.
        TestFiles.deleteTree(archive.archive.resolve("alpha"));
        archive.generated("alpha", 2, 3, 1, 300);
        Result full = refreshWithQuota(archive, 20_000);
        assertEquals(ExitCodes.FAILED, full.exit(), full.stderr());
        assertTrue(
                full.stderr().contains("tracelake refresh failed: IOException: No space left on device"),
                full.stderr());
        // The file it could not write, under the warehouse (a staged table of this run).
        assertTrue(
                full.stderr()
                        .contains("writing " + QuotaFileSystem.SCHEME + ":" + archive.warehouse.resolve("_staging")),
                full.stderr());
        assertFalse(Files.exists(archive.warehouse.resolve("_lock")), "the failed run let go of its lock");

        // The previous tables are readable and what they were.
        assertEquals(eventsBefore, eventsPerWorkload(spark, archive));
        assertEquals(
                metricsBefore,
                spark.read().format("iceberg").load(archive.table("metrics")).count());
        assertEquals(0.0, meanLag(spark, archive, "alpha"), 1e-9);
        assertEquals(
                1,
                spark.read().format("iceberg").load(archive.table("runs")).count(),
                "the failed run recorded nothing");

        // Night 3, with room again: alpha is redone, the failed run's staging is dropped.
        Refresh.Result next = archive.refresh(spark);
        assertTrue(next.allOk());
        assertEquals(
                List.of("alpha"),
                next.workloads().stream().map(w -> w.workload()).toList());
        assertEquals(300.0, meanLag(spark, archive, "alpha"), 1e-9);
        assertEquals(
                2, spark.read().format("iceberg").load(archive.table("runs")).count());
        try (var left = Files.list(archive.warehouse.resolve("_staging"))) {
            assertFalse(left.findAny().isPresent(), "the failed run's staging was dropped");
        }
    }

    @Test
    void aWarehouseWithNoRoomAtAllFailsBeforeSparkStarts() throws Exception {
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 2, -1, 0);
        Result none = refreshWithQuota(archive, 0);
        assertEquals(ExitCodes.FAILED, none.exit(), none.stderr());
        assertTrue(none.stderr().contains("No space left on device"), none.stderr());
        assertTrue(
                none.stderr().contains("writing " + QuotaFileSystem.SCHEME + ":" + archive.warehouse.resolve("_lock")),
                none.stderr());
        assertFalse(Files.exists(archive.warehouse.resolve("events")), "nothing was written");
    }

    private record Result(int exit, String stderr) {}

    private static Result refreshWithQuota(TestArchive archive, long quotaBytes)
            throws IOException, InterruptedException {
        Process p = MainProcess.start(
                "refresh",
                "--archive",
                archive.archive.toString(),
                "--warehouse",
                QuotaFileSystem.SCHEME + "://" + archive.warehouse,
                "--master",
                "local[2]",
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.hadoop.fs." + QuotaFileSystem.SCHEME + ".impl=" + QuotaFileSystem.class.getName(),
                "--conf",
                "spark.hadoop." + QuotaFileSystem.QUOTA + "=" + quotaBytes);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Result(p.exitValue(), stderr);
    }

    private static List<Row> eventsPerWorkload(SparkSession spark, TestArchive archive) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .groupBy("workload")
                .count()
                .orderBy("workload")
                .collectAsList();
    }

    private static double meanLag(SparkSession spark, TestArchive archive, String workload) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("metrics"))
                .where("workload = '" + workload
                        + "' AND metric = 'straggler_lag' AND figure = 'mean_lag_us' AND scope = 'workload'")
                .first()
                .<Double>getAs("value");
    }
}
