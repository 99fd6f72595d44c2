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
            .add("run_id", StringType, false, "the refresh run that wrote the row (runs.run_id)")
            .add("started_at", TimestampType, false, "when the run started")
            .add("finished_at", TimestampType, false, "when the run finished")
            .add(
                    "status",
                    StringType,
                    false,
                    "how the run ended: ok, ok_with_errors (see errors) or partial (a workload failed)")
            .add("archive", StringType, true, "the archive the run read")
            .add(
                    "full",
                    DataTypes.BooleanType,
                    false,
                    "whether the run read every workload again, not only the changed ones")
            .add("workloads_refreshed", LongType, false, "workloads the run read and committed")
            .add("workloads_unchanged", LongType, false, "workloads the run found unchanged and kept")
            .add("workloads_failed", LongType, false, "workloads that failed (their previous tables kept)")
            .add("workloads_removed", LongType, false, "workloads whose folder was gone, their rows removed")
            .add("files_read", LongType, false, "input files the run read")
            .add("files_unchanged", LongType, false, "input files found unchanged")
            .add("bytes_read", LongType, false, "bytes of input read")
            .add("events", LongType, false, "events read")
            .add("errors", DataTypes.createArrayType(StringType, false), true, "what went wrong, one line per problem")
            // table -> the Iceberg snapshot id this run left it at (every table the run committed to, and the others'
            // current one), so `sql --as-of RUN` and any Iceberg reader see the warehouse exactly as the run left it
            .add(
                    "table_snapshots",
                    DataTypes.createMapType(StringType, LongType, false),
                    true,
                    "table -> the Iceberg snapshot id this run left it at, so sql --as-of RUN sees the warehouse as the run left it");

    public static final StructType REGRESSIONS = new StructType()
            .add("run_id", StringType, false, "the refresh run that wrote the row (runs.run_id)")
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "metric",
                    StringType,
                    false,
                    "the metric that moved (rule metric_regression), or the step-time verdict's metric")
            .add("figure", StringType, true, "the metric's figure")
            .add("key", StringType, true, "the metric row's key")
            .add("previous_run_id", StringType, false, "the run the workload is compared with: its previous run")
            .add("previous_value", DoubleType, true, "the value in the previous run")
            .add("value", DoubleType, true, "the value in this run")
            .add("relative_change", DoubleType, true, "(value − previous_value) ÷ |previous_value|")
            .add(
                    "threshold",
                    DoubleType,
                    false,
                    "the fraction a metric must move by to be reported (spark.tracelake.regressionThreshold)")
            // the run comparison (METRICS.md §4 "Run comparison verdicts"); null in rows written before it existed
            .add(
                    "rule",
                    StringType,
                    true,
                    "which comparison wrote the row: a moved metric, or step_verdict (METRICS.md §4 Run comparison verdicts); null in rows written before it existed")
            .add(
                    "verdict",
                    StringType,
                    true,
                    "the step-time verdict (METRICS.md §4): regression_likely, improvement_likely, neutral or inconclusive")
            .add(
                    "noise",
                    DoubleType,
                    true,
                    "the noise floor the change is judged against: max(0.02, spread(A), spread(B))")
            .add("direction", StringType, true, "which way is better for the figure (lower for the step time)")
            .add(
                    "step_change",
                    DoubleType,
                    true,
                    "Δ = med(B) ÷ med(A) − 1 of the step time, B this run and A the previous")
            .add("delta_ms", DoubleType, true, "the change of the step time (or of a kernel's time per rank-step), ms")
            .add("compute_delta_ms", DoubleType, true, "the change of the step's compute time, ms")
            .add("exposed_comm_delta_ms", DoubleType, true, "the change of the step's exposed communication, ms")
            .add("exposed_copy_delta_ms", DoubleType, true, "the change of the step's exposed copies, ms")
            // the idle time's change as a whole: the sum of the three idle parts' at the end (added later, so last)
            .add(
                    "idle_delta_ms",
                    DoubleType,
                    true,
                    "the change of the step's idle time, ms: the sum of the three idle parts")
            .add("other_delta_ms", DoubleType, true, "the change of what the parts above leave of the step time, ms")
            .add("top_kernel", StringType, true, "the kernel whose time moved most")
            .add("top_kernel_delta_ms", DoubleType, true, "that kernel's change, ms")
            // idle_delta_ms split as idle_breakdown splits the gaps: nothing queued yet, queued but waiting, and what
            // no launch record explains; null in rows written before the split existed
            .add(
                    "idle_host_wait_delta_ms",
                    DoubleType,
                    true,
                    "the change of idle time with nothing queued yet (host wait), ms")
            .add(
                    "idle_device_wait_delta_ms",
                    DoubleType,
                    true,
                    "the change of idle time with work queued but waiting (device wait), ms")
            .add("idle_other_delta_ms", DoubleType, true, "the change of idle time no launch record explains, ms");

    /**
     * {@code regression_kernels}: per workload compared with its previous run, the kernels (or kernel categories) whose
     * mean time per (rank, step) moved most, position 1 first; the step time's split by part is in the workload's
     * {@code regressions} row ({@code rule = 'step_verdict'}).
     */
    public static final StructType REGRESSION_KERNELS = new StructType()
            .add("run_id", StringType, false, "the refresh run that wrote the row (runs.run_id)")
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("previous_run_id", StringType, false, "the run the workload is compared with: its previous run")
            .add("position", IntegerType, false, "the kernel's place, 1 the one that moved most")
            .add("kernel", StringType, false, "the kernel (or kernel category)")
            .add("previous_ms", DoubleType, false, "its mean time per (rank, step) in the previous run, ms")
            .add("ms", DoubleType, false, "its mean time per (rank, step) in this run, ms")
            .add(
                    "delta_ms",
                    DoubleType,
                    false,
                    "the change of the step time (or of a kernel's time per rank-step), ms");

    /**
     * workload_changes: why a run read a workload again, one row per change it found against the trace_files ledger
     * ({@code change}: new workload, new file, changed file, removed file, retry after error, full, no metrics yet,
     * damaged in the warehouse;
     * {@code file}: the file's name in its workload folder, null for a change of the whole workload).
     */
    public static final StructType WORKLOAD_CHANGES = new StructType()
            .add("run_id", StringType, false, "the refresh run that wrote the row (runs.run_id)")
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "change",
                    StringType,
                    false,
                    "why the run read the workload: new workload, new file, changed file, removed file, retry after error, full, no metrics yet, damaged in the warehouse")
            .add(
                    "file",
                    StringType,
                    true,
                    "the file's name in its workload folder; null for a change of the whole workload");

    /** metrics_history: every run's metric rows, tagged with the run. */
    public static final StructType METRICS_HISTORY =
            MetricSchema.SCHEMA.add("run_id", StringType, false, "the refresh run that wrote the row (runs.run_id)");
}
