package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 29 item 5: a refresh killed at each step between its first swap and its end (the JVM halts there, as a
 * SIGKILL would stop it: {@link CrashPoints}), then rerun. Afterwards the history tables, run rows and exports are as
 * if the killed run had finished for what it swapped in, and the rerun did the rest: every workload's history holds
 * exactly one run's rows (as many as its live metrics), every run has exactly one runs row, no workload_changes row
 * is written twice, both exports exist, and no journal is left.
 */
class CrashBetweenSwapsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"swap", "swaps", "exports", "history", "changes", "run"})
    void killedAtEachStepThenRerunEndsAsIfItHadFinished(String step) throws Exception {
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 2, -1, 0).generated("beta", 2, 2, 1, 50);
        List<String> cmd = MainProcess.command(
                "refresh",
                "--archive",
                archive.archive.toString(),
                "--warehouse",
                archive.warehouse.toString(),
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false");
        cmd.add(1, "-D" + CrashPoints.PROPERTY + "=" + step);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process killed = pb.start();
        String stderr = new String(killed.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(killed.waitFor(600, TimeUnit.SECONDS));
        assertEquals(137, killed.exitValue(), () -> "the run dies at " + step + ": " + stderr);
        assertTrue(Files.exists(archive.warehouse.resolve("_lock")), "a killed run leaves its lock");
        try (Stream<Path> journals = Files.list(archive.warehouse.resolve(RunJournal.DIR))) {
            assertEquals(1, journals.filter(p -> p.toString().endsWith(".json")).count(), "the killed run's journal");
        }

        SparkSession spark = SharedSpark.get();
        Refresh.Result rerun = archive.refresh(spark);
        assertTrue(rerun.allOk());

        Dataset<Row> runs = spark.read().format("iceberg").load(archive.table("runs"));
        assertEquals(2, runs.count(), "the killed run's row and the rerun's");
        assertEquals(2, runs.select("run_id").distinct().count(), "no run recorded twice");
        Dataset<Row> history = spark.read().format("iceberg").load(archive.table("metrics_history"));
        Dataset<Row> live = spark.read().format("iceberg").load(archive.table("metrics"));
        for (String w : List.of("alpha", "beta")) {
            Dataset<Row> mine = history.where(col("workload").equalTo(w));
            assertEquals(1, mine.select("run_id").distinct().count(), () -> w + ": one run's history at " + step);
            assertEquals(live.where(col("workload").equalTo(w)).count(), mine.count(), () -> w + ": its history, once");
            assertEquals(
                    1,
                    runs.where(col("run_id").equalTo(mine.first().<String>getAs("run_id")))
                            .count(),
                    () -> w + ": the run of its history is recorded");
            assertTrue(
                    Files.isRegularFile(archive.warehouse.resolve("exports/metrics/" + w + ".json")), w + "'s export");
        }
        Dataset<Row> changes = spark.read().format("iceberg").load(archive.table("workload_changes"));
        assertEquals(changes.distinct().count(), changes.count(), "no change recorded twice");
        assertTrue(changes.count() >= 2, "both workloads' first reading is recorded");
        try (Stream<Path> journals = Files.list(archive.warehouse.resolve(RunJournal.DIR))) {
            assertFalse(journals.anyMatch(p -> p.toString().endsWith(".json")), "the journal was replayed and deleted");
        }
    }
}
