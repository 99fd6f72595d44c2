package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.RunSchema;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The warehouse's memory across runs: every run's metric values ({@code metrics_history}, appended, partitioned
 * by workload) and the workload-scope values that moved by more than a threshold since the workload's previous
 * run ({@code regressions}), and what made each run read a workload again ({@code workload_changes}).
 */
public final class History {

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;
    private final String runId;

    public History(WarehouseTables tables, String runId) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
        this.runId = runId;
    }

    /** How many of a run's regression rows come back to the driver for the run summary (all are in the table). */
    public static final int REGRESSIONS_SHOWN = 50;

    /** The metrics that moved in a run: how many, and the first {@link #REGRESSIONS_SHOWN} by workload and metric. */
    public record Regressions(long count, List<Row> shown) {
        public static final Regressions NONE = new Regressions(0, List.of());
    }

    public double threshold() {
        return Settings.of(spark).get(Settings.REGRESSION_THRESHOLD);
    }

    /**
     * Compare the committed workloads' new metrics with their previous run, then append them to the history: the rows
     * the run's export wrote to its folder of {@code metrics_history} ({@link MetricsPhase#export(List, boolean)}),
     * committed without a Spark job. The rows that moved go to the {@code regressions} table from the executors; a wide
     * refresh can flag thousands, so only a count and the first few come back to the driver. {@code written} names the
     * tables of the two, {@code regressions} and {@code regression_kernels}, that a killed run had appended to already
     * (they are written before its history; a journal's replay), so that neither is appended twice and neither is lost.
     */
    Regressions record(List<String> workloads, Set<String> written) throws IOException {
        if (workloads.isEmpty()) return Regressions.NONE;
        Dataset<Row> current = new MetricsPhase(tables, runId).readLive(workloads);
        Regressions moved = Regressions.NONE;
        boolean toWrite = !written.containsAll(List.of(Tables.REGRESSIONS, Tables.REGRESSION_KERNELS));
        if (warehouse.exists(Tables.METRICS_HISTORY) && toWrite) {
            // the earlier runs of these workloads only: their partitions are read, not the whole history
            moved = writeRegressions(
                    new RunComparisons(runId, threshold())
                            .compare(current, tables.live(Tables.METRICS_HISTORY, workloads)),
                    written);
        }
        // the rows themselves: written with the exports, by the same job ({@link MetricsPhase#export(List, boolean)})
        tables.appendStaged(Tables.METRICS_HISTORY, runId);
        return moved;
    }

    /**
     * Appends the regressions rows (none: no file, as before) and the kernels that moved most, and returns the rows'
     * count and the first few, the step verdicts first. The comparison of each workload with its previous run is cached
     * on the executors: the count, both writes and the first rows read it once.
     */
    private Regressions writeRegressions(JavaRDD<RunComparisons.WorkloadRows> comparisons, Set<String> written) {
        JavaRDD<RunComparisons.WorkloadRows> compared = comparisons.persist(StorageLevel.MEMORY_AND_DISK());
        try {
            spark.sparkContext().setJobDescription("history: regressions");
            // one job: both counts and the first rows (a bounded list per task, merged on the driver)
            RunComparisons.Tally tally = compared.aggregate(
                    new RunComparisons.Tally(REGRESSIONS_SHOWN),
                    RunComparisons.Tally::add,
                    RunComparisons.Tally::merge);
            if (tally.regressions() == 0) return Regressions.NONE; // no workload had a previous run: nothing to write
            if (!written.contains(Tables.REGRESSIONS)) {
                tables.append(
                        Tables.REGRESSIONS,
                        spark.createDataFrame(
                                compared.flatMap(w -> w.regressions().iterator()), RunSchema.REGRESSIONS),
                        runId);
            }
            CrashPoints.reached("regressions");
            if (tally.kernels() > 0 && !written.contains(Tables.REGRESSION_KERNELS)) {
                spark.sparkContext().setJobDescription("history: regression kernels");
                tables.append(
                        Tables.REGRESSION_KERNELS,
                        spark.createDataFrame(
                                compared.flatMap(w -> w.kernels().iterator()), RunSchema.REGRESSION_KERNELS),
                        runId);
            }
            return new Regressions(tally.regressions(), tally.shown());
        } finally {
            spark.sparkContext().setJobDescription(null);
            compared.unpersist(false);
        }
    }

    /** The workload_changes rows of a plan: why this run read each workload it read, every change the plan found. */
    List<Row> changeRows(List<ChangePlan.Redo> redo) {
        List<Row> rows = new ArrayList<>();
        for (ChangePlan.Redo r : redo) {
            for (ChangePlan.Change c : r.changes())
                rows.add(RowFactory.create(runId, r.folder().name(), c.change(), c.file()));
        }
        return rows;
    }

    void recordChangeRows(List<Row> rows) throws IOException {
        if (rows.isEmpty()) return;
        tables.appendSmall(Tables.WORKLOAD_CHANGES, rows, runId, Map.of());
    }

    /**
     * Appends the run's row, with the snapshot every other table is at now that the run's commits are made (the
     * journal's row, written before them, has none: a run killed and replayed records the snapshots its replay left).
     */
    public void recordRun(Row run) throws IOException {
        Map<String, Long> snapshots = warehouse.catalog().currentSnapshots(Tables.ALL);
        snapshots.remove(Tables.RUNS);
        List<Object> values = new ArrayList<>(CollectionConverters.asJava(run.toSeq()));
        values.set(RunSchema.RUNS.fieldIndex("table_snapshots"), CollectionConverters.asScala(snapshots));
        // the archive in the commit's summary too: the next run's removal guard reads it from the metadata
        String archive = run.getString(RunSchema.RUNS.fieldIndex("archive"));
        tables.appendSmall(
                Tables.RUNS,
                List.of(RowFactory.create(values.toArray())),
                runId,
                archive == null ? Map.of() : Map.of(WarehouseCatalog.ARCHIVE, archive));
    }
}
