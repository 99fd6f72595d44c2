package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.Table;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.warehouse.DataFileCheck;
import org.tracelake.jobs.warehouse.DataFileCheck.Damage;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * What the warehouse trusts, verified ({@code tracelake check}, and the nightly refresh on the day its maintenance is
 * due): every data file of every table's current snapshot is there, of the size its manifest recorded, with a footer
 * that parses ({@link DataFileCheck}). A damaged file of a per-workload table is recomputed from the archive: the
 * refresh redoes its workload, whose new files replace the whole partition. A damaged file of a table the archive
 * cannot give back ({@code metrics_history}, {@code runs}, the change and regression logs) stops the refresh before
 * anything is done, naming the file; {@code tracelake check --drop-damaged} drops it from the table (its rows are
 * lost from the current snapshot; earlier snapshots still name it), so no damage needs a person with {@code rm}.
 */
public final class WarehouseCheck {
    /** The damaged files of a check, split into what a refresh recomputes and what it cannot. */
    public record Result(long filesChecked, List<Damage> damaged) {
        /** The workloads a refresh redoes: damage in a per-workload table, which the archive recomputes. */
        public Set<String> workloadsToRedo() {
            Set<String> out = new TreeSet<>();
            for (Damage d : damaged) if (recomputable(d)) out.add(d.workload());
            return out;
        }

        /** Damage the archive cannot recompute (the history tables). */
        public List<Damage> unrecoverable() {
            return damaged.stream().filter(d -> !recomputable(d)).toList();
        }

        public boolean clean() {
            return damaged.isEmpty();
        }

        /** One line per damaged file, for the progress log and {@code check}'s output. */
        public List<String> lines() {
            List<String> out = new ArrayList<>();
            for (Damage d : damaged) {
                out.add("damaged: " + d.table() + (d.workload() == null ? "" : " (workload " + d.workload() + ")")
                        + ": " + d.path() + " " + d.reason()
                        + (recomputable(d) ? "; a refresh recomputes it" : "; the archive cannot recompute it"));
            }
            return out;
        }

        private static boolean recomputable(Damage d) {
            return d.workload() != null && Tables.PER_WORKLOAD.contains(d.table());
        }
    }

    /** Thrown by a refresh that found damage it cannot recompute: one line naming the file and the way out. */
    public static final class Unrecoverable extends RuntimeException {
        Unrecoverable(List<Damage> damage) {
            super(damage.size() + " damaged data file(s) of tables the archive cannot recompute (first: "
                    + damage.get(0).table() + " " + damage.get(0).path() + " "
                    + damage.get(0).reason()
                    + "): restore the file from a backup, or run `tracelake check --drop-damaged` to drop its rows"
                    + " from the table; nothing was done");
        }
    }

    private WarehouseCheck() {}

    /** Checks every existing table's current data files (one Spark job). */
    public static Result run(WarehouseTables tables) throws IOException {
        Map<String, Table> all = existingTables(tables.warehouse().catalog());
        long files = 0;
        for (Table t : all.values()) files += Maintenance.dataFiles(t);
        List<Damage> damaged = DataFileCheck.run(tables.spark(), all);
        return new Result(files, damaged);
    }

    /**
     * The check a refresh makes before it plans: each damaged file reported, the workloads to redo returned; damage
     * the archive cannot recompute stops the run ({@link Unrecoverable}) before anything is written.
     */
    static Set<String> beforeRefresh(WarehouseTables tables) throws IOException {
        Result r = run(tables);
        Progress.info("checked " + Progress.count(r.filesChecked(), "data file") + " of the warehouse: "
                + (r.clean() ? "all sound" : Progress.count(r.damaged().size(), "damaged")));
        for (String line : r.lines()) Progress.info("  " + line);
        if (!r.unrecoverable().isEmpty()) throw new Unrecoverable(r.unrecoverable());
        return r.workloadsToRedo();
    }

    /**
     * Drops the damaged files of the tables the archive cannot recompute from their current snapshots: one Iceberg
     * commit per table, the files themselves left where they are (expiry and orphan removal take them later). Damage
     * in a per-workload table is left to the next refresh, which recomputes it. Returns how many files were dropped.
     */
    public static int dropUnrecoverable(WarehouseTables tables, Result r) {
        Map<String, List<Damage>> byTable = new LinkedHashMap<>();
        for (Damage d : r.unrecoverable())
            byTable.computeIfAbsent(d.table(), k -> new ArrayList<>()).add(d);
        int dropped = 0;
        for (Map.Entry<String, List<Damage>> e : byTable.entrySet()) {
            Table t = tables.warehouse().catalog().loadOrNull(e.getKey());
            DeleteFiles delete = t.newDelete();
            for (Damage d : e.getValue()) delete.deleteFile(d.path());
            // no run id: like maintenance's commits, it is no run's state for --as-of
            delete.set(Maintenance.MAINTENANCE_PROPERTY, "drop-damaged").commit();
            dropped += e.getValue().size();
        }
        return dropped;
    }

    private static Map<String, Table> existingTables(WarehouseCatalog catalog) {
        Map<String, Table> out = new LinkedHashMap<>();
        for (String name : catalog.existing()) out.put(name, catalog.loadOrNull(name));
        return out;
    }
}
