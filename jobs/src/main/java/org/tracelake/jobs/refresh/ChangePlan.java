package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.ingest.PartitionNames;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;

/**
 * Which workloads a refresh must redo: those with a new, changed or vanished file (path, size, modification
 * time, against the {@code trace_files} ledger), a new or changed card, or an error last time (so a broken
 * workload keeps being reported until it is fixed). Unchanged workloads are not read at all. Workloads whose
 * folder is gone are removed from the current tables.
 */
public final class ChangePlan {
    /**
     * One difference between a workload folder and what the last run saw of it.
     *
     * @param change what happened: {@link #NEW_WORKLOAD}, {@link #NEW_FILE}, {@link #CHANGED_FILE}, {@link #REMOVED_FILE},
     *               {@link #RETRY}, {@link #FULL} or {@link #NO_METRICS}
     * @param file the file's name in the workload folder, or null for the whole workload
     */
    public record Change(String change, String file) {
        @Override
        public String toString() {
            return file == null ? change : change + " " + file;
        }
    }

    public static final String NEW_WORKLOAD = "new workload";
    public static final String NEW_FILE = "new file";
    public static final String CHANGED_FILE = "changed file";
    public static final String REMOVED_FILE = "removed file";
    public static final String RETRY = "retry after error";
    public static final String FULL = "full";
    public static final String NO_METRICS = "no metrics yet";

    /** A workload to refresh, every change that made it one (workload_changes), and a line for the progress log. */
    public record Redo(WorkloadFolder folder, List<Change> changes) {
        public String why() {
            String first = changes.get(0).toString();
            if (changes.get(0).change().equals(NO_METRICS)) return "its events have no metrics yet (written by ingest)";
            if (changes.get(0).change().equals(FULL)) return "--full";
            return changes.size() == 1 ? first : first + " (and " + (changes.size() - 1) + " more changes)";
        }
    }

    public final List<Redo> redo = new ArrayList<>();
    public final List<WorkloadFolder> unchanged = new ArrayList<>();
    public final List<String> vanished = new ArrayList<>();
    /** How many workloads the warehouse held before this run (counted when the run may remove any: not limited). */
    public int knownWorkloads;

    private record Seen(long size, long modifiedAtMs, String status, long eventsRead) {
        /** A file that was unusable last time: its workload is retried until the file is fixed. */
        boolean failed() {
            return TraceFileSchema.STATUS_ERROR.equals(status) && eventsRead == 0;
        }
    }

    /**
     * @param needMetrics also redo workloads whose events have no metrics (an {@code ingest} wrote them last): a
     *                    refresh computes them; an ingest, which computes none, passes false
     */
    public static ChangePlan of(
            WarehouseTables tables, List<WorkloadFolder> scanned, boolean full, boolean limited, boolean needMetrics)
            throws IOException {
        Warehouse warehouse = tables.warehouse();
        Map<String, Map<String, Seen>> ledger = full ? Map.of() : ledger(tables);
        Set<String> withMetrics =
                full || !needMetrics ? null : warehouse.catalog().workloads(Tables.METRICS);
        ChangePlan plan = new ChangePlan();
        for (WorkloadFolder w : scanned) {
            List<Change> changes = full ? List.of(new Change(FULL, null)) : changes(w, ledger.get(w.name()));
            if (changes.isEmpty() && withMetrics != null && !withMetrics.contains(w.name())) {
                changes = List.of(new Change(NO_METRICS, null));
            }
            if (changes.isEmpty()) plan.unchanged.add(w);
            else plan.redo.add(new Redo(w, changes));
        }
        if (!limited) {
            Set<String> present = new TreeSet<>();
            for (WorkloadFolder w : scanned)
                present.add(PartitionNames.ledgerName(w.name())); // a too-long name's stand-in
            for (String known : ledgerWorkloads(tables, full ? ledger(tables) : ledger)) {
                plan.knownWorkloads++;
                if (!present.contains(known)) plan.vanished.add(known);
            }
        }
        return plan;
    }

    /** Every difference between the folder and the ledger's rows of it, files in name order; empty: unchanged. */
    static List<Change> changes(WorkloadFolder w, Map<String, Seen> seen) {
        if (seen == null) return List.of(new Change(NEW_WORKLOAD, null));
        List<WorkloadFolder.InputFile> files = new ArrayList<>(w.files());
        files.addAll(w.cards());
        // entries the scan refused are in the ledger as size 0, time 0 (never opened): present, not "removed"
        for (WorkloadFolder.Refused r : w.refused()) files.add(new WorkloadFolder.InputFile(r.path(), 0, 0));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        List<Change> changes = new ArrayList<>();
        Set<String> present = new TreeSet<>();
        for (WorkloadFolder.InputFile f : files) {
            present.add(f.path());
            Seen s = seen.get(f.path());
            if (s == null) changes.add(new Change(NEW_FILE, f.fileName()));
            else if (s.size != f.sizeBytes() || s.modifiedAtMs != f.modifiedAtMs())
                changes.add(new Change(CHANGED_FILE, f.fileName()));
            else if (s.failed()) changes.add(new Change(RETRY, f.fileName()));
        }
        for (Map.Entry<String, Seen> e : new TreeMap<>(seen).entrySet()) {
            if (present.contains(e.getKey())) continue;
            // In the ledger, gone from the folder (a failed file that was deleted counts too: its error goes with it).
            changes.add(new Change(REMOVED_FILE, new WorkloadFolder.InputFile(e.getKey(), 0, 0).fileName()));
        }
        return changes;
    }

    /** workload → path → what the last refresh saw. File metadata only: a row per input file. */
    private static Map<String, Map<String, Seen>> ledger(WarehouseTables tables) {
        Map<String, Map<String, Seen>> out = new HashMap<>();
        if (!tables.warehouse().exists(Tables.TRACE_FILES)) return out;
        for (Row r : tables.live(Tables.TRACE_FILES)
                .select("workload", "path", "size_bytes", "modified_at", "status", "events_read")
                .collectAsList()) {
            Timestamp t = r.getTimestamp(3);
            out.computeIfAbsent(r.getString(0), k -> new HashMap<>())
                    .put(
                            r.getString(1),
                            new Seen(r.getLong(2), t == null ? -1 : t.getTime(), r.getString(4), r.getLong(5)));
        }
        return out;
    }

    /** Workloads the warehouse knows: those of the ledger, and any with a card row (a workload whose files all failed). */
    private static Set<String> ledgerWorkloads(WarehouseTables tables, Map<String, Map<String, Seen>> ledger) {
        Set<String> out = new TreeSet<>(ledger.keySet());
        if (tables.warehouse().exists(Tables.WORKLOADS)) {
            // A plain collect of one row per workload: distinct() would add a shuffle to every no-change run
            for (Row r : tables.live(Tables.WORKLOADS).select("workload").collectAsList()) {
                out.add(r.getString(0));
            }
        }
        return out;
    }
}
