package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.ArchiveScanner;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.ingest.IngestPhase;
import org.tracelake.jobs.ingest.PartitionNames;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.metrics.workload.Families;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One refresh, the nightly job: under the warehouse lock, find what changed since the last run, ingest only
 * those workloads into the run's staging area, compute their metrics there, swap each workload in whole (a
 * failed one keeps its previous tables), remove workloads whose folder is gone, and record the run, its metric
 * history and what moved.
 */
public final class Refresh {
    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;
    private final String runId;
    private final InputLimits limits;
    private boolean computeMetrics = true;
    private boolean allowRemovals;
    private boolean checkFirst;

    public Refresh(WarehouseTables tables, String runId, InputLimits limits) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
        this.runId = runId;
        this.limits = limits;
    }

    /**
     * A refresh that only ingests (the {@code ingest} command): the same plan, lock, swap and run record, but no
     * metrics; a workload it commits loses its old tables of the metrics stage ({@code metrics}, {@code collectives},
     * {@code collective_members}: they described other events), and the next refresh computes them.
     */
    public Refresh ingestOnly() {
        computeMetrics = false;
        return this;
    }

    /** Lets the run remove what {@link RemovalGuard} would refuse to ({@code --allow-removals}). */
    public Refresh allowRemovals(boolean allow) {
        allowRemovals = allow;
        return this;
    }

    /**
     * Verifies the warehouse's data files before planning and redoes the workloads whose files are damaged ({@code
     * --check}; {@link WarehouseCheck}), as every refresh does on the day its maintenance is due.
     */
    public Refresh checkFirst(boolean check) {
        checkFirst = check;
        return this;
    }

    /** What a refresh did. */
    public record Result(
            String runId,
            List<WorkloadIngest> workloads,
            List<WorkloadFolder> unchanged,
            List<String> removed,
            History.Regressions regressions,
            List<String> restoredAfterCrash) {
        public boolean allOk() {
            return workloads.stream().allMatch(WorkloadIngest::clean);
        }

        public long filesRead() {
            return workloads.stream().mapToLong(w -> w.files().size()).sum();
        }
    }

    /** The command this refresh is, as the warehouse lock names its owner. */
    public String command() {
        return computeMetrics ? "refresh" : "ingest";
    }

    /** Takes the warehouse lock, runs, and lets the lock go. */
    public Result run(String archive, Set<String> only, boolean full) throws IOException {
        Duration staleAfter = Duration.ofHours(Settings.of(spark).get(Settings.LOCK_STALE_AFTER_HOURS));
        try (WarehouseLock lock = WarehouseLock.acquire(warehouse, runId, staleAfter, command())) {
            return run(lock, archive, only, full);
        }
    }

    /** Runs under a lock the caller holds for this run (the command line takes it before Spark starts). */
    public Result run(WarehouseLock lock, String archive, Set<String> only, boolean full) throws IOException {
        if (!lock.runId().equals(runId))
            throw new IllegalArgumentException("the lock is run " + lock.runId() + "'s, not " + runId + "'s");
        Timestamp started = new Timestamp(System.currentTimeMillis());
        PhaseCpu cpu = new PhaseCpu();
        // the run's aside folder first: a run killed before its journal is known by it, and its files dropped
        warehouse.fs().mkdirs(new org.apache.hadoop.fs.Path(warehouse.staging(runId)));
        Set<String> journaled = new HashSet<>();
        for (RunJournal j : RunJournal.leftBehind(warehouse, runId)) journaled.add(j.runId());
        List<String> restored = warehouse.recoverInterrupted(runId, journaled);
        if (!restored.isEmpty()) Progress.info("dropped the files of interrupted runs: " + restored);
        restored = new ArrayList<>(restored);
        restored.addAll(JournalReplay.replay(tables, runId));

        // on the day maintenance is due, first verify the data files the tables name (before maintenance reads them)
        Maintenance maintenance = new Maintenance(tables, runId);
        boolean maintenanceDue = maintenance.due();
        Set<String> damaged = checkFirst || maintenanceDue ? WarehouseCheck.beforeRefresh(tables) : Set.of();
        List<WorkloadFolder> selected = ArchiveScanner.scan(archive, only, warehouse.conf());
        ChangePlan plan =
                ChangePlan.of(tables, selected, full, only != null && !only.isEmpty(), computeMetrics, damaged);
        if (!allowRemovals) RemovalGuard.checkPlan(tables, archive, plan, only != null && !only.isEmpty());
        Progress.info("run " + runId + ": " + Progress.count(selected.size(), "workload") + " in " + archive + " -> "
                + warehouse.root()
                + "; " + plan.redo.size() + " to refresh, " + plan.unchanged.size() + " unchanged, "
                + plan.vanished.size() + " gone");
        for (ChangePlan.Redo r : plan.redo)
            Progress.info("  " + Progress.printable(r.folder().name() + ": " + r.why()));

        List<WorkloadFolder> toRead = new ArrayList<>();
        for (ChangePlan.Redo r : plan.redo) toRead.add(r.folder());
        IngestPhase ingest = new IngestPhase(tables, runId, limits, Families.RANK_PARTS);
        List<WorkloadIngest> results = ingest.ingestAll(toRead);

        List<String> ok = new ArrayList<>();
        for (WorkloadIngest r : results) if (r.ok()) ok.add(r.workload());
        cpu.end("ingest");
        MetricsPhase metrics = new MetricsPhase(tables, runId);
        long metricsStart = System.nanoTime();
        if (computeMetrics && !ok.isEmpty()) {
            Progress.info("computing metrics for " + Progress.count(ok.size(), "workload"));
            boolean atIngest = Settings.of(spark).get(Settings.RANK_PASS_AT_INGEST);
            metrics.computeStaged(ok, atIngest ? summarised(results) : Set.of());
            Progress.info(String.format(
                    Locale.ROOT,
                    "metrics staged in %.1f s (%.1f CPU-s)",
                    (System.nanoTime() - metricsStart) / 1e9,
                    cpu.end("metrics")));
        } else {
            cpu.end("metrics");
        }
        lock.checkHeld(); // a run whose lock was taken over changes nothing live
        // Before the first commit: what this run commits, for the next run to finish if this one is killed.
        History history = new History(tables, runId);
        List<Row> changeRows = history.changeRows(plan.redo);
        Result planned = new Result(runId, results, plan.unchanged, plan.vanished, History.Regressions.NONE, restored);
        List<String> ledger = new ArrayList<>();
        for (WorkloadIngest r : results) ledger.add(PartitionNames.ledgerName(r.workload()));
        RunJournal journal = new RunJournal(
                runId, computeMetrics, ok, ledger, plan.vanished, changeRows, runRow(planned, archive, full, started));
        journal.write(warehouse);
        ingest.finish(); // what the run kept aside: its data files stay, for the commits
        long exportStart = System.nanoTime();
        History.Regressions moved = RunCommit.commit(tables, journal);
        Result result = new Result(runId, results, plan.unchanged, plan.vanished, moved, restored);
        Progress.info(String.format(
                Locale.ROOT,
                "tables committed, exports, metric history and run recorded in %.1f s",
                (System.nanoTime() - exportStart) / 1e9));
        cpu.end("commit");
        // the nightly upkeep, when due (spark.tracelake.maintenance.everyDays): nothing but a metadata read otherwise
        Maintenance.Summary maintained = maintenanceDue ? maintenance.runAsDue() : null;
        if (maintained != null) {
            Progress.info(maintained.line());
            cpu.end("maintenance");
        }
        Progress.info(cpu.line());
        return result;
    }

    private Row runRow(Result r, String archive, boolean full, Timestamp started) {
        long failed = r.workloads().stream().filter(w -> !w.ok()).count();
        long bytes = r.workloads().stream().mapToLong(WorkloadIngest::bytes).sum();
        long events = r.workloads().stream().mapToLong(WorkloadIngest::events).sum();
        long filesUnchanged = r.unchanged().stream()
                .mapToLong(w -> w.files().size() + w.cards().size())
                .sum();
        List<String> errors = new ArrayList<>();
        for (WorkloadIngest w : r.workloads()) {
            for (FileReport f : w.files()) {
                if (f.isError()) errors.add(w.workload() + "/" + f.task.fileName() + ": " + f.error);
            }
        }
        String status = failed > 0 ? "partial" : errors.isEmpty() ? "ok" : "ok_with_errors";
        return RowFactory.create(
                r.runId(),
                started,
                new Timestamp(System.currentTimeMillis()),
                status,
                archive,
                full,
                (long) r.workloads().size() - failed,
                (long) r.unchanged().size(),
                failed,
                (long) r.removed().size(),
                r.filesRead(),
                filesUnchanged,
                bytes,
                events,
                CollectionConverters.asScala(errors).toSeq(),
                null); // table_snapshots: known once the run's commits are made (History.recordRun)
    }

    /** The workloads whose metrics can start from the rank summaries ingest left (the others read their events). */
    private static Set<String> summarised(List<WorkloadIngest> results) {
        Set<String> out = new HashSet<>();
        for (WorkloadIngest r : results) if (r.ok() && RankSummaryFiles.cover(r.files())) out.add(r.workload());
        return out;
    }
}
