package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * Issue 45, item 8: a damaged warehouse is noticed. Before, with an {@code events} file truncated or a partition
 * folder deleted, a refresh said "0 to refresh", exit 0, and queries failed or missed the workload until someone ran
 * {@code --full}. Now {@code tracelake check} names each damaged file (exit 3), {@code refresh --check} (and every
 * refresh on the day maintenance is due) recomputes the damaged workloads from the archive, and damage in a history
 * table, which the archive cannot give back, stops the refresh before anything is written and is cleared by {@code
 * check --drop-damaged}, never by hand.
 */
class WarehouseCheckTest {
    @TempDir
    Path tmp;

    @Test
    void damagedFilesAreNamedRecomputedOrDroppedAndNothingWedges() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp.resolve("a"));
        for (String w : List.of("w1", "w2", "w3")) a.generated(w, 2, 2, -1, 0);
        assertTrue(a.refresh(spark).allOk());
        Warehouse wh =
                new Warehouse(a.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        WarehouseTables tables = new WarehouseTables(spark, wh);
        long w1Events = count(spark, a, Tables.EVENTS, "w1");
        long w2Metrics = count(spark, a, Tables.METRICS, "w2");
        assertTrue(w1Events > 0 && w2Metrics > 0);
        assertTrue(WarehouseCheck.run(tables).clean(), "a fresh warehouse is sound");

        // an events file of w1 cut in half; the metrics partition folder of w2 deleted
        Path events = dataFiles(wh, Tables.EVENTS, "w1").get(0);
        try (FileChannel c = FileChannel.open(events, StandardOpenOption.WRITE)) {
            c.truncate(c.size() / 2);
        }
        Path metricsFolder = dataFiles(wh, Tables.METRICS, "w2").get(0).getParent();
        deleteTree(metricsFolder);

        WarehouseCheck.Result found = WarehouseCheck.run(tables);
        assertEquals(Set.of("w1", "w2"), found.workloadsToRedo(), found.lines()::toString);
        assertEquals(List.of(), found.unrecoverable());
        String lines = String.join("\n", found.lines());
        assertTrue(lines.contains("events (workload w1)") && lines.contains("truncated or overwritten"), lines);
        assertTrue(lines.contains("metrics (workload w2)") && lines.contains("is missing"), lines);

        // the command: one line per damaged file, exit 3 (a second process, as a cron job runs it)
        Path out = tmp.resolve("check.txt");
        Process p = MainProcess.startTo(
                out, "check", "-w", a.warehouse.toString(), "--master", "local[1]", "--conf", "spark.ui.enabled=false");
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "check ends");
        String printed = Files.readString(out);
        assertEquals(ExitCodes.PARTIAL, p.exitValue(), printed);
        assertTrue(printed.contains("damaged: events (workload w1)"), printed);
        assertTrue(printed.contains("refresh --check` recomputes 2 workloads"), printed);

        // refresh --check redoes exactly the damaged workloads, whose folders did not change
        Refresh.Result redone = new Refresh(tables, RunIds.newId(), InputLimits.defaults())
                .checkFirst(true)
                .run(a.archive.toString(), Set.of(), false);
        assertTrue(redone.allOk());
        Set<String> workloads = new TreeSet<>();
        redone.workloads().forEach(r -> workloads.add(r.workload()));
        assertEquals(Set.of("w1", "w2"), workloads);
        assertEquals(
                2L,
                spark.read()
                        .format("iceberg")
                        .load(a.table(Tables.WORKLOAD_CHANGES))
                        .where("change = 'damaged in the warehouse'")
                        .count());
        assertTrue(WarehouseCheck.run(tables).clean(), "sound after the refresh");
        assertEquals(w1Events, count(spark, a, Tables.EVENTS, "w1"));
        assertEquals(w2Metrics, count(spark, a, Tables.METRICS, "w2"));

        // a metrics_history file damaged: the archive cannot recompute it, so the refresh stops before writing
        long runs = spark.read().format("iceberg").load(a.table(Tables.RUNS)).count();
        Path history = dataFiles(wh, Tables.METRICS_HISTORY, "w3").get(0);
        try (FileChannel c = FileChannel.open(history, StandardOpenOption.WRITE)) {
            c.truncate(c.size() - 3);
        }
        WarehouseCheck.Unrecoverable stop = assertThrows(
                WarehouseCheck.Unrecoverable.class, () -> new Refresh(tables, RunIds.newId(), InputLimits.defaults())
                        .checkFirst(true)
                        .run(a.archive.toString(), Set.of(), false));
        assertTrue(
                stop.getMessage().contains("metrics_history")
                        && stop.getMessage().contains("--drop-damaged"),
                stop.getMessage());
        assertEquals(
                runs, spark.read().format("iceberg").load(a.table(Tables.RUNS)).count(), "no run recorded");

        // check --drop-damaged clears it (the rows of that file are gone from the current snapshot), and the next
        // refresh runs
        WarehouseCheck.Result historyDamage = WarehouseCheck.run(tables);
        assertEquals(1, historyDamage.unrecoverable().size(), historyDamage.lines()::toString);
        assertEquals(1, WarehouseCheck.dropUnrecoverable(tables, historyDamage));
        assertTrue(WarehouseCheck.run(tables).clean());
        assertTrue(new Refresh(tables, RunIds.newId(), InputLimits.defaults())
                .checkFirst(true)
                .run(a.archive.toString(), Set.of(), false)
                .allOk());
        assertEquals(
                runs + 1,
                spark.read().format("iceberg").load(a.table(Tables.RUNS)).count());
    }

    private static long count(SparkSession spark, TestArchive a, String table, String workload) {
        return spark.read()
                .format("iceberg")
                .load(a.table(table))
                .where(org.apache.spark.sql.functions.col("workload").equalTo(workload))
                .count();
    }

    /** The local paths of a workload's data files in a table's current snapshot. */
    private static List<Path> dataFiles(Warehouse wh, String table, String workload) throws IOException {
        List<Path> out = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = wh.catalog()
                .table(table)
                .newScan()
                .filter(Expressions.equal(Tables.PARTITION_COLUMN, workload))
                .planFiles()) {
            for (FileScanTask t : tasks)
                out.add(Path.of(new org.apache.hadoop.fs.Path(t.file().location())
                        .toUri()
                        .getPath()));
        }
        assertTrue(!out.isEmpty(), table + " has files of " + workload);
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
