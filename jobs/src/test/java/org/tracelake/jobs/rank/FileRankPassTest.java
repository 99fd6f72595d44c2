package org.tracelake.jobs.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.testing.InternalRows;
import org.tracelake.schemas.EventSchema;

/**
 * The per-rank pass at ingest, without Spark: rows as a reader builds them, in the reader's (not time) order, give
 * the summary the metrics phase computes from the same events sorted by Spark ({@link RankEvent#input}'s order, read
 * back through {@link RankEvent#of(Row)}).
 */
class FileRankPassTest {
    private static final FileTask TASK = new FileTask(
            "w", "file:/archive/w/rank1_trace.json", 1, 0, TraceFormat.KINETO, 0, InputLimits.defaults(), "run");

    /** One event of rank {@code rank}: a CPU op when {@code activityClass} is null, else a GPU activity. */
    private static InternalRow event(
            Integer rank, String cat, String name, Long ts, Long dur, String activityClass, String blocksPerSm) {
        EventRow e = new EventRow();
        e.clear();
        e.rank = rank;
        e.ph = "X";
        e.cat = cat;
        e.name = name;
        e.tsNs = ts;
        e.durNs = dur;
        e.activityClass = activityClass;
        if (activityClass != null) e.stream = 7L;
        e.arg("blocks per SM", blocksPerSm);
        e.arg("External id", 12);
        return e.build(TASK, new FileReport(TASK));
    }

    private static List<InternalRow> readerOrder() {
        List<InternalRow> rows = new ArrayList<>();
        // GPU activities first and out of time order, as a Kineto file may list them; two starting at 3,000
        rows.add(event(1, "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 5_000L, 1_000L, "comm", "0.5"));
        rows.add(event(1, "kernel", "ampere_sgemm_128x64_nn", 3_000L, 1_500L, "compute", "4.0"));
        rows.add(event(1, "kernel", "vectorized_elementwise_kernel", 3_000L, 200L, "compute", "2.0"));
        rows.add(event(1, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 9_000L, 400L, "copy", null));
        rows.add(event(1, "cpu_op", "ProfilerStep#4", 1_000L, 20_000L, null, null));
        rows.add(event(1, "cuda_runtime", "cudaLaunchKernel", 2_500L, 100L, null, null));
        rows.add(event(1, "cpu_op", "aten::mm", null, 50L, null, null)); // no start: first among the CPU events
        rows.add(event(1, "cpu_op", "an instant", 2_000L, null, null, null)); // no duration: not an input
        rows.add(event(null, "cpu_op", "host line", 1_500L, 10L, null, null)); // no rank
        return rows;
    }

    private static byte[] bytes(Serializable value) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(out)) {
            o.writeObject(value);
        }
        return out.toByteArray();
    }

    /** What the metrics phase computes: the input projection's values, Spark's order, one accumulator per rank. */
    private static List<RankSummary> asTheMetricsPhaseWould(List<InternalRow> rows) {
        List<RankEvent> events = new ArrayList<>();
        List<Integer> ranks = new ArrayList<>();
        // one table, as at ingest: Java serialisation writes a string held twice once, so identity shows in the bytes
        StringTable strings = new StringTable();
        for (InternalRow r : rows) {
            if (!RankEvent.isInput(r)) continue;
            events.add(RankEvent.of(r, strings));
            ranks.add(RankEvent.rankOf(r));
        }
        List<RankSummary> out = new ArrayList<>();
        for (int rank : ranks.stream().distinct().sorted().toList()) {
            List<RankEvent> mine = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) if (ranks.get(i) == rank) mine.add(events.get(i));
            mine.sort(RankEvent.ORDER);
            RankAccumulator acc = new RankAccumulator(rank, PARTS);
            mine.forEach(acc::accept);
            out.add(acc.finish());
        }
        return out;
    }

    @Test
    void readerOrderGivesTheSummaryOfTimeOrder() throws IOException {
        FileRankPass pass = new FileRankPass(100, PARTS);
        readerOrder().forEach(pass::accept);
        assertTrue(pass.complete());
        List<RankSummary> summaries = pass.finish();
        List<RankSummary> expected = asTheMetricsPhaseWould(readerOrder());
        assertEquals(2, summaries.size(), "the unranked host line and rank 1");
        assertEquals(RankEvent.UNRANKED, summaries.get(0).rank);
        assertEquals(1, summaries.get(1).rank);
        for (int i = 0; i < expected.size(); i++) assertArrayEquals(bytes(expected.get(i)), bytes(summaries.get(i)));
        // by hand: rank 1 spans 1,000 (the step's start) to 21,000 ns (its end); one runtime event of 100 ns
        Span span = summaries.get(1).part(Span.class);
        assertEquals(1_000L, span.first());
        assertEquals(21_000L, span.last());
        assertEquals(1, span.runtimeEvents());
        assertEquals(100, span.runtimeNs());
    }

    @Test
    void eventsReadFromTheRowAreThoseReadBackFromTheTable() {
        InternalRow row = readerOrder().get(0);
        RankEvent atIngest = RankEvent.of(row, new StringTable());
        Row back = InternalRows.toRow(EventSchema.SCHEMA, row);
        assertEquals("0.5", atIngest.argBlocksPerSm);
        assertEquals(back.getString(EventSchema.index(EventSchema.NAME)), atIngest.name);
        assertEquals(5_000L, atIngest.ts);
        assertEquals(1_000L, atIngest.dur);
        assertEquals("comm", atIngest.activityClass);
        assertEquals(7L, atIngest.stream);
        assertEquals(null, atIngest.argBytes);
    }

    @Test
    void aFileOverTheCapIsNotSummarised() {
        FileRankPass pass = new FileRankPass(3, PARTS);
        readerOrder().forEach(pass::accept);
        assertFalse(pass.complete(), "8 input events against a cap of 3");
        assertTrue(pass.finish().isEmpty());
    }

    /** What the test's own part saw of a rank: its span, and its runtime events' count and time. */
    record Span(Long first, Long last, long runtimeEvents, long runtimeNs) implements Serializable {}

    /**
     * A part handed to the pass from outside, as the metric families' are: it must see every event of its rank, CPU
     * side and GPU side.
     */
    static final class SpanPart implements RankPart {
        private Long first;
        private Long last;
        private long runtimeEvents;
        private long runtimeNs;

        @Override
        public void accept(RankEvent e) {
            if (e.ts == null) return;
            first = first == null ? e.ts : Math.min(first, e.ts);
            last = last == null ? e.end() : Math.max(last, e.end());
            if (!e.isGpu() && "cuda_runtime".equals(e.cat)) {
                runtimeEvents++;
                runtimeNs += e.dur;
            }
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new Span(first, last, runtimeEvents, runtimeNs);
        }
    }

    /** The test's part and the pass's shared ones (a family's own part would be one of these). */
    private static final RankParts PARTS =
            new RankParts(List.of(SpanPart::new, KernelTimePart::new, LeaderboardKernelPart::new, PhasePart::new));
}
