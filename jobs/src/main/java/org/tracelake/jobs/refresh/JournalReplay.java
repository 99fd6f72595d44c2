package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.ingest.Progress;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * Finishes what killed runs owed after their first swap ({@link RunJournal}), under the lock, before a run plans
 * anything: for each workload the killed run swapped in (its live {@code trace_files} carry that run's id — a
 * workload not swapped in was put back by recovery and is redone as changed), its export, its history and
 * regressions; then the run's {@code workload_changes} and {@code runs} rows. Each append is skipped when that run's
 * rows are already in the table, so a replay killed in turn is replayed again without writing anything twice.
 */
final class JournalReplay {
    private JournalReplay() {}

    /** Replays every journal left behind; returns the run ids finished. */
    static List<String> replay(WarehouseTables tables, String currentRunId) throws IOException {
        Warehouse warehouse = tables.warehouse();
        List<String> done = new ArrayList<>();
        for (RunJournal j : RunJournal.leftBehind(warehouse, currentRunId)) {
            List<String> swapped = swappedIn(tables, j);
            for (String gone : j.vanished()) warehouse.remove(gone, Tables.PER_WORKLOAD);
            MetricsPhase metrics = new MetricsPhase(tables, j.runId());
            if (j.metrics()) metrics.export(swapped);
            for (String gone : j.vanished()) metrics.dropExport(gone);
            if (!j.metrics()) for (String w : swapped) metrics.dropExport(w);
            History history = new History(tables, j.runId());
            if (j.metrics() && !history.written(Tables.METRICS_HISTORY)) {
                history.record(swapped, history.written(Tables.REGRESSIONS));
            }
            if (!history.written(Tables.WORKLOAD_CHANGES)) history.recordChangeRows(j.changes());
            if (!history.written(Tables.RUNS)) history.recordRun(j.run());
            j.delete(warehouse);
            Progress.info("finished the exports, history and run row of run " + j.runId() + ", killed after its first"
                    + " swap (" + swapped.size() + " of its " + j.ok().size() + " workloads were swapped in)");
            done.add(j.runId());
        }
        return done;
    }

    /** The journal's workloads whose live ledger is that run's: those it swapped in before it was killed. */
    private static List<String> swappedIn(WarehouseTables tables, RunJournal j) {
        if (j.ok().isEmpty() || !tables.warehouse().exists(Tables.TRACE_FILES)) return List.of();
        List<String> out = new ArrayList<>();
        // a few rows per workload of the ledger; one small Spark job per replay, which is rare
        for (Row r : tables.live(Tables.TRACE_FILES)
                .where(col("ingest_run_id")
                        .equalTo(j.runId())
                        .and(col("workload").isin(j.ok().toArray())))
                .select("workload")
                .distinct()
                .collectAsList()) {
            out.add(r.getString(0));
        }
        out.sort(null);
        return out;
    }
}
