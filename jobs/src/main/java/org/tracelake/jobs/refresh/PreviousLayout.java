package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;

/**
 * Recognises a warehouse written by the previous release (plain Parquet folders per table, {@code workload=<w>}
 * partition folders swapped in by renames), which every command but {@code migrate} refuses: reading it as Iceberg
 * tables would find none and a refresh would start the history afresh beside it. Cheap: one listing of each of a few
 * table folders that every such warehouse has (a table of this release lists two entries, {@code metadata} and {@code
 * data}), and one existence check of the marker a migration under way leaves.
 */
public final class PreviousLayout {
    /** Where a migration moves the previous layout's folders, once their history is committed. */
    public static final String ASIDE = "_previous-layout";
    /** In {@link #ASIDE}: a migration has started and not finished (it may have moved some folders already). */
    static final String IN_PROGRESS = "_in-progress";

    /** Tables every warehouse of the previous release has (a refresh and an ingest write them all). */
    private static final List<String> PROBED =
            List.of(Tables.RUNS, Tables.TRACE_FILES, Tables.METRICS_HISTORY, Tables.EVENTS);

    private PreviousLayout() {}

    /** The one line every command but {@code migrate} prints for such a warehouse ({@code warehouse}: as given). */
    public static String message(String warehouse) {
        return "this warehouse has the previous release's layout: run `tracelake migrate --warehouse " + warehouse
                + "` once (it keeps metrics_history and runs)";
    }

    /** Whether the warehouse has the previous release's layout, or a migration of it is unfinished. */
    public static boolean found(Warehouse warehouse) throws IOException {
        FileSystem fs = warehouse.fs();
        if (fs.exists(new Path(warehouse.root() + "/" + ASIDE + "/" + IN_PROGRESS))) return true;
        for (String table : PROBED) {
            if (!oldEntries(warehouse, table).isEmpty()) return true;
        }
        return false;
    }

    /**
     * A table folder's entries of the previous layout: its Parquet files and {@code workload=} folders (and their
     * {@code _SUCCESS} markers and checksums), not this release's {@code metadata} and {@code data} folders.
     */
    static List<FileStatus> oldEntries(Warehouse warehouse, String table) throws IOException {
        Path dir = new Path(warehouse.table(table));
        FileStatus[] children;
        try {
            children = warehouse.fs().listStatus(dir);
        } catch (java.io.FileNotFoundException e) {
            return List.of();
        }
        List<FileStatus> out = new java.util.ArrayList<>();
        for (FileStatus c : children) {
            String name = c.getPath().getName();
            if (c.isDirectory() && (name.equals("metadata") || name.equals(Warehouse.DATA))) continue;
            if (c.isDirectory() && !name.startsWith(Tables.PARTITION_COLUMN + "=")) continue;
            if (c.isFile() && !(name.endsWith(".parquet") || name.endsWith(".crc") || name.equals("_SUCCESS")))
                continue;
            out.add(c);
        }
        return out;
    }
}
