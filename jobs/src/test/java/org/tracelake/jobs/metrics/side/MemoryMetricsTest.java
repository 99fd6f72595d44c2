package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.side.DeviceReplay.Event;
import org.tracelake.jobs.metrics.side.DeviceReplay.SegmentRow;

/**
 * The memory replay on devices small enough to replay by hand (every number below is worked out in the comments).
 *
 * <pre>
 * cuda:0 of rank 0: one segment of 1000 bytes; blocks 100 (200 B, requested 180, active), 300 (300 B, inactive),
 *   600 (100 B, inactive), 700 (64 B, requested 50, active); trace:
 *     0 free_completed 500 120 B  t=1000   no alloc before it on 500: allocated before the trace, initially allocated
 *     1 alloc          100 180 B  t=1500   live at the end, so block 100 is not initially allocated
 *     2 alloc          200 400 B  t=2000
 *     3 free_completed 200 400 B  t=2500   matches ordinal 2
 *     4 oom                       t=3000
 *   initially allocated = 120 + 64 (block 700: no traced alloc) = 184
 *   allocated: 184 → 64 → 244 → 644 → 244 → 244: peak 644 (ordinal 2); reserved 1000 throughout
 *   memory_efficiency 644 / 1000 = 0.644; fragmentation 1 − 300 / 400 = 0.25; internal waste 20 + 14 = 34
 *   alloc_count 2, free_count 2, oom_count 1, largest alloc 400, alloc_rate 2 / (2000 µs / 1e6) = 1000 /s
 * cuda:1 of rank 0: one segment of 2048 bytes; blocks 1 (512 B, requested 500, active), 513 (1536 B, inactive); trace:
 *     0 segment_alloc 1024 B t=10;  1 alloc 1 500 B t=10;  2 segment_free 512 B t=10
 *   initially allocated 0 (block 1 has its live traced alloc); reserved starts at 2048 − 1024 + 512 = 1536
 *   reserved: 1536 → 2560 → 2560 → 2048: peak 2560; allocated: 0 → 0 → 500 → 500: peak 500 first at ordinal 1,
 *   when reserved is 2560: memory_efficiency 500 / 2560 = 0.1953125; fragmentation 1 − 1536 / 1536 = 0;
 *   internal waste 12; alloc_rate: the trace spans no time (null)
 * workload: peaks max(644, 500) = 644, max(1000, 2560) = 2560; largest alloc max(400, 500) = 500; counts summed
 *   (3 allocs, 2 frees, 1 oom), waste 34 + 12 = 46; means (0.644 + 0.1953125) / 2, (0.25 + 0) / 2 = 0.125, and
 *   alloc_rate_per_s the mean of the one device with a value, 1000.
 * </pre>
 */
class MemoryMetricsTest {
    static final List<Event> TRACE_0 = List.of(
            new Event(0, "free_completed", 500L, 120L, 1000L),
            new Event(1, "alloc", 100L, 180L, 1500L),
            new Event(2, "alloc", 200L, 400L, 2000L),
            new Event(3, "free_completed", 200L, 400L, 2500L),
            new Event(4, "oom", null, null, 3000L));
    static final List<SegmentRow> SEGMENTS_0 = List.of(
            new SegmentRow("segment", 100L, 1000L, 944L, null),
            new SegmentRow("block", 100L, 200L, 180L, "active_allocated"),
            new SegmentRow("block", 300L, 300L, 0L, "inactive"),
            new SegmentRow("block", 600L, 100L, 0L, "inactive"),
            new SegmentRow("block", 700L, 64L, 50L, "active_allocated"));
    static final List<Event> TRACE_1 = List.of(
            new Event(0, "segment_alloc", 1L, 1024L, 10L),
            new Event(1, "alloc", 1L, 500L, 10L),
            new Event(2, "segment_free", 4096L, 512L, 10L));
    static final List<SegmentRow> SEGMENTS_1 = List.of(
            new SegmentRow("segment", 1L, 2048L, 500L, null),
            new SegmentRow("block", 1L, 512L, 500L, "active_allocated"),
            new SegmentRow("block", 513L, 1536L, 0L, "inactive"));

    static final double RATE_0 = 2 / (2000 / 1e6);

    @Test
    void aDeviceReplayedByHand() {
        DeviceReplay.Result r =
                MemoryMetrics.Device.replayed(0, 0, TRACE_0, SEGMENTS_0).figures();
        assertEquals(new DeviceReplay.Result(644, 1000, 0.644, 2, 2, 1, 400L, RATE_0, 0.25, 34), r);
        assertEquals(1000.0, RATE_0, 1e-9);
    }

    @Test
    void segmentEventsMoveReservedAndEfficiencyIsReadAtTheFirstPeak() {
        DeviceReplay.Result r =
                MemoryMetrics.Device.replayed(0, 1, TRACE_1, SEGMENTS_1).figures();
        assertEquals(new DeviceReplay.Result(500, 2560, 0.1953125, 1, 0, 0, 500L, null, 0.0, 12), r);
    }

