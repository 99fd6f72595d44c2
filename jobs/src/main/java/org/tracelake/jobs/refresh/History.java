package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.RunSchema;
import org.tracelake.schemas.Tables;

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
     * Compare the committed workloads' new metrics with their previous run, then append them to the history. The
     * rows that moved go to the {@code regressions} table from the executors; a wide refresh can flag thousands, so
     * only a count and the first few come back to the driver.
     */
    public Regressions record(List<String> workloads) {
        return record(workloads, false);
    }

    /**
     * {@link #record(List)}, for a journal's replay: {@code regressionsWritten} when the killed run had already
     * appended its regressions (they are written before its history), so they are not appended twice.
     */
    Regressions record(List<String> workloads, boolean regressionsWritten) {
        if (workloads.isEmpty()) return Regressions.NONE;
        Dataset<Row> current = new MetricsPhase(tables, runId).readLive(workloads);
        Regressions moved = Regressions.NONE;
        if (warehouse.exists(Tables.METRICS_HISTORY) && !regressionsWritten) {
            current.createOrReplaceTempView("run_metrics");
            tables.live(Tables.METRICS_HISTORY).createOrReplaceTempView("metrics_history_before");
            double threshold = threshold();
            Dataset<Row> rows = spark.sql("""
                    WITH previous_run AS (
                      SELECT workload, max(run_id) AS run_id FROM metrics_history_before GROUP BY workload
                    ),
                    previous AS (
                      SELECT h.workload, h.metric, h.figure, h.key, h.run_id, h.value
                      FROM metrics_history_before h JOIN previous_run p ON h.workload = p.workload AND h.run_id = p.run_id
                      WHERE h.scope = 'workload'
                    )
                    SELECT '%s' AS run_id, c.workload, c.metric, c.figure, c.key, p.run_id AS previous_run_id,
                           p.value AS previous_value, c.value,
                           (c.value - p.value) / abs(p.value) AS relative_change, CAST(%s AS DOUBLE) AS threshold
                    FROM run_metrics c JOIN previous p
                      ON c.workload = p.workload AND c.metric = p.metric AND c.figure <=> p.figure AND c.key <=> p.key
                    WHERE c.scope = 'workload' AND c.value IS NOT NULL AND p.value IS NOT NULL
                      AND (p.value = 0 AND c.value <> 0 OR abs(c.value - p.value) > %s * abs(p.value))
                    """.formatted(runId, threshold, threshold));
            // in the table's own schema (run_id, workload, metric, previous_run_id NOT NULL, as every earlier run wrote
            // it); the query's own columns, read back from Parquet, are all nullable
            moved = writeRegressions(spark.createDataFrame(rows.rdd(), RunSchema.REGRESSIONS));
        }
        tables.append(Tables.METRICS_HISTORY, current.withColumn("run_id", lit(runId)), runId);
        return moved;
    }

    /** Appends the moved rows (none: no file, as before) and returns their count and the first few. */
    private Regressions writeRegressions(Dataset<Row> rows) {
        // cached on the executors: the count, the write and the first rows then read the comparison once
        Dataset<Row> cached = rows.persist(StorageLevel.MEMORY_AND_DISK());
        try {
            long count = cached.count();
            if (count == 0) return Regressions.NONE;
            tables.append(Tables.REGRESSIONS, cached, runId);
            List<Row> shown = cached.orderBy("workload", "metric", "figure", "key")
                    .limit(REGRESSIONS_SHOWN)
                    .collectAsList();
            return new Regressions(count, shown);
        } finally {
            cached.unpersist();
        }
    }

    /** Why this run read each workload it read: every change the plan found (the workload_changes table). */
    public void recordChanges(List<ChangePlan.Redo> redo) {
        recordChangeRows(changeRows(redo));
    }

    /** The workload_changes rows of a plan. */
    List<Row> changeRows(List<ChangePlan.Redo> redo) {
        List<Row> rows = new ArrayList<>();
        for (ChangePlan.Redo r : redo) {
            for (ChangePlan.Change c : r.changes())
                rows.add(RowFactory.create(runId, r.folder().name(), c.change(), c.file()));
        }
        return rows;
    }

    void recordChangeRows(List<Row> rows) {
        if (rows.isEmpty()) return;
        tables.append(Tables.WORKLOAD_CHANGES, spark.createDataFrame(rows, RunSchema.WORKLOAD_CHANGES), runId);
    }

    public void recordRun(Row run) {
        tables.append(Tables.RUNS, spark.createDataFrame(List.of(run), RunSchema.RUNS), runId);
    }
}
