package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * A refresh killed with SIGKILL while it writes leaves the previous tables readable and the next refresh
 * completes the work; a second refresh on a locked warehouse stops at once; a stale lock is taken over.
 * The refresh under test runs as a real subprocess (the application's main class), so the kill is real.
 */
class CrashAndLockTest {
    @TempDir
    Path tmp;

    @Test
    void sigkillMidWriteKeepsPreviousTablesAndTheNextRefreshCompletes() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, -1, 0);
        archive.refresh(spark);
        long alphaEvents = events(spark, archive, "alpha");
        double lagBefore = meanLag(spark, archive, "alpha");
        assertEquals(0.0, lagBefore, 1e-9);

        // New inputs for both workloads, so the next refresh rewrites both.
        for (String w : List.of("alpha", "beta")) TestFiles.deleteTree(archive.archive.resolve(w));
        archive.generated("alpha", 2, 3, 1, 120).generated("beta", 2, 3, 0, 80);

        Process refresh = startRefresh(archive, "local[1]");
        Path staging = archive.warehouse.resolve("_staging");
        Path eventFiles = archive.warehouse.resolve("events").resolve(Warehouse.DATA);
        assertTrue(
                MainProcess.waitFor(() -> runFolders(eventFiles) == 2, Duration.ofSeconds(120)),
                "the refresh never started writing");
        refresh.destroyForcibly(); // SIGKILL
        assertTrue(refresh.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(0, refresh.exitValue());
        assertTrue(Files.exists(archive.warehouse.resolve("_lock")), "a killed refresh leaves its lock behind");

        // The previous tables are intact and readable.
        assertEquals(alphaEvents, events(spark, archive, "alpha"));
        assertEquals(lagBefore, meanLag(spark, archive, "alpha"), 1e-9);

        // The next refresh takes over the dead run's lock, drops its staging and completes both workloads.
        Refresh.Result next = archive.refresh(spark);
        assertEquals(2, next.workloads().size());
        assertTrue(next.allOk());
        assertEquals(120.0, meanLag(spark, archive, "alpha"), 1e-9);
        assertEquals(80.0, meanLag(spark, archive, "beta"), 1e-9);
        assertFalse(Files.exists(archive.warehouse.resolve("_lock")));
        if (Files.exists(staging)) {
            try (var left = Files.list(staging)) {
                assertFalse(left.findAny().isPresent(), "leftover staging was dropped");
            }
        }
        // the first run's files (still the first snapshot's) and the last run's: the killed run's were dropped
        assertEquals(2, runFolders(eventFiles), "the killed run's data files were dropped");
    }

    @Test
    void aSecondRefreshStopsAtOnceWhileTheWarehouseIsLocked() throws Exception {
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 2, -1, 0);
        Warehouse warehouse = new Warehouse(archive.warehouse.toString(), new org.apache.hadoop.conf.Configuration());
        try (WarehouseLock held = WarehouseLock.acquire(warehouse, "test-run", Duration.ofHours(24), "refresh")) {
            Process second = startRefresh(archive, "local[1]");
            assertTrue(second.waitFor(120, TimeUnit.SECONDS));
            String stderr = new String(second.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(ExitCodes.LOCKED, second.exitValue(), stderr);
            assertTrue(stderr.contains("another writer holds"), stderr);
            assertTrue(stderr.contains("tracelake refresh, run test-run"), stderr);
            assertFalse(Files.exists(archive.warehouse.resolve("events")), "the second refresh wrote nothing");
        }
        assertFalse(Files.exists(archive.warehouse.resolve("_lock")), "closing the lock removes it");
    }

    @Test
    void aStaleLockIsTakenOver() throws Exception {
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 2, -1, 0);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.createDirectories(archive.warehouse);
        Files.writeString(
                archive.warehouse.resolve("_lock"),
                String.join(
                        "\n",
                        "run_id=crashed-run",
                        "host=" + java.net.InetAddress.getLocalHost().getHostName(),
                        "pid=" + gone.pid(),
                        "started_at=" + java.time.Instant.now()));
        Refresh.Result result = archive.refresh(SharedSpark.get());
        assertTrue(result.allOk());
    }

    @Test
    void aRunKilledBeforeItsJournalLeavesNoFiles() throws IOException {
        // Killed before its journal, a run committed nothing: its data files and staging go. A run with a journal
        // is kept, for the replay to finish it.
        Path wh = tmp.resolve("wh");
        Files.createDirectories(wh.resolve("events/data/run-1/workload=alpha"));
        Files.writeString(wh.resolve("events/data/run-1/workload=alpha/part-0.parquet"), "unfinished");
        Files.createDirectories(wh.resolve("_staging/run-1/_reports"));
        Files.createDirectories(wh.resolve("events/data/run-0/workload=alpha"));
        Files.createDirectories(wh.resolve("_staging/run-0"));
        Warehouse warehouse = new Warehouse(wh.toString(), new org.apache.hadoop.conf.Configuration());
        List<String> dropped = warehouse.recoverInterrupted("run-2", java.util.Set.of("run-0"));
        assertEquals(List.of("run-1"), dropped);
        assertFalse(Files.exists(wh.resolve("events/data/run-1")));
        assertFalse(Files.exists(wh.resolve("_staging/run-1")));
        assertTrue(Files.exists(wh.resolve("events/data/run-0/workload=alpha")), "a journaled run's files stay");
        assertTrue(Files.exists(wh.resolve("_staging/run-0")));
    }

    /** A real refresh process (its environment is the test's: surefire sets SPARK_LOCAL_IP). */
    private static Process startRefresh(TestArchive archive, String master) throws IOException {
        return MainProcess.start(
                "refresh",
                "--archive",
                archive.archive.toString(),
                "--warehouse",
                archive.warehouse.toString(),
                "--master",
                master,
                "--conf",
                "spark.ui.enabled=false");
    }

    /** How many runs wrote data files of a table (a folder each, with a partition folder in it). */
    private static long runFolders(Path data) {
        if (!Files.exists(data)) return 0;
        try (Stream<Path> runs = Files.list(data)) {
            return runs.filter(r -> {
                        try (Stream<Path> parts = Files.list(r)) {
                            return parts.anyMatch(
                                    p -> p.getFileName().toString().startsWith("workload="));
                        } catch (IOException | java.io.UncheckedIOException e) {
                            return false; // being written
                        }
                    })
                    .count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    private static long events(SparkSession spark, TestArchive archive, String workload) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = '" + workload + "'")
                .count();
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