    @Test
    void theTraceIsReplayedInOrdinalOrderWhateverOrderItComesIn() {
        List<Event> shuffled = new ArrayList<>(TRACE_0);
        Collections.reverse(shuffled);
        assertEquals(
                MemoryMetrics.Device.replayed(0, 0, TRACE_0, SEGMENTS_0),
                MemoryMetrics.Device.replayed(0, 0, shuffled, SEGMENTS_0));
    }

    @Test
    void aFreeAfterAFreeOnTheSameAddressIsUnmatched() {
        // alloc 8 (16 B), free 8, free 8 again: the second free has no live alloc before it, so its 16 B were allocated
        // before the trace: start 16 → 32 → 16 → 0; peak 32 at ordinal 0; no segments, so no efficiency.
        DeviceReplay.Result r = MemoryMetrics.Device.replayed(
                        null,
                        0,
                        List.of(
                                new Event(0, "alloc", 8L, 16L, 1L),
                                new Event(1, "free_completed", 8L, 16L, 2L),
                                new Event(2, "free_completed", 8L, 16L, 3L)),
                        List.of())
                .figures();
        assertEquals(32, r.peakAllocated());
        assertNull(r.memoryEfficiency());
        assertEquals(1 / (2 / 1e6), r.allocRatePerS());
    }

    static MetricRow row(List<MetricRow> rows, String metric, String scope, String key) {
        return rows.stream()
                .filter(r ->
                        r.metric().equals(metric) && r.scope().equals(scope) && java.util.Objects.equals(r.key(), key))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void deviceAndWorkloadRows() {
        List<MetricRow> rows = MemoryMetrics.workload(
                "w",
                List.of(
                        MemoryMetrics.Device.replayed(0, 1, TRACE_1, SEGMENTS_1),
                        MemoryMetrics.Device.replayed(0, 0, TRACE_0, SEGMENTS_0)));
        assertEquals(30, rows.size()); // ten per device, ten for the workload
        assertEquals(
                new MetricRow(
                        "w",
                        "peak_allocated_bytes",
                        null,
                        644.0,
                        "bytes (requested sizes)",
                        "rank",
                        0,
                        null,
                        "cuda:0",
                        "ok",
                        null),
                row(rows, "peak_allocated_bytes", "rank", "cuda:0"));
        assertEquals(
                new MetricRow(
                        "w",
                        "alloc_rate_per_s",
                        null,
                        null,
                        "1/s",
                        "rank",
                        0,
                        null,
                        "cuda:1",
                        "missing_input",
                        "the trace spans no time (fewer than two distinct time_us)"),
                row(rows, "alloc_rate_per_s", "rank", "cuda:1"));
        assertEquals(644.0, row(rows, "peak_allocated_bytes", "workload", null).value());
        assertEquals(2560.0, row(rows, "peak_reserved_bytes", "workload", null).value());
        assertEquals(500.0, row(rows, "largest_alloc_bytes", "workload", null).value());
        assertEquals(3.0, row(rows, "alloc_count", "workload", null).value());
        assertEquals(2.0, row(rows, "free_count", "workload", null).value());
        assertEquals(1.0, row(rows, "oom_count", "workload", null).value());
        assertEquals(46.0, row(rows, "internal_waste_bytes", "workload", null).value());
        assertEquals(
                (0.644 + 0.1953125) / 2,
                row(rows, "memory_efficiency", "workload", null).value());
        assertEquals(0.125, row(rows, "fragmentation", "workload", null).value());
        assertEquals(
                new MetricRow("w", "alloc_rate_per_s", null, RATE_0, "1/s", "workload", null, null, null, "ok", null),
                row(rows, "alloc_rate_per_s", "workload", null));
    }

    @Test
    void aWorkloadWithoutAValueSaysWhy() {
        // one device, one unmatched free of 10 B and nothing else: no alloc, no reserved memory, no time span
        List<MetricRow> rows = MemoryMetrics.workload(
                "w",
                List.of(MemoryMetrics.Device.replayed(
                        1, 0, List.of(new Event(0, "free_completed", 9L, 10L, 5L)), List.of())));
        assertEquals(
                new MetricRow(
                        "w",
                        "memory_efficiency",
                        null,
                        null,
                        "ratio",
                        "workload",
                        null,
                        null,
                        null,
                        "missing_input",
                        "no reserved memory at the peak of allocation"),
                row(rows, "memory_efficiency", "workload", null));
        assertEquals(
                new MetricRow(
                        "w",
                        "largest_alloc_bytes",
                        null,
                        null,
                        "bytes (requested sizes)",
                        "workload",
                        null,
                        null,
                        null,
                        "missing_input",
                        "no alloc in the trace"),
                row(rows, "largest_alloc_bytes", "workload", null));
        assertEquals(10.0, row(rows, "peak_allocated_bytes", "workload", null).value());
        assertEquals(0.0, row(rows, "fragmentation", "workload", null).value());
    }
}
