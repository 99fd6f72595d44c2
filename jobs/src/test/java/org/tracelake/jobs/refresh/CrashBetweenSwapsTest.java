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
import org.tracelake.jobs.testing.TestFiles;

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
        killAt(step, archive);
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

    /**
     * Issue 41: a refresh that has a previous run to compare with, killed between its {@code regressions} append and its
     * {@code regression_kernels} append, then rerun. The replay must write the kernels the killed run had not (before:
     * a run that had appended its regressions skipped both, so that night's kernel rows were lost for good) and must
     * not write the regressions twice.
     */
    @org.junit.jupiter.api.Test
    void killedBetweenTheRegressionsAndTheirKernelsLosesNeither() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 4, -1, 0);
        assertTrue(archive.refresh(spark).allOk());
        // the same workload again, slower: the next run compares it with the first
        TestFiles.deleteTree(archive.archive.resolve("alpha"));
        org.tracelake.jobs.generate.SampleArchiveGenerator.write(
                archive.archive,
                new org.tracelake.jobs.generate.WorkloadSpec(
                                "alpha", org.tracelake.jobs.generate.TraceStyle.MODERN, 2, 1, 4, 1, false, -1, 0, 6)
                        .withGemmScale(1.2));
        killAt("regressions", archive);
        String killed;
        try (Stream<Path> journals = Files.list(archive.warehouse.resolve(RunJournal.DIR))) {
            killed = journals.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .findFirst()
                    .orElseThrow()
                    .replace(".json", "");
        }

        Refresh.Result rerun = archive.refresh(spark);
        assertTrue(rerun.allOk());
        Dataset<Row> runs = spark.read().format("iceberg").load(archive.table("runs"));
        assertEquals(1, runs.where(col("run_id").equalTo(killed)).count(), "the killed run, recorded by its replay");
        Dataset<Row> regressions = spark.read()
                .format("iceberg")
                .load(archive.table("regressions"))
                .where(col("run_id").equalTo(killed));
        assertEquals(1, regressions.where("rule = 'step_verdict'").count(), "the step verdict, once");
        assertEquals(
                regressions.count(),
                regressions.select("metric", "figure", "key", "rule").distinct().count(),
                "no regressions row twice");
        Dataset<Row> kernels = spark.read()
                .format("iceberg")
                .load(archive.table("regression_kernels"))
                .where(col("run_id").equalTo(killed));
        assertTrue(kernels.count() > 0, "the kernels the killed run had not written");
        assertEquals(kernels.count(), kernels.select("position").distinct().count(), "each position once");
    }

    /** A refresh of the archive in a JVM of its own that halts at {@code step}. */
    private static void killAt(String step, TestArchive archive) throws Exception {
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
    }
}
