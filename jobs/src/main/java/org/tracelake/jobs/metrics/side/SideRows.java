package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.Tables;

/**
 * One workload's rows of the side tables (CUDA memory snapshots, AORTA telemetry, NCCL Flight Recorder dumps), handed
 * over in any order by the workload task of the metric engine, and the side families computed over them in plain
 * Java: each family puts its rows in the order its rules need (the order the Spark sorts of its earlier plan gave).
 * A family whose tables the workload has no row of gives nothing; most workloads have none.
 */
public final class SideRows {
    /** Every side table a family reads, with the columns it reads. */
    public static final List<SideTable> TABLES = List.of(
            MemoryMetrics.EVENTS,
            MemoryMetrics.SEGMENTS,
            TelemetryMetrics.ITERATIONS,
            CollectiveHangs.ENTRIES,
            CollectiveHangs.GROUPS);

    private final MemoryMetrics.Devices memory = new MemoryMetrics.Devices();
    private final TelemetryMetrics.Lines telemetry = new TelemetryMetrics.Lines();
    private final CollectiveHangs.Dumps dumps = new CollectiveHangs.Dumps();

    /**
     * One row of a table of {@link #TABLES}, in that table's columns: read at once (the caller may reuse the row).
     */
    public void add(String table, InternalRow row) {
        switch (table) {
            case Tables.MEMORY_EVENTS -> memory.event(row);
            case Tables.MEMORY_SEGMENTS -> memory.segment(row);
            case Tables.ITERATION_TELEMETRY -> telemetry.add(row);
            case Tables.FLIGHT_RECORDER -> dumps.entry(row);
            case Tables.PROCESS_GROUP_STATUS -> dumps.group(row);
            default -> throw new IllegalArgumentException("no side family reads table " + table);
        }
    }

    /**
     * What the side families give the workload: their metric rows, and its {@code collective_hangs} rows (empty
     * without dumps, or when nothing is stuck).
     */
    public record Result(List<MetricRow> metricRows, List<CollectiveHang> hangs) {}

    /** The families' results: the hangs are found once, for the table and for the hang figures. */
    public Result compute(String workload) {
        List<MetricRow> rows = new ArrayList<>(memory.rows(workload));
        rows.addAll(telemetry.rows(workload));
        List<CollectiveHang> hangs = List.of();
        if (dumps.any()) {
            hangs = dumps.hangs(workload);
            rows.addAll(HangMetrics.workload(workload, hangs));
        }
        return new Result(rows, hangs);
    }
}
