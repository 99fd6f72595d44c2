package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * Converts a warehouse of the previous release ({@link PreviousLayout}) in place ({@code tracelake migrate}). The
 * history that cannot be recomputed from the archive ({@code metrics_history}, {@code runs}, {@code regressions},
 * {@code regression_kernels}, {@code workload_changes}) is read from the old Parquet folders and committed into the
 * Iceberg tables, one commit per table marked {@link #MIGRATED} in its snapshot summary; every other table is
 * recomputable, and the next refresh, finding no ledger, reads the whole archive once. Only then are the old folders
 * (and the old {@code _journal} and {@code _staging}) moved aside, into {@code _previous-layout/}, where they stay until
 * one deletes them.
 *
 * <p>Kill-safe, step by step: the marker {@code _previous-layout/_in-progress} is written first (until it is gone,
 * every other command still refuses the warehouse); until {@code _previous-layout/_committed} is written, nothing old
 * has moved, and a migration run again drops the Iceberg tables it half made (their every snapshot says {@link
 * #MIGRATED}) and starts over; once it is written, a migration run again only finishes the moves. Each move is one
 * rename of one entry, from the table's folder to the same name under {@code _previous-layout/<table>/}.
 */
public final class Migration {
    /** The snapshot summary property of a migration's commits. */
    public static final String MIGRATED = "tracelake.migrated-from";

    static final String COMMITTED = "_committed";

    /** The tables whose rows are kept: the history, which no archive can give again. */
    static final List<String> KEPT = List.of(
            Tables.METRICS_HISTORY,
            Tables.RUNS,
            Tables.REGRESSIONS,
            Tables.REGRESSION_KERNELS,
            Tables.WORKLOAD_CHANGES);

    /** What a migration did: rows kept per table, the folders moved aside. */
    public record Result(boolean needed, Map<String, Long> keptRows, List<String> movedAside, String aside) {}

    private final WarehouseTables tables;
    private final Warehouse warehouse;
    private final FileSystem fs;
    private final String runId;

    public Migration(WarehouseTables tables, String runId) {
        this.tables = tables;
        this.warehouse = tables.warehouse();
        this.fs = warehouse.fs();
        this.runId = runId;
    }

    /** Migrates the warehouse, or does nothing (result not {@code needed}) when it has this release's layout. */
    public Result run() throws IOException {
        Path aside = new Path(warehouse.root() + "/" + PreviousLayout.ASIDE);
        if (!PreviousLayout.found(warehouse)) return new Result(false, Map.of(), List.of(), aside.toString());
        fs.mkdirs(aside);
        fs.create(new Path(aside, PreviousLayout.IN_PROGRESS), true).close();
        Path committed = new Path(aside, COMMITTED);
        Map<String, Long> kept = new LinkedHashMap<>();
        if (!fs.exists(committed)) {
            for (String table : KEPT) dropHalfMade(table);
            boolean first = true;
            for (String table : KEPT) {
                long rows = commitKept(table);
                if (rows < 0) continue;
                kept.put(table, rows);
                Progress.info(String.format(
                        java.util.Locale.ROOT, "migrate %s: %,d rows committed to the Iceberg table", table, rows));
                if (first) CrashPoints.reached("migrate-table");
                first = false;
            }
            fs.create(committed, true).close();
        } else {
            for (String table : KEPT) {
                Table t = warehouse.catalog().loadOrNull(table);
                if (t != null && t.currentSnapshot() != null) kept.put(table, records(t));
            }
            Progress.info("migrate: the history was committed by an earlier migration; finishing the moves");
        }
        CrashPoints.reached("migrate-committed");
        List<String> moved = moveAside(aside);
        fs.delete(new Path(aside, PreviousLayout.IN_PROGRESS), false);
        return new Result(true, kept, moved, aside.toString());
    }

    /**
     * Drops the Iceberg table a killed migration half made in a kept table's folder: its {@code metadata} and {@code
     * data} folders only (the old entries beside them are the source, untouched). A table with a commit that is not a
     * migration's is no half-made one: refused, nothing changed.
     */
    private void dropHalfMade(String table) throws IOException {
        Path metadata = new Path(warehouse.table(table), "metadata");
        if (!fs.exists(metadata)) return;
        Table t;
        try {
            t = warehouse.catalog().loadOrNull(table);
        } catch (RuntimeException e) {
            t = null; // created but never committed (killed within the create): nothing of it to keep
        }
        if (t != null) {
            for (Snapshot s : t.snapshots()) {
                if (s.summary().get(MIGRATED) == null) {
                    throw new IllegalStateException(warehouse.table(table) + " holds both the previous layout's files"
                            + " and an Iceberg table with commits that are not a migration's (snapshot "
                            + s.snapshotId() + "); nothing was changed: move one of them aside by hand");
                }
            }
        }
        Progress.info("migrate " + table + ": dropping the Iceberg table an interrupted migration left");
        fs.delete(new Path(warehouse.table(table), Warehouse.DATA), true);
        fs.delete(metadata, true);
    }

    /**
     * Reads a kept table's old Parquet (in its catalog schema: a column the old files lack reads as null) and appends
     * it to the Iceberg table in one commit. Returns its rows, or -1 when the old table is absent.
     */
    private long commitKept(String table) throws IOException {
        List<FileStatus> old = PreviousLayout.oldEntries(warehouse, table);
        List<String> paths = new ArrayList<>();
        for (FileStatus f : old) {
            String name = f.getPath().getName();
            if (f.isDirectory() || name.endsWith(".parquet"))
                paths.add(f.getPath().toString());
        }
        if (paths.isEmpty()) return -1;
        StructType schema = TableCatalog.of(table).schema();
        Dataset<Row> rows = tables.previousLayout(table, paths)
                .select(java.util.Arrays.stream(schema.fieldNames())
                        .map(f -> col(f))
                        .toArray(Column[]::new));
        Table t = warehouse.catalog().table(table);
        tables.spark().sparkContext().setJobDescription("migrate: " + table);
        try {
            rows.write()
                    .format("iceberg")
                    .option("snapshot-property." + WarehouseCatalog.RUN_ID, runId)
                    .option("snapshot-property." + MIGRATED, "previous-layout")
                    .option("check-nullability", "false")
                    .mode(SaveMode.Append)
                    .save(tables.sparkName(table));
        } finally {
            tables.spark().sparkContext().setJobDescription(null);
        }
        t.refresh();
        return records(t);
    }

    private static long records(Table t) {
        Snapshot s = t.currentSnapshot();
        if (s == null) return 0;
        String n = s.summary().get("total-records");
        return n == null ? 0 : Long.parseLong(n);
    }

    /**
     * Moves the previous layout's entries aside: every table folder's old entries (a kept table keeps its new {@code
     * metadata} and {@code data}; any other table folder, then empty, is removed), and the old {@code _journal} and
     * {@code _staging}, whose runs this release cannot finish. Returns what it moved, by folder.
     */
    private List<String> moveAside(Path aside) throws IOException {
        List<String> moved = new ArrayList<>();
        for (String table : Tables.ALL) {
            List<FileStatus> old = PreviousLayout.oldEntries(warehouse, table);
            if (old.isEmpty()) continue;
            Path target = new Path(aside, table);
            fs.mkdirs(target);
            boolean first = moved.isEmpty();
            for (FileStatus f : old) {
                Path to = new Path(target, f.getPath().getName());
                if (!fs.rename(f.getPath(), to))
                    throw new IOException("could not move " + f.getPath() + " to " + to + " (run migrate again)");
                if (first) CrashPoints.reached("migrate-move");
                first = false;
            }
            Path dir = new Path(warehouse.table(table));
            if (!KEPT.contains(table) && fs.listStatus(dir).length == 0) fs.delete(dir, false);
            moved.add(table);
        }
        for (String folder : List.of(RunJournal.DIR, "_staging")) {
            Path from = new Path(warehouse.root() + "/" + folder);
            if (!fs.exists(from)) continue;
            Path target = new Path(aside, folder);
            fs.mkdirs(target);
            for (FileStatus f : fs.listStatus(from)) {
                Path to = new Path(target, f.getPath().getName());
                if (!fs.rename(f.getPath(), to))
                    throw new IOException("could not move " + f.getPath() + " to " + to + " (run migrate again)");
            }
            fs.delete(from, false);
            moved.add(folder);
        }
        return moved;
    }
}
