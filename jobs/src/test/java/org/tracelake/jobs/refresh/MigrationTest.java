package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * A warehouse of the previous release (Parquet folders per table, written here with Spark as that release wrote them:
 * {@code runs} appended a file per run, {@code metrics_history} appended partitioned by workload, the per-workload
 * tables in {@code workload=} folders), with two earlier runs of data/ in its history, is refused by every other
 * command, migrated in place — killed once while committing and once while moving the old folders aside, then run to
 * the end — and refreshed: the earlier runs' history is all there once, and the refresh compares with the later of
 * them.
 */
class MigrationTest {
    static final String OLD1 = "20250101T000000Z-0001";
    static final String OLD2 = "20250102T000000Z-0002";

    @TempDir
    Path tmp;

    @Test
    void aPreviousReleasesWarehouseMigratesWithItsHistoryAndIsRefusedUntilThen() throws Exception {
        SparkSession spark = SharedSpark.get();
        // the previous release's history of data/: this release's figures of it, as two runs of that release
        TestArchive source = new TestArchive(tmp.resolve("source"));
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), source.archive);
        Refresh.Result sourced = source.refresh(spark);
        assertTrue(sourced.allOk());
        Dataset<Row> history = spark.read().format("iceberg").load(source.table(Tables.METRICS_HISTORY));
        Dataset<Row> run = spark.read().format("iceberg").load(source.table(Tables.RUNS));
        long historyRows = history.count();
        assertTrue(historyRows > 100, "data/ has metric rows: " + historyRows);

        TestArchive old = new TestArchive(tmp.resolve("old"));
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), old.archive);
        String root = old.warehouse.toString();
        // the earlier runs read this archive (the refresh after the migration refuses another root)
        run = run.withColumn("archive", lit(old.archive.toString()));
        // run 1, then run 2 whose every non-zero figure was twice today's (so today's run moved against it)
        appendOld(history.withColumn("run_id", lit(OLD1)), root, Tables.METRICS_HISTORY, true);
        appendOld(run.withColumn("run_id", lit(OLD1)), root, Tables.RUNS, false);
        appendOld(
                history.withColumn("run_id", lit(OLD2))
                        .withColumn(
                                "value",
                                when(
                                                col("value")
                                                        .isNotNull()
                                                        .and(col("value").notEqual(0.0)),
                                                col("value").multiply(2.0))
                                        .otherwise(col("value"))),
                root,
                Tables.METRICS_HISTORY,
                true);
        appendOld(run.withColumn("run_id", lit(OLD2)), root, Tables.RUNS, false);
        // recomputable tables, as the previous release's swap left them
        for (String table : List.of(Tables.EVENTS, Tables.TRACE_FILES, Tables.METRICS))
            appendOld(spark.read().format("iceberg").load(source.table(table)), root, table, true);
        Files.createDirectories(old.warehouse.resolve("_journal"));
        Files.writeString(old.warehouse.resolve("_journal/20250102T000000Z-0002.json"), "{\"previous\": true}");

        // every other command refuses it, with the one line that names migrate
        String line = "this warehouse has the previous release's layout: run `tracelake migrate --warehouse " + root
                + "` once (it keeps metrics_history and runs)";
        assertRefused(line, "refresh", "-a", old.archive.toString(), "-w", root);
        assertRefused(line, "ingest", "-a", old.archive.toString(), "-w", root);
        assertRefused(line, "maintain", "-w", root);
        assertRefused(line, "sql", "-w", root, "-e", "select 1");
        assertRefused(line, "export", "-w", root, "--leaderboard");

        // killed after its first commit, then killed after its first move aside: nothing lost, still refused
        assertEquals(137, migrate(old, "migrate-table"));
        assertTrue(Files.exists(old.warehouse.resolve("metrics_history/metadata")), "a half-made Iceberg table");
        assertTrue(hasOldEntries(old.warehouse.resolve(Tables.METRICS_HISTORY)), "the old history is all in place");
        assertRefused(line, "refresh", "-a", old.archive.toString(), "-w", root);
        assertEquals(137, migrate(old, "migrate-move"));
        assertTrue(Files.exists(old.warehouse.resolve("_previous-layout/_committed")));
        assertRefused(line, "refresh", "-a", old.archive.toString(), "-w", root);
        Path out = tmp.resolve("migrate.out");
        assertEquals(0, migrate(old, null, out));
        assertTrue(
                Files.readString(out).contains("the next refresh reads the whole archive once"), Files.readString(out));
        assertFalse(Files.exists(old.warehouse.resolve("_previous-layout/_in-progress")));
        for (String table : List.of(Tables.RUNS, Tables.METRICS_HISTORY, Tables.EVENTS, Tables.TRACE_FILES))
            assertFalse(hasOldEntries(old.warehouse.resolve(table)), table + " moved aside");
        assertTrue(hasOldEntries(old.warehouse.resolve("_previous-layout/" + Tables.METRICS_HISTORY)));
        assertTrue(Files.exists(old.warehouse.resolve("_previous-layout/_journal/20250102T000000Z-0002.json")));
        assertFalse(Files.exists(old.warehouse.resolve("events")), "a recomputable table's folder is gone");
        Warehouse wh = new Warehouse(root, spark.sparkContext().hadoopConfiguration());
        for (String table : List.of(Tables.METRICS_HISTORY, Tables.RUNS)) {
            Table t = wh.catalog().table(table);
            int snapshots = 0;
            for (Snapshot s : t.snapshots()) {
                snapshots++;
                assertEquals("previous-layout", s.summary().get(Migration.MIGRATED));
            }
            assertEquals(1, snapshots, table + ": one commit, the rerun's (the killed one's was dropped)");
        }

        // the next refresh reads every workload and compares with the later earlier run
        Refresh.Result refreshed = old.refresh(spark);
        assertTrue(refreshed.allOk());
        assertEquals(sourced.workloads().size(), refreshed.workloads().size(), "every workload redone");
        Dataset<Row> migrated = spark.read().format("iceberg").load(old.table(Tables.METRICS_HISTORY));
        assertEquals(historyRows, migrated.where(col("run_id").equalTo(OLD1)).count(), "run 1's history, once");
        assertEquals(historyRows, migrated.where(col("run_id").equalTo(OLD2)).count(), "run 2's history, once");
        assertEquals(
                historyRows,
                migrated.where(col("run_id").equalTo(refreshed.runId())).count());
        // a value kept exactly: run 2's figure is twice run 1's
        Row one = migrated.where(col("run_id").equalTo(OLD1).and(col("value").gt(0.0)))
                .orderBy("workload", "metric", "figure", "scope")
                .first();
        Row two = migrated.where(col("run_id")
                        .equalTo(OLD2)
                        .and(col("workload").equalTo(one.<String>getAs("workload")))
                        .and(col("metric").equalTo(one.<String>getAs("metric")))
                        .and(col("figure").eqNullSafe(one.<String>getAs("figure")))
                        .and(col("scope").equalTo(one.<String>getAs("scope")))
                        .and(col("rank").eqNullSafe(one.getAs("rank")))
                        .and(col("step").eqNullSafe(one.getAs("step")))
                        .and(col("key").eqNullSafe(one.<String>getAs("key"))))
                .first();
        assertEquals(2 * one.<Double>getAs("value"), two.<Double>getAs("value"), 1e-9);
        List<String> runIds = spark
                .read()
                .format("iceberg")
                .load(old.table(Tables.RUNS))
                .select("run_id")
                .orderBy("run_id")
                .collectAsList()
                .stream()
                .map(r -> r.getString(0))
                .toList();
        assertEquals(List.of(OLD1, OLD2, refreshed.runId()), runIds);
        long againstRun2 = spark.read()
                .format("iceberg")
                .load(old.table(Tables.REGRESSIONS))
                .where(col("run_id")
                        .equalTo(refreshed.runId())
                        .and(col("previous_run_id").equalTo(OLD2)))
                .count();
        assertTrue(againstRun2 > 0, "the regression check compared with run 2 of the previous release");
    }

    /** Appends rows to a table folder as the previous release did (Parquet, by workload where the table is). */
    private static void appendOld(Dataset<Row> rows, String root, String table, boolean byWorkload) {
        StructType schema = TableCatalog.of(table).schema();
        Dataset<Row> shaped =
                rows.select(Arrays.stream(schema.fieldNames()).map(f -> col(f)).toArray(Column[]::new));
        if (byWorkload) {
            shaped.write()
                    .mode(SaveMode.Append)
                    .partitionBy(Tables.PARTITION_COLUMN)
                    .parquet(root + "/" + table);
        } else {
            shaped.coalesce(1).write().mode(SaveMode.Append).parquet(root + "/" + table);
        }
    }

    private static boolean hasOldEntries(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) return false;
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith("workload=")
                    || p.getFileName().toString().endsWith(".parquet"));
        }
    }

    /** A command run in this JVM that must refuse before Spark starts: exit 2 and the one line naming it. */
    private static void assertRefused(String line, String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(args);
        } finally {
            System.setErr(saved);
        }
        String err = captured.toString(StandardCharsets.UTF_8).strip();
        assertEquals(ExitCodes.USAGE, code, args[0] + ": " + err);
        assertEquals("tracelake " + args[0] + ": " + line, err);
    }

    private static int migrate(TestArchive old, String dieAt) throws Exception {
        return migrate(old, dieAt, null);
    }

    /** {@code tracelake migrate} in a process of its own, halted at a crash point when {@code dieAt} names one. */
    private static int migrate(TestArchive old, String dieAt, Path stdout) throws Exception {
        List<String> cmd = MainProcess.command(
                "migrate",
                "--warehouse",
                old.warehouse.toString(),
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false");
        if (dieAt != null) cmd.add(1, "-D" + CrashPoints.PROPERTY + "=" + dieAt);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectOutput(
                        stdout == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(stdout.toFile()));
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(600, TimeUnit.SECONDS));
        if (dieAt == null) assertEquals(0, p.exitValue(), stderr);
        return p.exitValue();
    }
}
