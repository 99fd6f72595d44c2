package org.tracelake.jobs.ingest;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.rank.RankParts;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The ingest stage as a refresh runs it, on the driver (how the stage's four classes divide it: the package's doc).
 * Ingests the workloads of an archive together (one Spark job for every file and table, whatever their number; one
 * more before it for execution traces), writing their data files for the run's commits: a workload that failed keeps
 * its previous events and card, and only its {@code trace_files} ledger (which says what went wrong) is replaced.
 */
public final class IngestPhase {
    private final WarehouseTables tables;
    private final Warehouse warehouse;
    private final String runId;
    private final InputLimits limits;
    private final RankParts rankParts;

    /** {@code rankParts}: the metric families' per-rank parts, which the pass at ingest runs (Families.RANK_PARTS). */
    public IngestPhase(WarehouseTables tables, String runId, InputLimits limits, RankParts rankParts) {
        this.tables = tables;
        this.warehouse = tables.warehouse();
        this.runId = runId;
        this.limits = limits;
        this.rankParts = rankParts;
    }

    /** Ingest the workloads into the run's staging area, all in the same Spark jobs, committing nothing. */
    public List<WorkloadIngest> ingestAll(List<WorkloadFolder> workloads) throws IOException {
        if (workloads.isEmpty()) return List.of();
        long bytes = 0;
        int files = 0;
        for (WorkloadFolder w : workloads) {
            files += w.files().size();
            for (WorkloadFolder.InputFile f : w.files()) bytes += f.sizeBytes();
        }
        Progress.info(String.format(
                Locale.ROOT,
                "reading %s of %s, %.1f MB (one set of Spark jobs for all of them)",
                Progress.count(files, "file"),
                Progress.count(workloads.size(), "workload"),
                bytes / 1e6));
        long start = System.nanoTime();
        List<WorkloadIngest> results = new IngestStaging(tables, runId, limits, rankParts).ingest(workloads);
        int n = 0;
        for (WorkloadIngest result : results) {
            workloadDone(++n, results.size(), result, result.ok() ? "read" : "FAILED, previous tables kept");
        }
        Progress.info(String.format(
                Locale.ROOT,
                "read %s in %.1f s",
                Progress.count(results.size(), "workload"),
                (System.nanoTime() - start) / 1e9));
        return results;
    }

    /**
     * A workload's line once the stage that read it is done: its files, bytes and events. No time of its own: every
     * workload is read in the same Spark jobs, so the stage's time is said once, after the last line.
     */
    private static void workloadDone(int n, int total, WorkloadIngest w, String outcome) {
        Progress.info(String.format(
                Locale.ROOT,
                "[%d/%d] %s: %s — %s, %.1f MB, %s",
                n,
                total,
                Progress.printable(w.workload()),
                outcome,
                Progress.count(w.files().size(), "file"),
                w.bytes() / 1e6,
                Progress.count(w.events(), "event")));
        for (String problem : w.problems()) Progress.warn("    " + Progress.printable(problem));
    }

    /** Drops what the run kept aside (file reports, rank summaries); its data files stay for the commits. */
    public void finish() throws IOException {
        warehouse.dropStaging(runId);
    }
}
