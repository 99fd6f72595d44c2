package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * Maintenance over a warehouse of data/ after several nightly refreshes, each with one changed file (issue 39, small
 * files are compacted): afterwards every table's data files are within 2× of a fresh warehouse's, the snapshots older
 * than the retention (0 days here) are gone but the latest run's, the tables read the same rows as before, and an
 * orphan file (a killed run's data file, two days old) is removed while a fresh one stays. A refresh with maintenance
 * due runs it itself and records when.
 */
class MaintenanceTest {
    @TempDir
    Path tmp;

    @Test
    void maintenanceCompactsExpiresAndRemovesOrphansAndEveryRowStays() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp);
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), a.archive);
        assertTrue(a.refresh(spark).allOk());
        Warehouse wh =
                new Warehouse(a.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        WarehouseTables tables = new WarehouseTables(spark, wh);
        Map<String, Long> fresh = dataFiles(wh);

        // two more nights, one card changed each (a comment line appended: the workload is refreshed again)
        Path card = a.archive.resolve("llama3-8b-fsdp-h100x4/llama3-8b-fsdp-h100x4.yaml");
        String lastRun = null;
        for (int night = 2; night <= 3; night++) {
            Files.writeString(card, "\n# night " + night + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            Refresh.Result r = a.refresh(spark);
            assertEquals(1, r.workloads().size(), "night " + night + " refreshed the changed workload only");
            lastRun = r.runId();
        }
        Map<String, Long> grown = dataFiles(wh);
        // metrics_history gained a file per night for the changed workload, runs a file per night
        assertTrue(
                grown.get(Tables.METRICS_HISTORY) >= fresh.get(Tables.METRICS_HISTORY) + 2,
                "metrics_history " + fresh + " -> " + grown);
        assertEquals(fresh.get(Tables.RUNS) + 2, grown.get(Tables.RUNS));
        assertNull(
                wh.catalog().table(Tables.RUNS).properties().get(Maintenance.LAST_MAINTENANCE),
                "maintenance was not due within the day");

        Map<String, List<Row>> before = contents(tables);
        long lastRunEventsSnapshot = runSnapshot(wh.catalog().table(Tables.EVENTS), lastRun);

        // a killed run's data file, two days old, and one of a run under way (an hour old): only the first goes
        Path someData;
        try (Stream<Path> files = Files.walk(a.warehouse.resolve("events/data"))) {
            someData = files.filter(p -> p.toString().endsWith(".parquet"))
                    .findFirst()
                    .orElseThrow();
        }
        Path orphan = a.warehouse.resolve("events/data/20200101T000000Z-dead/workload=x/part-00000.parquet");
        Path young = a.warehouse.resolve("events/data/20200101T000000Z-live/workload=x/part-00000.parquet");
        for (Path p : List.of(orphan, young)) {
            Files.createDirectories(p.getParent());
            Files.copy(someData, p);
        }
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Files.setLastModifiedTime(young, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

        Maintenance.Summary[] summaries = new Maintenance.Summary[1];
        spark.conf().set(Settings.MAINTENANCE_RETENTION_DAYS.name(), "0");
        SparkJobCounts counts;
        try {
            counts = SparkJobCounts.during(spark, () -> summaries[0] = new Maintenance(tables, RunIds.newId()).run());
        } finally {
            spark.conf().unset(Settings.MAINTENANCE_RETENTION_DAYS.name());
        }
        Maintenance.Summary summary = summaries[0];
        // every table's small files compacted in one Spark job (Iceberg's rewrite action runs one per partition)
        assertEquals(1, counts.jobs, "Spark jobs of maintenance: " + counts);

        Map<String, Long> after = dataFiles(wh);
        for (Map.Entry<String, Long> e : after.entrySet()) {
            long freshFiles = Math.max(1, fresh.getOrDefault(e.getKey(), 0L));
            assertTrue(
                    e.getValue() <= 2 * freshFiles,
                    e.getKey() + ": " + e.getValue() + " data files after maintenance, " + freshFiles + " fresh");
        }
        assertEquals(1L, after.get(Tables.RUNS), "the runs table's three files are one");
        assertTrue(summary.snapshotsExpired() > 0, summary.line());
        assertTrue(summary.filesAfter() < summary.filesBefore(), summary.line());

        // retention 0: per table, nothing older than the latest run's snapshot is left, and that one is
        for (String name : wh.catalog().existing()) {
            Table t = wh.catalog().table(name);
            Snapshot kept = latestRunSnapshot(t);
            assertNotNull(kept, name + " keeps the latest run's snapshot");
            for (Snapshot s : t.snapshots())
                assertTrue(s.timestampMillis() >= kept.timestampMillis(), name + " kept an old snapshot " + s);
        }
        // the latest run's events, as that run left them (what sql --as-of reads), are still there
        assertEquals(
                before.get(Tables.EVENTS).stream().mapToLong(r -> r.getLong(1)).sum(),
                spark.read()
                        .format("iceberg")
                        .option("versionAsOf", lastRunEventsSnapshot)
                        .load(tables.sparkName(Tables.EVENTS))
                        .count());
        assertEquals(before, contents(tables), "maintenance changed no row");

        assertFalse(Files.exists(orphan), "the killed run's two-day-old file is removed");
        assertTrue(Files.exists(young), "a file younger than a day stays");

        // a refresh with maintenance due (every 0 days) maintains, and records when
        Files.writeString(card, "\n# night 4\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        spark.conf().set(Settings.MAINTENANCE_EVERY_DAYS.name(), "0");
        try {
            assertTrue(a.refresh(spark).allOk());
        } finally {
            spark.conf().unset(Settings.MAINTENANCE_EVERY_DAYS.name());
        }
        assertNotNull(wh.catalog().table(Tables.RUNS).properties().get(Maintenance.LAST_MAINTENANCE));
        assertEquals(1L, dataFiles(wh).get(Tables.RUNS), "the refresh's maintenance compacted runs again");
        assertEquals(before.get(Tables.EVENTS), contents(tables).get(Tables.EVENTS));
    }

    /** Data files per table, from each table's current snapshot. */
    private static Map<String, Long> dataFiles(Warehouse wh) {
        Map<String, Long> out = new TreeMap<>();
        for (String name : wh.catalog().existing()) {
            String n = wh.catalog().table(name).currentSnapshot().summary().get("total-data-files");
            out.put(name, Long.parseLong(n));
        }
        return out;
    }

    /**
     * What a person would query to see that nothing changed: per workload, the events' and metrics' row counts and a
     * hash of every column of every row (summed), and the runs and metrics_history rows' counts.
     */
    private static Map<String, List<Row>> contents(WarehouseTables tables) {
        Map<String, List<Row>> out = new TreeMap<>();
        for (String table : List.of(Tables.EVENTS, Tables.METRICS, Tables.METRICS_HISTORY)) {
            Dataset<Row> rows = tables.live(table);
            Column[] all = Arrays.stream(rows.columns()).map(functions::col).toArray(Column[]::new);
            out.put(
                    table,
                    rows.groupBy(functions.col(Tables.PARTITION_COLUMN))
                            .agg(
                                    functions.count(functions.lit(1)),
                                    functions.sum(functions
                                            .hash(functions.to_json(functions.struct(all)))
                                            .cast("long")))
                            .orderBy(Tables.PARTITION_COLUMN)
                            .collectAsList());
        }
        out.put(
                Tables.RUNS,
                List.of(Row.fromSeq(scala.jdk.javaapi.CollectionConverters.asScala(
                                List.<Object>of(tables.live(Tables.RUNS).count()))
                        .toSeq())));
        return out;
    }

    private static Snapshot latestRunSnapshot(Table t) {
        for (Snapshot s : SnapshotUtil.ancestorsOf(t.currentSnapshot().snapshotId(), t::snapshot)) {
            if (s.summary().get(WarehouseCatalog.RUN_ID) != null) return s;
        }
        return null;
    }

    /** The snapshot of a table as a run left it: its newest ancestor made by that run or before. */
    private static long runSnapshot(Table t, String runId) {
        for (Snapshot s : SnapshotUtil.ancestorsOf(t.currentSnapshot().snapshotId(), t::snapshot)) {
            String run = s.summary().get(WarehouseCatalog.RUN_ID);
            if (run != null && run.compareTo(runId) <= 0) return s.snapshotId();
        }
        throw new AssertionError("no snapshot of run " + runId);
    }
}
