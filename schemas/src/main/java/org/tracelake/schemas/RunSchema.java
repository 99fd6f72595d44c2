package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code runs} table (one row per refresh), {@code regressions} (metrics that moved in a run, and each workload's
 * step-time verdict), {@code regression_kernels} (the kernels that moved most) and
 * {@code workload_changes} (what made a run read a workload again).
 */
public final class RunSchema {
    private RunSchema() {}

    public static final StructType RUNS = new StructType()
            .add("run_id", StringType, false)
            .add("started_at", TimestampType, false)
            .add("finished_at", TimestampType, false)
            .add("status", StringType, false)
            .add("archive", StringType, true)
            .add("full", DataTypes.BooleanType, false)
            .add("workloads_refreshed", LongType, false)
            .add("workloads_unchanged", LongType, false)
            .add("workloads_failed", LongType, false)
            .add("workloads_removed", LongType, false)
            .add("files_read", LongType, false)
            .add("files_unchanged", LongType, false)
            .add("bytes_read", LongType, false)
            .add("events", LongType, false)
            .add("errors", DataTypes.createArrayType(StringType, false), true)
            // table -> the Iceberg snapshot id this run left it at (every table the run committed to, and the others'
            // current one), so `sql --as-of RUN` and any Iceberg reader see the warehouse exactly as the run left it
            .add("table_snapshots", DataTypes.createMapType(StringType, LongType, false), true);

    public static final StructType REGRESSIONS = new StructType()
            .add("run_id", StringType, false)
            .add("workload", StringType, false)
            .add("metric", StringType, false)
            .add("figure", StringType, true)
            .add("key", StringType, true)
            .add("previous_run_id", StringType, false)
            .add("previous_value", DoubleType, true)
            .add("value", DoubleType, true)
            .add("relative_change", DoubleType, true)
            .add("threshold", DoubleType, false)
            // the run comparison (METRICS.md §4 "Run comparison verdicts"); null in rows written before it existed
            .add("rule", StringType, true)
            .add("verdict", StringType, true)
            .add("noise", DoubleType, true)
            .add("direction", StringType, true)
            .add("step_change", DoubleType, true)
            .add("delta_ms", DoubleType, true)
            .add("compute_delta_ms", DoubleType, true)
            .add("exposed_comm_delta_ms", DoubleType, true)
            .add("exposed_copy_delta_ms", DoubleType, true)
            // the idle time's change as a whole: the sum of the three idle parts' at the end (added later, so last)
            .add("idle_delta_ms", DoubleType, true)
            .add("other_delta_ms", DoubleType, true)
            .add("top_kernel", StringType, true)
            .add("top_kernel_delta_ms", DoubleType, true)
            // idle_delta_ms split as idle_breakdown splits the gaps: nothing queued yet, queued but waiting, and what
            // no launch record explains; null in rows written before the split existed
            .add("idle_host_wait_delta_ms", DoubleType, true)
            .add("idle_device_wait_delta_ms", DoubleType, true)
            .add("idle_other_delta_ms", DoubleType, true);

    /**
     * {@code regression_kernels}: per workload compared with its previous run, the kernels (or kernel categories) whose
     * mean time per (rank, step) moved most, position 1 first; the step time's split by part is in the workload's
     * {@code regressions} row ({@code rule = 'step_verdict'}).
     */
    public static final StructType REGRESSION_KERNELS = new StructType()
            .add("run_id", StringType, false)
            .add("workload", StringType, false)
            .add("previous_run_id", StringType, false)
            .add("position", IntegerType, false)
            .add("kernel", StringType, false)
            .add("previous_ms", DoubleType, false)
            .add("ms", DoubleType, false)
            .add("delta_ms", DoubleType, false);

    /**
     * workload_changes: why a run read a workload again, one row per change it found against the trace_files ledger
     * ({@code change}: new workload, new file, changed file, removed file, retry after error, full, no metrics yet,
     * damaged in the warehouse;
     * {@code file}: the file's name in its workload folder, null for a change of the whole workload).
     */
    public static final StructType WORKLOAD_CHANGES = new StructType()
            .add("run_id", StringType, false)
            .add("workload", StringType, false)
            .add("change", StringType, false)
            .add("file", StringType, true);

    /** metrics_history: every run's metric rows, tagged with the run. */
    public static final StructType METRICS_HISTORY = MetricSchema.SCHEMA.add("run_id", StringType, false);
}
