package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;

/**
 * One workload's rows of the side tables (CUDA memory snapshots, AORTA telemetry, NCCL Flight Recorder dumps), handed
 * over in any order by the workload task of the metric engine, and the side families computed over them in plain
 * Java: each family puts its rows in the order its rules need (the order the Spark sorts of its earlier plan gave).
 * A family whose tables the workload has no row of gives nothing; most workloads have none.
 */
public final class SideRows {
    /** Every side family, each listed once, in the order of their rows. */
    static final List<SideFamily.Kind> FAMILIES = List.of(
            new SideFamily.Kind(
                    "memory", List.of(MemoryMetrics.EVENTS, MemoryMetrics.SEGMENTS), MemoryMetrics.Devices::new),
            new SideFamily.Kind("telemetry", List.of(TelemetryMetrics.ITERATIONS), TelemetryMetrics.Lines::new),
            new SideFamily.Kind(
                    "collective_hangs",
                    List.of(CollectiveHangs.ENTRIES, CollectiveHangs.GROUPS),
                    CollectiveHangs.Dumps::new));

    /** Every side table a family reads, with the columns it reads. */
    public static final List<SideTable> TABLES =
            FAMILIES.stream().flatMap(k -> k.tables().stream()).toList();

    private final List<SideFamily> families = new ArrayList<>();
    private final Map<String, SideFamily> byTable = new HashMap<>();
    private final Map<String, SideTable> tables = new HashMap<>();

    public SideRows() {
        for (SideFamily.Kind k : FAMILIES) {
            SideFamily f = k.start().get();
            families.add(f);
            for (SideTable t : k.tables()) {
                byTable.put(t.name(), f);
                tables.put(t.name(), t);
            }
        }
    }

    /**
     * One row of a table of {@link #TABLES}, in that table's columns: read at once (the caller may reuse the row).
     */
    public void add(String table, InternalRow row) {
        SideFamily f = byTable.get(table);
        if (f == null) throw new IllegalArgumentException("no side family reads table " + table);
        f.add(tables.get(table), row);
    }

    /**
     * What the side families give the workload: their metric rows, and its {@code collective_hangs} rows (empty
     * without dumps, or when nothing is stuck).
     */
    public record Result(List<MetricRow> metricRows, List<CollectiveHang> hangs) {
        static final Result NONE = new Result(List.of(), List.of());
    }

    /** The families' results, in the order of {@link #FAMILIES}. */
    public Result compute(String workload) {
        List<MetricRow> rows = new ArrayList<>();
        List<CollectiveHang> hangs = new ArrayList<>();
        for (SideFamily f : families) {
            Result r = f.compute(workload);
            rows.addAll(r.metricRows());
            hangs.addAll(r.hangs());
        }
        return new Result(rows, hangs);
    }
}
