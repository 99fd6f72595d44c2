package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TelemetrySchema;

/**
 * The AORTA telemetry family (FORMATS.md §4) from {@code iteration_telemetry}, with the semantics of AORTA's
 * analysis/overlap_report.py: every iteration line of every rank is one sample, pooled over ranks and steps, no
 * warm-up skip; a key the line lacks counts 0 (AORTA writes only non-zero overlaps and only active streams).
 * <ul>
 *   <li>{@code telemetry_overlap}: overlap_ratio (headline) = mean overlap ms ÷ mean compute ms (0 when mean compute
 *       is 0), mean_overlap_ms, mean_compute_ms, mean_allreduce_overlap_ms, mean_reducescatter_overlap_ms, iterations
 *       (the sample count); per workload, and per rank (scope 'rank') the same over that rank's lines;</li>
 *   <li>{@code telemetry_stream_ms}: per stream (key) the mean busy ms per iteration, absent = 0, for every stream any
 *       line names and the four AORTA always has (compute, allreduce, reducescatter, aux).</li>
 * </ul>
 */
public final class TelemetryMetrics {
    private TelemetryMetrics() {}

    static final Metric TELEMETRY_OVERLAP = Metric.of("telemetry_overlap");
    static final Metric TELEMETRY_STREAM_MS = Metric.of("telemetry_stream_ms");

    /**
     * One iteration line: overlap = overlap_ms.compute_comm, compute = per_stream_ms.compute, the allreduce /
     * reducescatter overlaps, and the per-stream busy ms; a null is a key the line lacks.
     */
    public record Line(
            Integer rank,
            Double overlapMs,
            Double computeMs,
            Double allreduceOverlapMs,
            Double reducescatterOverlapMs,
            Map<String, Double> perStreamMs) {}

    /** The streams every workload with telemetry reports, named or not. */
    private static final List<String> ALWAYS = List.of("compute", "allreduce", "reducescatter", "aux");

    /** Means over a set of lines, summed in the order the lines come (Spark's avg: Σ of doubles ÷ count). */
    private static final Figure OVERLAP_RATIO = TELEMETRY_OVERLAP.figure("overlap_ratio");

    private static final Figure MEAN_OVERLAP_MS = TELEMETRY_OVERLAP.figure("mean_overlap_ms");
    private static final Figure MEAN_COMPUTE_MS = TELEMETRY_OVERLAP.figure("mean_compute_ms");
    private static final Figure MEAN_ALLREDUCE_OVERLAP_MS = TELEMETRY_OVERLAP.figure("mean_allreduce_overlap_ms");
    private static final Figure MEAN_REDUCESCATTER_OVERLAP_MS =
            TELEMETRY_OVERLAP.figure("mean_reducescatter_overlap_ms");
    private static final Figure ITERATION_COUNT = TELEMETRY_OVERLAP.figure("iterations");

    private static final class Means {
        long n;
        double overlap;
        double compute;
        double allreduce;
        double reducescatter;

        void add(Line l) {
            n++;
            overlap += orZero(l.overlapMs());
            compute += orZero(l.computeMs());
            allreduce += orZero(l.allreduceOverlapMs());
            reducescatter += orZero(l.reducescatterOverlapMs());
        }

        List<MetricRow> rows(String workload, boolean wholeWorkload, Integer rank) {
            double meanOverlap = overlap / n;
            double meanCompute = compute / n;
            double ratio = meanCompute == 0 ? 0.0 : meanOverlap / meanCompute;
            Where where = wholeWorkload ? Where.workload() : Where.rank(rank);
            return List.of(
                    OVERLAP_RATIO.at(where).value(ratio).in(workload),
                    MEAN_OVERLAP_MS.at(where).value(meanOverlap).in(workload),
                    MEAN_COMPUTE_MS.at(where).value(meanCompute).in(workload),
                    MEAN_ALLREDUCE_OVERLAP_MS.at(where).value(allreduce / n).in(workload),
                    MEAN_REDUCESCATTER_OVERLAP_MS
                            .at(where)
                            .value(reducescatter / n)
                            .in(workload),
                    ITERATION_COUNT.at(where).value((double) n).in(workload));
        }
    }

