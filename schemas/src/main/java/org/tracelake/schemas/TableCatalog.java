package org.tracelake.schemas;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.StructType;

/**
 * Every warehouse table once: its name, schema, whether it is partitioned by workload, which stage writes it, and one
 * line saying what it holds. Ingest, metrics, refresh and the {@code sql} job's help read it from here.
 */
public final class TableCatalog {
    private TableCatalog() {}

    /** The stage of a refresh that writes a table. */
    public enum Stage {
        /** Reading the archive: cards, the ledger, events and the side tables. */
        INGEST,
        /** Computing from the ingested tables. */
        METRICS,
        /** Recording the run across runs. */
        HISTORY
    }

    /** One table. */
    public record Table(String name, StructType schema, boolean perWorkload, Stage writtenBy, String doc) {}

    public static final List<Table> TABLES = List.of(
            new Table(
                    Tables.WORKLOADS,
                    WorkloadSchema.SCHEMA,
                    true,
                    Stage.INGEST,
                    "one row per workload: the card, flattened"),
            new Table(
                    Tables.TRACE_FILES,
                    TraceFileSchema.SCHEMA,
                    true,
                    Stage.INGEST,
                    "one row per input file: format, rank, status (ok|skipped|error), error"),
            new Table(
                    Tables.EVENTS,
                    EventSchema.SCHEMA,
                    true,
                    Stage.INGEST,
                    "every trace event, flattened (activity class, kernel category, collective, bytes)"),
            new Table(
                    Tables.MEMORY_EVENTS,
                    MemorySchema.EVENTS,
                    true,
                    Stage.INGEST,
                    "memory snapshot replay: action, address, size, stream, time, device"),
            new Table(Tables.MEMORY_SEGMENTS, MemorySchema.SEGMENTS, true, Stage.INGEST, "memory snapshot segments"),
            new Table(
                    Tables.ITERATION_TELEMETRY,
                    TelemetrySchema.SCHEMA,
                    true,
                    Stage.INGEST,
                    "per-rank per-step telemetry from JSONL metric logs"),
            new Table(Tables.ET_NODES, EtNodeSchema.SCHEMA, true, Stage.INGEST, "execution trace nodes"),
            new Table(
                    Tables.FLIGHT_RECORDER,
                    FlightRecorderSchema.ENTRIES,
                    true,
                    Stage.INGEST,
                    "NCCL Flight Recorder entries per rank: group, seq ids, op, sizes, state, times"),
            new Table(
                    Tables.PROCESS_GROUP_STATUS,
                    FlightRecorderSchema.GROUPS,
                    true,
                    Stage.INGEST,
                    "per rank and process group: ranks, last enqueued/started/completed collective"),
            new Table(
                    Tables.COLLECTIVES,
                    CollectiveSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "one row per collective instance matched across ranks: lag, last rank, busbw, why the last rank was late"),
            new Table(
                    Tables.COLLECTIVE_MEMBERS,
                    CollectiveMemberSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "each rank's activity in each collective instance: rank, match key, k, start, end, size, lead-in window, cause"),
            new Table(
                    Tables.COLLECTIVE_HANGS,
                    FlightRecorderSchema.HANGS,
                    true,
                    Stage.METRICS,
                    "stuck collectives from Flight Recorder dumps: group, seq id, op, missing ranks, is_root"),
            new Table(
                    Tables.ALL_TO_ALL_PAIRS,
                    AllToAllPairSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "bytes each rank sent each rank in an all_to_all whose split sizes are known"),
            new Table(
                    Tables.KERNEL_TOTALS,
                    KernelTotalsSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "per rank, GPU activities by kernel name, class and category (and collective kind and size bucket): calls, time, bytes"),
            new Table(
                    Tables.FINDINGS,
                    FindingSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "what a person should act on, per workload: rule, severity, rank, value, threshold, cause, evidence, message"),
            new Table(
                    Tables.METRICS,
                    MetricSchema.SCHEMA,
                    true,
                    Stage.METRICS,
                    "the long metrics table (docs/METRICS.md §5): metric, figure, scope, rank, step, key, value"),
            new Table(
                    Tables.METRICS_HISTORY,
                    RunSchema.METRICS_HISTORY,
                    false,
                    Stage.HISTORY,
                    "every refresh's metric rows, with its run id"),
            new Table(
                    Tables.REGRESSIONS,
                    RunSchema.REGRESSIONS,
                    false,
                    Stage.HISTORY,
                    "workload-scope metrics that moved since the workload's previous run, and each workload's step-time verdict"),
            new Table(
                    Tables.REGRESSION_KERNELS,
                    RunSchema.REGRESSION_KERNELS,
                    false,
                    Stage.HISTORY,
                    "per workload compared with its previous run, the 5 kernels whose time per rank-step moved most"),
            new Table(
                    Tables.RUNS,
                    RunSchema.RUNS,
                    false,
                    Stage.HISTORY,
                    "one row per refresh: id, start, end, status, counts"),
            new Table(
                    Tables.WORKLOAD_CHANGES,
                    RunSchema.WORKLOAD_CHANGES,
                    false,
                    Stage.HISTORY,
                    "per run, the changes to a workload's files and card that made the run read it again"));

    /** The table of that name, or null. */
    public static Table of(String name) {
        for (Table t : TABLES) if (t.name().equals(name)) return t;
        return null;
    }

    /** Names of the tables of a stage that are partitioned by workload, in catalog order. */
    public static List<String> perWorkload(Stage stage) {
        List<String> out = new ArrayList<>();
        for (Table t : TABLES) if (t.perWorkload() && t.writtenBy() == stage) out.add(t.name());
        return out;
    }

    static List<String> names(boolean onlyPerWorkload) {
        List<String> out = new ArrayList<>();
        for (Table t : TABLES) if (!onlyPerWorkload || t.perWorkload()) out.add(t.name());
        return out;
    }
}
