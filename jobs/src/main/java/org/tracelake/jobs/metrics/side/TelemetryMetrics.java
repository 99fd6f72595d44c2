package org.tracelake.jobs.metrics.side;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.MetricSchema;
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
            String scope = wholeWorkload ? "workload" : "rank";
            Integer r = wholeWorkload ? null : rank;
            return List.of(
                    MetricRow.of(workload, "telemetry_overlap", "overlap_ratio", ratio, "ratio", scope, r, null, null),
                    MetricRow.of(
                            workload, "telemetry_overlap", "mean_overlap_ms", meanOverlap, "ms", scope, r, null, null),
                    MetricRow.of(
                            workload, "telemetry_overlap", "mean_compute_ms", meanCompute, "ms", scope, r, null, null),
                    MetricRow.of(
                            workload,
                            "telemetry_overlap",
                            "mean_allreduce_overlap_ms",
                            allreduce / n,
                            "ms",
                            scope,
                            r,
                            null,
                            null),
                    MetricRow.of(
                            workload,
                            "telemetry_overlap",
                            "mean_reducescatter_overlap_ms",
                            reducescatter / n,
                            "ms",
                            scope,
                            r,
                            null,
                            null),
                    MetricRow.of(
                            workload, "telemetry_overlap", "iterations", (double) n, "count", scope, r, null, null));
        }
    }

    /**
     * Every row of one workload from its iteration lines, every sum taken line by line in the order the lines are given
     * (Spark's avg: Σ of doubles ÷ count; the Spark entry point gives them in (rank, file, line) order).
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
            out.add(MetricRow.of(
                    workload,
                    "telemetry_stream_ms",
                    null,
                    streamSums.getOrDefault(stream, 0.0) / (double) all.n,
                    "ms",
                    "workload",
                    null,
                    null,
                    stream));
        }
        return out;
    }

    public static List<MetricRow> workload(String workload, List<Line> lines) {
        return workload(workload, lines.iterator());
    }

    private static double orZero(Double x) {
        return x == null ? 0.0 : x;
    }

    private static final String[] COLUMNS = {
        "workload",
        "rank",
        "overlap_compute_comm_ms",
        "compute_ms",
        "overlap_compute_allreduce_ms",
        "overlap_compute_reducescatter_ms",
        "per_stream_ms",
        "source_file",
        "line",
        "ordinal"
    };

    /**
     * The family's rows (of {@link MetricSchema#QUERY_SCHEMA}) for every workload of the given
     * {@code iteration_telemetry} rows: one shuffle, each workload's iteration lines in one sorted group (rank, file,
     * line), so that every mean sums its lines in that one order.
     */
    public static Dataset<Row> rows(Dataset<Row> iterationTelemetry) {
        Dataset<Row> lines = SideInputs.project(
                iterationTelemetry.where(col("row_kind").equalTo(TelemetrySchema.KIND_ITERATION)), COLUMNS);
        return lines.groupByKey(SideInputs.WORKLOAD, Encoders.STRING())
                .flatMapSortedGroups(
                        new Column[] {
                            col("rank").asc_nulls_first(),
                            col("source_file").asc(),
                            col("line").asc(),
                            col("ordinal").asc()
                        },
                        new LinesOfWorkload(),
                        Encoders.row(MetricSchema.QUERY_SCHEMA));
    }

    private static final class LinesOfWorkload implements FlatMapGroupsFunction<String, Row, Row> {
        @Override
        public Iterator<Row> call(String workload, Iterator<Row> rows) {
            Iterator<Line> lines = new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public Line next() {
                    Row r = rows.next();
                    return new Line(
                            r.isNullAt(1) ? null : r.getInt(1),
                            nullableDouble(r, 2),
                            nullableDouble(r, 3),
                            nullableDouble(r, 4),
                            nullableDouble(r, 5),
                            r.isNullAt(6) ? null : r.getJavaMap(6));
                }
            };
            return workload(workload, lines).stream().map(MetricRow::toRow).iterator();
        }
    }

    private static Double nullableDouble(Row r, int i) {
        return r.isNullAt(i) ? null : r.getDouble(i);
    }
}