    /**
     * Every row of one workload from its iteration lines, every sum taken line by line in the order the lines are given
     * (Spark's avg: Σ of doubles ÷ count; {@link Lines} gives them in (rank, file, line) order).
     */
    public static List<MetricRow> workload(String workload, Iterator<Line> lines) {
        Means all = new Means();
        TreeMap<Integer, Means> byRank = new TreeMap<>(SparkOrder.INT_NULLS_FIRST);
        Map<String, Double> streamSums = new HashMap<>();
        Set<String> streams = new LinkedHashSet<>(ALWAYS);
        while (lines.hasNext()) {
            Line l = lines.next();
            all.add(l);
            byRank.computeIfAbsent(l.rank(), r -> new Means()).add(l);
            if (l.perStreamMs() != null) {
                for (Map.Entry<String, Double> s : l.perStreamMs().entrySet()) {
                    streams.add(s.getKey());
                    // a line without the stream adds 0 to its sum, which leaves the sum as it is
                    streamSums.merge(s.getKey(), 0.0 + orZero(s.getValue()), Double::sum);
                }
            }
        }
        List<MetricRow> out = new ArrayList<>();
        if (all.n == 0) return out;
        out.addAll(all.rows(workload, true, null));
        byRank.forEach((rank, means) -> out.addAll(means.rows(workload, false, rank)));
        for (String stream : streams) {
            out.add(TELEMETRY_STREAM_MS
                    .workload()
                    .keyed(stream)
                    .value(streamSums.getOrDefault(stream, 0.0) / (double) all.n)
                    .in(workload));
        }
        return out;
    }

    public static List<MetricRow> workload(String workload, List<Line> lines) {
        return workload(workload, lines.iterator());
    }

    private static double orZero(Double x) {
        return x == null ? 0.0 : x;
    }

    /**
     * The {@code iteration_telemetry} columns the family reads, in the order {@link Lines#add} reads them: the place
     * of a line (rank, file, line, ordinal), then its figures; iteration rows only (range and marker rows are no
     * samples).
     */
    public static final SideTable ITERATIONS = new SideTable(
            Tables.ITERATION_TELEMETRY,
            List.of(
                    "rank",
                    "source_file",
                    "line",
                    "ordinal",
                    "overlap_compute_comm_ms",
                    "compute_ms",
                    "overlap_compute_allreduce_ms",
                    "overlap_compute_reducescatter_ms",
                    "per_stream_ms"),
            TelemetrySchema.KIND_ITERATION);

    /**
     * One workload's iteration lines, in any order; {@link #rows} puts them in (rank nulls first, file, line, ordinal)
     * order, as Spark's sort by those columns did (strings by code point), so that every mean sums its lines in that
     * one order, and gives the family's rows.
     */
    static final class Lines implements SideFamily {
        /** A line and where it stands: its rank, file, line number and ordinal. */
        private record Placed(Integer rank, String file, long lineNumber, long ordinal, Line line) {}

        private static final Comparator<Placed> ORDER = Comparator.comparing(Placed::rank, SparkOrder.INT_NULLS_FIRST)
                .thenComparing(Placed::file, SparkOrder.STRING_NULLS_FIRST)
                .thenComparingLong(Placed::lineNumber)
                .thenComparingLong(Placed::ordinal);

        private final List<Placed> lines = new ArrayList<>();

        /** A row of {@link #ITERATIONS}' columns. */
        @Override
        public void add(SideTable table, InternalRow r) {
            Integer rank = RowCells.intOrNull(r, 0);
            lines.add(new Placed(
                    rank,
                    RowCells.string(r, 1),
                    r.getLong(2),
                    r.getLong(3),
                    new Line(
                            rank,
                            RowCells.doubleOrNull(r, 4),
                            RowCells.doubleOrNull(r, 5),
                            RowCells.doubleOrNull(r, 6),
                            RowCells.doubleOrNull(r, 7),
                            RowCells.stringToDouble(r, 8))));
        }

        /** The family's rows of the workload: none when it has no iteration line. */
        @Override
        public SideRows.Result compute(String workload) {
            lines.sort(ORDER);
            return new SideRows.Result(
                    workload(workload, lines.stream().map(Placed::line).iterator()), List.of());
        }
    }
}
