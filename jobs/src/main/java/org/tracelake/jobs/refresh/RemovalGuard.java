package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.jobs.archive.ArchiveLayout;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * No silent wipe (issue 42 item 1): a refresh removes the workloads whose folder is gone, so an unmounted disk, a
 * typo in a cron line or a warehouse pointed at another archive would empty the warehouse and exit 0. A run is
 * refused, before it changes anything, when its archive root is missing or holds no workload folder, when it would
 * remove all of the warehouse's workloads or more than half of them, or when its root is not the one the last run
 * read; {@value #OPTION} lets a run that means it through (a missing root is refused whatever the options).
 */
public final class RemovalGuard {
    /** The option that lets a run remove what it would (refresh and ingest). */
    public static final String OPTION = "--allow-removals";

    private RemovalGuard() {}

    /** A run refused by the guard: a usage error (exit 2), one line, nothing done. */
    public static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * The checks that need no Spark and no warehouse, made before either starts: the root exists, is a folder and
     * (unless {@code allowRemovals}) holds at least one workload folder. One listing of the root.
     */
    public static void checkRoot(String archive, Configuration conf, boolean allowRemovals) throws IOException {
        Path root = new Path(archive);
        FileSystem fs = root.getFileSystem(conf);
        FileStatus[] entries;
        try {
            if (!fs.getFileStatus(root).isDirectory())
                throw new Refused("--archive " + archive + " is a file; it takes the archive's folder (one folder"
                        + " per workload)");
            entries = fs.listStatus(root);
        } catch (FileNotFoundException e) {
            throw new Refused("--archive " + archive + " does not exist (a typo, or a disk not mounted?): nothing"
                    + " done; give the archive's folder");
        }
        if (allowRemovals) return;
        for (FileStatus e : entries) {
            if (e.isDirectory() && !ArchiveLayout.hidden(e.getPath().getName())) return;
        }
        throw new Refused("--archive " + archive + " holds no workload folder (an empty or unmounted disk?): refusing"
                + " a run that would remove every workload of the warehouse; nothing done. Check the path, or pass "
                + OPTION + " if the archive really is empty now");
    }

    /**
     * The checks against the warehouse, once the change plan is known and before anything is written: the same
     * archive root as the last run's, and not most of the warehouse's workloads gone.
     *
     * @param limited the run reads only some workloads ({@code --workloads}): it removes none
     */
    static void checkPlan(WarehouseTables tables, String archive, ChangePlan plan, boolean limited) throws IOException {
        String root = qualified(archive, tables);
        Row last = lastRun(tables);
        if (last != null && !qualified(last.getString(0), tables).equals(root)) {
            throw new Refused("--archive " + archive + " is not the archive this warehouse was refreshed from ("
                    + last.getString(0) + ", run " + last.getString(1) + "): refusing a run that would remove the"
                    + " workloads not in it; nothing done. Give the same --archive, or pass " + OPTION
                    + " to refresh the warehouse from " + archive + " from now on");
        }
        if (limited || plan.vanished.isEmpty()) return;
        int known = plan.knownWorkloads;
        int gone = plan.vanished.size();
        if (gone == known || 2 * gone > known) {
            throw new Refused("--archive " + archive + ": " + gone + " of the warehouse's " + known + " workloads"
                    + (gone == known ? " (all of them)" : " (more than half)") + " have no folder in it, e.g. "
                    + examples(plan.vanished) + ": refusing to remove them; nothing done. Check the archive (a"
                    + " disk not mounted, a folder moved?), or pass " + OPTION + " to remove them");
        }
    }

    /** The archive and run id of the last run that recorded its archive, or null (a new warehouse). */
    private static Row lastRun(WarehouseTables tables) {
        if (!tables.warehouse().exists(Tables.RUNS)) return null;
        // from the runs table's metadata: each run's commit names its archive (no Spark job, nothing read)
        Map<String, String> last = tables.warehouse().catalog().lastSummaryWith(Tables.RUNS, WarehouseCatalog.ARCHIVE);
        if (last != null)
            return RowFactory.create(last.get(WarehouseCatalog.ARCHIVE), last.get(WarehouseCatalog.RUN_ID));
        // runs recorded before the commits named their archive: the table's newest row that has one
        List<Row> rows = tables.live(Tables.RUNS)
                .where(col("archive").isNotNull())
                .orderBy(col("started_at").desc())
                .select("archive", "run_id")
                .limit(1)
                .collectAsList();
        return rows.isEmpty() ? null : rows.get(0);
    }

    /** A root as a fully qualified path, so that {@code data}, {@code ./data/} and {@code file:/…/data} agree. */
    private static String qualified(String archive, WarehouseTables tables) throws IOException {
        Path p = new Path(archive);
        return p.getFileSystem(tables.warehouse().conf()).makeQualified(p).toString();
    }

    private static String examples(List<String> names) {
        String shown = Progress.printable(String.join(", ", names.subList(0, Math.min(3, names.size()))));
        return names.size() > 3 ? shown + ", …" : shown;
    }
}
