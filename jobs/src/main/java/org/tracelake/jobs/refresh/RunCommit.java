package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.warehouse.StagedFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * The one commit routine of a run, for a live run and for the replay of a killed one alike ({@link RunJournal}): per
 * table, one Iceberg commit that replaces the changed workloads' partitions with the run's data files ({@code
 * trace_files} last: until it commits, the ledger still describes the old inputs); then the exports, the metric
 * history and regressions, {@code workload_changes} and the {@code runs} row. Every commit names its run ({@link
 * WarehouseCatalog#RUN_ID}), and a table that has the run's commit already is passed over, so the routine run again
 * after a kill at any point finishes the run without writing anything twice.
 */
final class RunCommit {
    private RunCommit() {}

    /** Commits what the journal says; returns the regressions the history found (none when already recorded). */
    static History.Regressions commit(WarehouseTables tables, RunJournal j) throws IOException {
        Warehouse warehouse = tables.warehouse();
        WarehouseCatalog catalog = warehouse.catalog();
        String runId = j.runId();
        Set<String> replaced = new TreeSet<>(j.ok());
        replaced.addAll(j.vanished());
        Set<String> ledger = new TreeSet<>(j.ledger());
        ledger.addAll(j.vanished());

        List<String> order = new ArrayList<>(Tables.PER_WORKLOAD);
        order.remove(Tables.TRACE_FILES);
        order.add(Tables.TRACE_FILES);
        List<String> todo = new ArrayList<>();
        for (String table : order) {
            Set<String> workloads = table.equals(Tables.TRACE_FILES) ? ledger : replaced;
            if (workloads.isEmpty() || committed(catalog, table, runId)) continue;
            todo.add(table);
        }
        List<StagedFiles.File> files = new ArrayList<>();
        for (StagedFiles.File f : StagedFiles.list(warehouse, runId, todo)) {
            Set<String> workloads = f.table().equals(Tables.TRACE_FILES) ? ledger : replaced;
            if (workloads.contains(f.workload())) files.add(f); // a failed workload's other files are not committed
        }
        Map<String, List<DataFile>> byTable = StagedFiles.dataFiles(tables.spark(), warehouse.conf(), catalog, files);
        boolean first = true;
        for (String table : todo) {
            List<DataFile> added = byTable.getOrDefault(table, List.of());
            Table t = added.isEmpty() ? catalog.loadOrNull(table) : catalog.table(table);
            if (t == null || (t.currentSnapshot() == null && added.isEmpty())) continue; // nothing to replace or add
            StagedFiles.replace(t, runId, table.equals(Tables.TRACE_FILES) ? ledger : replaced, added);
            if (first) CrashPoints.reached("swap");
            first = false;
        }
        CrashPoints.reached("swaps");

        MetricsPhase metrics = new MetricsPhase(tables, runId);
        // the export's job writes the metric history's rows too, unless the run recorded them already
        boolean historyDue = j.metrics() && !committed(catalog, Tables.METRICS_HISTORY, runId);
        if (j.metrics()) metrics.export(j.ok(), historyDue);
        for (String gone : j.vanished()) metrics.dropExport(gone);
        if (!j.metrics()) for (String w : j.ok()) metrics.dropExport(w);
        CrashPoints.reached("exports");

        History history = new History(tables, runId);
        History.Regressions moved = History.Regressions.NONE;
        if (historyDue) {
            Set<String> written = new TreeSet<>();
            for (String t : List.of(Tables.REGRESSIONS, Tables.REGRESSION_KERNELS))
                if (committed(catalog, t, runId)) written.add(t);
            moved = history.record(j.ok(), written);
        }
        CrashPoints.reached("history");
        if (!committed(catalog, Tables.WORKLOAD_CHANGES, runId)) history.recordChangeRows(j.changes());
        CrashPoints.reached("changes");
        if (!committed(catalog, Tables.RUNS, runId)) history.recordRun(j.run());
        CrashPoints.reached("run");
        j.delete(warehouse);
        return moved;
    }

    private static boolean committed(WarehouseCatalog catalog, String table, String runId) {
        Table t = catalog.loadOrNull(table);
        return t != null && WarehouseCatalog.committedBy(t, runId);
    }
}
