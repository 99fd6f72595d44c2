package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import org.tracelake.udfs.UdfRegistry;

/**
 * Issue 39: {@code sql --as-of RUN} shows the warehouse exactly as a run left it, every table at that run's snapshot,
 * and the {@code runs} table records each table's snapshot. Two runs: the first reads workloads a (2 ranks) and b; the
 * second reads a again with 3 ranks. As of the first run, a has 2 ranks in every table, and runs has one row.
 */
class AsOfRunTest {
    @TempDir
    Path tmp;

    @Test
    void sqlAsOfARunSeesTheTablesAsThatRunLeftThem() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, -1, 0).generated("b", 2, 2, -1, 0);
        Refresh.Result first = archive.refresh(spark);
        assertTrue(first.allOk());
        TestFiles.deleteTree(archive.workload("a"));
        archive.generated("a", 3, 2, -1, 0);
        Refresh.Result second = archive.refresh(spark);
        assertEquals(
                List.of("a"), second.workloads().stream().map(w -> w.workload()).toList());

        String ranksOfA = "SELECT count(DISTINCT rank) AS ranks FROM events WHERE workload = 'a'";
        String traceFilesOfA = "SELECT count(*) AS files FROM trace_files WHERE workload = 'a'";
        String runs = "SELECT count(*) AS runs FROM runs";
        String query = ranksOfA + "; " + traceFilesOfA + "; " + runs;
        // the live warehouse: a has 3 ranks (3 traces and its card in the ledger), two runs
        assertEquals(List.of("3", "4", "2"), answers(spark, archive, null, query));
        // as the first run left it: 2 ranks, 2 traces and the card, one run — the tables agree with each other
        assertEquals(List.of("2", "3", "1"), answers(spark, archive, first.runId(), query));
        // as the second run left it: today's warehouse
        assertEquals(List.of("3", "4", "2"), answers(spark, archive, second.runId(), query));

        // runs records, for each run, the snapshot it left every other table at: the second run's events snapshot is
        // the table's current one, the first run's is an older one
        Warehouse warehouse =
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        Table events = warehouse.catalog().loadOrNull(Tables.EVENTS);
        Map<String, Long> firstSnapshots = snapshots(spark, archive, first.runId());
        Map<String, Long> secondSnapshots = snapshots(spark, archive, second.runId());
        assertEquals(events.currentSnapshot().snapshotId(), secondSnapshots.get(Tables.EVENTS));
        assertNotEquals(firstSnapshots.get(Tables.EVENTS), secondSnapshots.get(Tables.EVENTS));
        assertEquals(firstSnapshots.get(Tables.EVENTS), warehouse.catalog().snapshotAsOf(Tables.EVENTS, first.runId()));
        assertFalse(firstSnapshots.containsKey(Tables.RUNS), "a run's own row cannot name the snapshot it makes");

        // a run the warehouse does not have: one line, exit 2, before any Spark starts
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run(
                    "sql", "--warehouse", archive.warehouse.toString(), "--as-of", "20000101T000000Z-0000", "SELECT 1");
        } finally {
            System.setErr(saved);
        }
        String line = err.toString(StandardCharsets.UTF_8).strip();
        assertEquals(ExitCodes.USAGE, code, line);
        assertEquals(
                "--as-of 20000101T000000Z-0000: no such run in " + warehouse.root()
                        + " among the runs kept (the oldest is " + first.runId()
                        + "; `SELECT run_id FROM runs` lists every run)",
                line);
    }

    /** Each statement's one value, as the sql job prints it in csv (header skipped). */
    private static List<String> answers(SparkSession spark, TestArchive archive, String asOf, String statements)
            throws Exception {
        SparkSession own = spark.newSession(); // views of its own, as the sql job's session has
        UdfRegistry.registerAll(own);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlRunner runner = new SqlRunner(
                own,
                ResultPrinter.Format.CSV,
                10,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        runner.register(
                new Warehouse(archive.warehouse.toString(), own.sparkContext().hadoopConfiguration()), asOf);
        assertTrue(runner.runAll(SqlStatementSplitter.split(statements)), err.toString(StandardCharsets.UTF_8));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        // csv: a header line, then the value, per statement
        return java.util.stream.IntStream.range(0, lines.size())
                .filter(i -> i % 2 == 1)
                .mapToObj(lines::get)
                .toList();
    }

    private static Map<String, Long> snapshots(SparkSession spark, TestArchive archive, String runId) {
        Row r = spark.read()
                .format("iceberg")
                .load(archive.table(Tables.RUNS))
                .where(org.apache.spark.sql.functions.col("run_id").equalTo(runId))
                .select("table_snapshots")
                .first();
        return r.getJavaMap(0);
    }
}
