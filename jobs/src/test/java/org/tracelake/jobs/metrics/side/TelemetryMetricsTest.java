package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.side.TelemetryMetrics.Line;

/**
 * The telemetry family on the "ref" workload of TelemetryIngestTest's javadoc:
 * <pre>
 * rank 0, step s=0..4: compute 10+2s, overlap compute_allreduce = compute_comm = 2+s, streams allreduce 4, aux 1
 * rank 1, step s=0..4: compute 11+2s, overlap compute_reducescatter = compute_comm = 1+s, stream reducescatter 3
 * pooled over the 10 lines: mean compute = (70+75)/10 = 14.5; mean overlap = (20+15)/10 = 3.5;
 * overlap_ratio = 3.5/14.5 = 0.2413793103448276; mean allreduce overlap 20/10 = 2.0, reducescatter 15/10 = 1.5;
 * per rank: 4/14 = 0.2857142857142857 (mean overlap 20/5, mean compute 70/5) and 3/15 = 0.2;
 * streams: compute 14.5, allreduce 20/10 = 2.0, reducescatter 15/10 = 1.5, aux 5/10 = 0.5.
 * </pre>
 */
class TelemetryMetricsTest {
    static List<Line> ref() {
        List<Line> lines = new ArrayList<>();
        for (int s = 0; s < 5; s++) {
            double compute = 10 + 2 * s;
            lines.add(new Line(
                    0, 2.0 + s, compute, 2.0 + s, null, Map.of("compute", compute, "allreduce", 4.0, "aux", 1.0)));
        }
        for (int s = 0; s < 5; s++) {
            double compute = 11 + 2 * s;
            lines.add(new Line(1, 1.0 + s, compute, null, 1.0 + s, Map.of("compute", compute, "reducescatter", 3.0)));
        }
        return lines;
    }

    static Double value(List<MetricRow> rows, String metric, String figure, Integer rank, String key) {
        List<MetricRow> hits = rows.stream()
                .filter(r -> r.metric().equals(metric)
                        && Objects.equals(r.figure(), figure)
                        && Objects.equals(r.rank(), rank)
                        && Objects.equals(r.key(), key))
                .toList();
        assertEquals(1, hits.size(), () -> metric + " " + figure + " " + rank + " " + key + ": " + hits);
        assertEquals(rank == null ? "workload" : "rank", hits.get(0).scope());
        assertEquals("ok", hits.get(0).status());
        return hits.get(0).value();
    }

    @Test
    void theReferenceWorkloadOfTheIngestTest() {
        List<MetricRow> rows = TelemetryMetrics.workload("ref", ref());
        assertEquals(6 * 3 + 4, rows.size());
        assertEquals(0.2413793103448276, value(rows, "telemetry_overlap", "overlap_ratio", null, null));
        assertEquals(3.5, value(rows, "telemetry_overlap", "mean_overlap_ms", null, null));
        assertEquals(14.5, value(rows, "telemetry_overlap", "mean_compute_ms", null, null));
        assertEquals(2.0, value(rows, "telemetry_overlap", "mean_allreduce_overlap_ms", null, null));
        assertEquals(1.5, value(rows, "telemetry_overlap", "mean_reducescatter_overlap_ms", null, null));
        assertEquals(10.0, value(rows, "telemetry_overlap", "iterations", null, null));
        assertEquals(0.2857142857142857, value(rows, "telemetry_overlap", "overlap_ratio", 0, null));
        assertEquals(0.2, value(rows, "telemetry_overlap", "overlap_ratio", 1, null));
        assertEquals(5.0, value(rows, "telemetry_overlap", "iterations", 1, null));
        assertEquals(0.0, value(rows, "telemetry_overlap", "mean_reducescatter_overlap_ms", 0, null));
        assertEquals(14.5, value(rows, "telemetry_stream_ms", null, null, "compute"));
        assertEquals(2.0, value(rows, "telemetry_stream_ms", null, null, "allreduce"));
        assertEquals(1.5, value(rows, "telemetry_stream_ms", null, null, "reducescatter"));
        assertEquals(0.5, value(rows, "telemetry_stream_ms", null, null, "aux"));
        MetricRow ratio = rows.stream()
                .filter(r -> "overlap_ratio".equals(r.figure()) && r.rank() == null)
                .findFirst()
                .orElseThrow();
        assertEquals(
                new MetricRow(
                        "ref",
                        "telemetry_overlap",
                        "overlap_ratio",
                        0.2413793103448276,
                        "ratio",
                        "workload",
                        null,
                        null,
                        null,
                        "ok",
                        null),
                ratio);
    }

    @Test
    void linesWithoutProfileCountAsZeroAndAStreamOfOneLineIsAveragedOverAll() {
        // two lines: one without any profile (every key absent = 0), one with compute 0 and an extra stream "copy" 3:
        // mean compute 0, so overlap_ratio is 0 (not a division by zero); copy = 3 / 2 = 1.5, the four streams 0.
        List<MetricRow> rows = TelemetryMetrics.workload(
                "w",
                List.of(
                        new Line(0, null, null, null, null, null),
                        new Line(0, 0.0, 0.0, null, null, Map.of("compute", 0.0, "copy", 3.0))));
        assertEquals(0.0, value(rows, "telemetry_overlap", "overlap_ratio", null, null));
        assertEquals(2.0, value(rows, "telemetry_overlap", "iterations", null, null));
        assertEquals(1.5, value(rows, "telemetry_stream_ms", null, null, "copy"));
        for (String s : List.of("compute", "allreduce", "reducescatter", "aux")) {
            assertEquals(0.0, value(rows, "telemetry_stream_ms", null, null, s), s);
        }
        assertEquals(6 * 2 + 5, rows.size());
    }

    @Test
    void noLinesNoRows() {
        assertTrue(TelemetryMetrics.workload("w", List.of()).isEmpty());
    }
}
