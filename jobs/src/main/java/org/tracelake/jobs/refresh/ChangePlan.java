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
import org.tracelake.jobs.warehouse.WarehouseCatalog;
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
    /** A data file of the workload in the warehouse is missing or unreadable ({@link WarehouseCheck}). */
    public static final String DAMAGED = "damaged in the warehouse";

    /** A workload to refresh, every change that made it one (workload_changes), and a line for the progress log. */
    public record Redo(WorkloadFolder folder, List<Change> changes) {
        public String why() {
            String first = changes.get(0).toString();
            if (changes.get(0).change().equals(NO_METRICS)) return "its events have no metrics yet (written by ingest)";
            if (changes.get(0).change().equals(FULL)) return "--full";
            if (changes.get(0).change().equals(DAMAGED)) return "a data file of it in the warehouse is damaged";
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
            return TraceFileSchema.unusable(status, eventsRead);
        }
    }

    /**
     * @param needMetrics also redo workloads whose events have no metrics (an {@code ingest} wrote them last): a
     *                    refresh computes them; an ingest, which computes none, passes false
     */
    public static ChangePlan of(
            WarehouseTables tables, List<WorkloadFolder> scanned, boolean full, boolean limited, boolean needMetrics)
            throws IOException {
        return of(tables, scanned, full, limited, needMetrics, Set.of());
    }

    /**
     * @param damaged workloads (as the ledger names them) with a damaged data file in the warehouse: redone whatever
     *                their folder says, and their ledger rows (which may be the damaged file) never read
     */
    public static ChangePlan of(
            WarehouseTables tables,
            List<WorkloadFolder> scanned,
            boolean full,
            boolean limited,
            boolean needMetrics,
            Set<String> damaged)
            throws IOException {
        Warehouse warehouse = tables.warehouse();
        WarehouseCatalog catalog = warehouse.catalog();
        // From the tables' metadata alone: the listing digest each workload's ledger rows carry. A workload whose
        // folder lists as it did is unchanged; only the others' ledger rows are read, by a filter on their partitions.
        Map<String, Long> digests =
                full ? Map.of() : catalog.constantPerWorkload(Tables.TRACE_FILES, TraceFileSchema.LISTING_DIGEST);
        Set<String> known = new TreeSet<>(catalog.workloads(Tables.TRACE_FILES));
        known.addAll(catalog.workloads(Tables.WORKLOADS)); // a workload whose files all failed has a card row
        Set<String> compared = new TreeSet<>();
        for (WorkloadFolder w : scanned) {
            Long digest = digests.get(w.name());
            if (damaged.contains(PartitionNames.ledgerName(w.name()))) continue;
            if (known.contains(w.name()) && (digest == null || digest != w.listingDigest())) compared.add(w.name());
        }
        Map<String, Map<String, Seen>> ledger = full ? Map.of() : ledger(tables, compared);
        Set<String> withMetrics = full || !needMetrics ? null : catalog.workloads(Tables.METRICS);
        ChangePlan plan = new ChangePlan();
        for (WorkloadFolder w : scanned) {
            List<Change> changes;
            if (full) changes = List.of(new Change(FULL, null));
            else if (damaged.contains(PartitionNames.ledgerName(w.name())))
                changes = List.of(new Change(DAMAGED, null));
            else if (!known.contains(w.name())) changes = List.of(new Change(NEW_WORKLOAD, null));
            else if (digests.containsKey(w.name()) && !compared.contains(w.name())) changes = List.of();
            else changes = changes(w, ledger.get(w.name()));
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
            for (String k : known) {
                plan.knownWorkloads++;
                if (!present.contains(k)) plan.vanished.add(k);
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

    /** workload → path → what the last refresh saw, for these workloads only (their partitions are read). */
    private static Map<String, Map<String, Seen>> ledger(WarehouseTables tables, Set<String> workloads) {
        Map<String, Map<String, Seen>> out = new HashMap<>();
        if (workloads.isEmpty()) return out; // no Spark job in a run where every folder lists as it did
        for (Row r : tables.live(Tables.TRACE_FILES, workloads)
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
}
