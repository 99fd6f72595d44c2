package org.tracelake.schemas;

import java.util.List;

/**
 * Names of the warehouse tables (DESIGN.md "Output: the warehouse"). Each is a directory of Parquet under the
 * warehouse root; the per-workload ones are Hive-partitioned by {@code workload=<name>}.
 */
public final class Tables {
    private Tables() {}

    public static final String WORKLOADS = "workloads";
    public static final String TRACE_FILES = "trace_files";
    public static final String EVENTS = "events";
    public static final String COLLECTIVES = "collectives";
    public static final String COLLECTIVE_MEMBERS = "collective_members";
    public static final String MEMORY_EVENTS = "memory_events";
    public static final String MEMORY_SEGMENTS = "memory_segments";
    public static final String ITERATION_TELEMETRY = "iteration_telemetry";
    public static final String ET_NODES = "et_nodes";
    public static final String FLIGHT_RECORDER = "flight_recorder";
    public static final String PROCESS_GROUP_STATUS = "process_group_status";
    public static final String COLLECTIVE_HANGS = "collective_hangs";
    public static final String ALL_TO_ALL_PAIRS = "all_to_all_pairs";
    public static final String KERNEL_TOTALS = "kernel_totals";
    public static final String FINDINGS = "findings";
    public static final String METRICS = "metrics";
    public static final String METRICS_HISTORY = "metrics_history";
    public static final String REGRESSIONS = "regressions";
    public static final String REGRESSION_KERNELS = "regression_kernels";
    public static final String RUNS = "runs";
    public static final String WORKLOAD_CHANGES = "workload_changes";
    public static final String EXPORTS = "exports";

    /** The column every per-workload table is partitioned by. */
    public static final String PARTITION_COLUMN = "workload";

    /** Tables whose directory holds one {@code workload=<w>} partition per workload ({@link TableCatalog}). */
    public static final List<String> PER_WORKLOAD = TableCatalog.names(true);

    /** Every table the {@code sql} job registers ({@link TableCatalog}). */
    public static final List<String> ALL = TableCatalog.names(false);
}
