package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.schemas.WorkloadSchema;

/**
 * Which workloads a refresh must redo: those with a new, changed or vanished file (path, size, modification
 * time, against the {@code trace_files} ledger), a new or changed card, or an error last time (so a broken
 * workload keeps being reported until it is fixed). Unchanged workloads are not read at all. Workloads whose
 * folder is gone are removed from the current tables.
 */
public final class ChangePlan {
    /** A workload to refresh, and why (for the progress log). */
    public record Redo(WorkloadFolder folder, String why) {}

    public final List<Redo> redo = new ArrayList<>();
    public final List<WorkloadFolder> unchanged = new ArrayList<>();
    public final List<String> vanished = new ArrayList<>();

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
    public static ChangePlan of(SparkSession spark, Warehouse warehouse, List<WorkloadFolder> scanned,
                                boolean full, boolean limited, boolean needMetrics) throws IOException {
        Map<String, Map<String, Seen>> ledger = full ? Map.of() : ledger(spark, warehouse);
        Set<String> withMetrics = full || !needMetrics ? null : warehouse.livePartitions(Tables.METRICS);
        ChangePlan plan = new ChangePlan();
        for (WorkloadFolder w : scanned) {
            String why = full ? "--full" : whyChanged(w, ledger.get(w.name()));
            if (why == null && withMetrics != null && !withMetrics.contains(Warehouse.partitionDir(w.name()))) {
                why = "its events have no metrics yet (written by ingest)";
            }
            if (why == null) plan.unchanged.add(w);
            else plan.redo.add(new Redo(w, why));
        }
        if (!limited) {
            Set<String> present = new TreeSet<>();
            for (WorkloadFolder w : scanned) present.add(w.name());
            for (String known : ledgerWorkloads(spark, warehouse, full ? ledger(spark, warehouse) : ledger)) {
                if (!present.contains(known)) plan.vanished.add(known);
            }
        }
        return plan;
    }

    static String whyChanged(WorkloadFolder w, Map<String, Seen> seen) {
        if (seen == null) return "new workload";
        List<WorkloadFolder.InputFile> files = new ArrayList<>(w.files());
        files.addAll(w.cards());
        int matched = 0;
        for (WorkloadFolder.InputFile f : files) {
            Seen s = seen.get(f.path());
            if (s == null) return "new file " + f.fileName();
            if (s.size != f.sizeBytes() || s.modifiedAtMs != f.modifiedAtMs()) return "changed file " + f.fileName();
            if (s.failed()) return "retrying after an error in " + f.fileName();
            matched++;
        }
        for (Map.Entry<String, Seen> e : seen.entrySet()) {
            if (e.getValue().failed()) return "retrying after an error";
        }
        if (matched != seen.size()) return "a file was removed";
        return null;
    }

    /** workload → path → what the last refresh saw. File metadata only: a row per input file. */
    private static Map<String, Map<String, Seen>> ledger(SparkSession spark, Warehouse warehouse) {
        Map<String, Map<String, Seen>> out = new HashMap<>();
        if (!warehouse.exists(Tables.TRACE_FILES)) return out;
        // The schema given, not inferred: inferring it reads the footers in a Spark job of its own, a cost every
        // no-change refresh paid.
        for (Row r : spark.read().schema(TraceFileSchema.SCHEMA).parquet(warehouse.table(Tables.TRACE_FILES))
                .select("workload", "path", "size_bytes", "modified_at", "status", "events_read").collectAsList()) {
            Timestamp t = r.getTimestamp(3);
            out.computeIfAbsent(r.getString(0), k -> new HashMap<>())
                    .put(r.getString(1), new Seen(r.getLong(2), t == null ? -1 : t.getTime(), r.getString(4), r.getLong(5)));
        }
        return out;
    }

    /** Workloads the warehouse knows: those of the ledger, and any with a card row (a workload whose files all failed). */
    private static Set<String> ledgerWorkloads(SparkSession spark, Warehouse warehouse, Map<String, Map<String, Seen>> ledger) {
        Set<String> out = new TreeSet<>(ledger.keySet());
        if (warehouse.exists(Tables.WORKLOADS)) {
            // A plain collect of one row per workload: distinct() would add a shuffle to every no-change run
            for (Row r : spark.read().schema(WorkloadSchema.SCHEMA).parquet(warehouse.table(Tables.WORKLOADS))
                    .select("workload").collectAsList()) {
                out.add(r.getString(0));
            }
        }
        return out;
    }
}
