package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.RankAccumulator;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankSummary;

/**
 * The metric families on events built by hand, without Spark: events in (in the order the per-rank pass gets them: a
 * rank's CPU-side events, then its GPU activities, each by start), rows out, every expected value worked out here.
 */
class MetricFamiliesTest {
    static RankEvent cpu(String cat, String name, long ts, long dur) {
        RankEvent e = new RankEvent();
        e.ph = "X";
        e.cat = cat;
        e.name = name;
        e.ts = ts;
        e.dur = dur;
        return e;
    }

    static RankEvent gpu(String cat, String activityClass, String name, long ts, long dur, long step) {
        RankEvent e = cpu(cat, name, ts, dur);
        e.activityClass = activityClass;
        e.step = step;
        // one stream per class, as a real trace has them (work on one stream is serial: StreamClipper)
        e.stream = "comm".equals(activityClass) ? 7L : "memcpy".equals(activityClass) ? 8L : 9L;
        return e;
    }

    static RankEvent allReduce(long ts, long dur) {
        RankEvent e = gpu("kernel", "comm", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", ts, dur, 1);
        e.collective = "all_reduce";
        e.inBytes = 1_000_000L;
        e.outBytes = 1_000_000L;
        e.groupSize = 2;
        return e;
    }

    static RankSummary rank(int rank, List<RankEvent> events) {
        RankAccumulator acc = new RankAccumulator(rank, Families.RANK_PARTS);
        events.forEach(acc::accept);
        return acc.finish();
    }

    static Workload workload(RankSummary... ranks) {
        Workload w = new Workload("w", Card.NONE, List.of(ranks), null, List.of(), new DevicePeakTable(List.of()));
        Families.compute(w, List.of());
        return w;
    }

    static MetricRow one(Workload w, String metric, String figure, String scope, Integer rank) {
        List<MetricRow> found = new ArrayList<>();
        for (MetricRow r : w.metrics) {
            if (r.metric().equals(metric)
                    && java.util.Objects.equals(r.figure(), figure)
                    && r.scope().equals(scope)
                    && java.util.Objects.equals(r.rank(), rank)
                    && r.step() == null
                    && r.key() == null) {
                found.add(r);
            }
        }
        assertEquals(1, found.size(), metric + " " + figure + " " + scope + " " + rank + ": " + found);
        return found.get(0);
    }

    /**
     * Rank 0: step 1 = [0, 1000) ns; a GEMM [0, 100) and an all-reduce [50, 150). Rank 1: the same step, a GEMM [0, 100)
     * and the all-reduce [60, 160). Rank 0's communication [50, 150) overlaps compute [0, 100) for 50 of its 100 ns:
     * overlap_ratio_of_comm 0.5; rank 1 40 of 100: 0.4; workload mean 0.45. The all-reduce matched across ranks starts
     * at 50 and 60: lag 10 ns = 0.01 µs, rank 1 last; its last-arrival share 1, rank 0's 0.
     */
    @Test
    void overlapAndStragglerOfTwoRanks() {
        RankSummary r0 = rank(
                0,
                List.of(
                        cpu("user_annotation", "ProfilerStep#1", 0, 1000),
                        gpu("kernel", "compute", "sm90_gemm", 0, 100, 1),
                        allReduce(50, 100)));
        RankSummary r1 = rank(
                1,
                List.of(
                        cpu("user_annotation", "ProfilerStep#1", 0, 1000),
                        gpu("kernel", "compute", "sm90_gemm", 0, 100, 1),
                        allReduce(60, 100)));
        Workload w = workload(r0, r1);
        assertEquals(
                0.5,
                one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 0).value());
        assertEquals(
                0.4,
                one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 1).value());
        assertEquals(
                0.45,
                one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "workload", null)
                        .value(),
                1e-15);
        assertEquals(
                0.01, one(w, "straggler_lag", "max_lag_us", "workload", null).value(), 1e-15);
        assertEquals(
                1.0, one(w, "straggler_lag", "straggler_rank", "workload", null).value());
        assertEquals(
                1.0, one(w, "straggler_lag", "last_arrival_share", "rank", 1).value());
        assertEquals(
                0.0, one(w, "straggler_lag", "last_arrival_share", "rank", 0).value());
        assertEquals(1, w.instances.size());
        assertEquals(2, w.members.size());
        // iter_time: one step of 1000 ns on each rank = 0.001 ms
        assertEquals(0.001, one(w, "iter_time", "avg_ms", "workload", null).value(), 1e-15);
    }

    /**
     * METRICS.md §4: when no instance has a lag above 0 (both ranks start the all-reduce at 50), no rank is a
     * straggler: straggler_rank is null, not_meaningful, whatever the tie rule would pick.
     */
    @Test
    void noStragglerWhereNobodyIsLate() {
        RankSummary r0 = rank(0, List.of(allReduce(50, 100)));
        RankSummary r1 = rank(1, List.of(allReduce(50, 120)));
        MetricRow straggler = one(workload(r0, r1), "straggler_lag", "straggler_rank", "workload", null);
        assertNull(straggler.value());
        assertEquals("not_meaningful", straggler.status());
    }

    /**
     * average_memory_bandwidth counts GPU-side copies only (METRICS.md §4): a gpu_memcpy of 4,000 bytes in 400 ns
     * and one of 1,000 bytes in 100 ns give 5,000 / 500 = 10 GB/s; the memset (bytes 9,999) and the CPU-side
     * hipMemcpyWithStream call that carries bytes (ROCm) are not copies.
     */
    @Test
    void memoryBandwidthOfGpuCopiesOnly() {
        RankEvent runtime = cpu("cuda_runtime", "hipMemcpyWithStream", 0, 5_000_000);
        runtime.argBytes = "4000";
        RankEvent copy1 = gpu("gpu_memcpy", "memcpy", "Memcpy HtoD (Pageable -> Device)", 10, 400, 1);
        copy1.argBytes = "4000";
        RankEvent copy2 = gpu("gpu_memcpy", "memcpy", "Memcpy DtoD (Device -> Device)", 500, 100, 1);
        copy2.argBytes = "1000";
        RankEvent memset = gpu("gpu_memset", "memset", "Memset (Device)", 700, 10, 1);
        memset.argBytes = "9999";
        Workload w = workload(rank(0, List.of(runtime, copy1, copy2, memset)));
        assertEquals(
                10.0, one(w, "average_memory_bandwidth", null, "workload", null).value());
    }

    static RankEvent allReduce(long ts, long dur, long bytes) {
        RankEvent e = allReduce(ts, dur);
        e.inBytes = bytes;
        e.outBytes = bytes;
        return e;
    }

    static final Card A100 = new Card(
            "training",
            null,
            null,
            8L,
            "NVIDIA A100-SXM4-80GB",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);

    /** A workload on A100s whose interconnect table gives A100 300 GB/s per direction. */
    static Workload onA100(RankSummary... ranks) {
        Workload w = new Workload(
                "w",
                A100,
                List.of(ranks),
                null,
                List.of(),
                new DevicePeakTable(List.of(), List.of(new DevicePeakTable.Entry("A100", 300e9))));
        Families.compute(w, List.of());
        return w;
    }

    /** Five all-reduces of 1..5 MB on one rank (n = 2, so the fit's x = S·2(n−1)/n = S), with the given durations. */
    static Workload hockneyOf(long... durNs) {
        List<RankEvent> events = new ArrayList<>();
        for (int i = 0; i < durNs.length; i++) events.add(allReduce(i * 1_000_000L, durNs[i], (i + 1) * 1_000_000L));
        return onA100(rank(0, events));
    }

    /**
     * dur = 10 µs + S / 100 GB/s: 20, 30, 40, 50, 60 µs for 1..5 MB. α = 1e-5 s, β = 1e-11 s/byte, 1/β = 1e11 B/s =
     * 100 GB/s, below A100's 300 GB/s, R² = 1: ok.
     */
    @Test
    void hockneyFitOfALinkIsOk() {
        Workload w = hockneyOf(20_000, 30_000, 40_000, 50_000, 60_000);
        MetricRow inv = one(w, "hockney_inverse_beta_Bps", null, "workload", null);
        assertEquals("ok", inv.status());
        assertEquals(1e11, inv.value(), 1e11 * 1e-9);
        assertEquals(1e-5, one(w, "hockney_alpha_s", null, "workload", null).value(), 1e-15);
    }

    /**
     * dur = 10 µs + S / 1,000 GB/s: 11..15 µs for 1..5 MB. 1/β = 1e12 B/s = 1,000 GB/s, above the A100's 300 GB/s per
     * direction (what issue 32 saw on a real A100 trace: 1,090 GB/s): all three rows null, not_meaningful, the reason
     * giving α, β, R² and the bound.
     */
    @Test
    void hockneyFitAboveTheInterconnectIsNotMeaningful() {
        Workload w = hockneyOf(11_000, 12_000, 13_000, 14_000, 15_000);
        for (String m : new String[] {"hockney_alpha_s", "hockney_beta_s_per_byte", "hockney_inverse_beta_Bps"}) {
            MetricRow r = one(w, m, null, "workload", null);
            assertNull(r.value(), m);
            assertEquals("not_meaningful", r.status(), m);
            org.junit.jupiter.api.Assertions.assertTrue(
                    r.reason().contains("above the 300.0 GB/s per direction")
                            && r.reason().contains("alpha = ")
                            && r.reason().contains("beta = ")
                            && r.reason().contains("R² = "),
                    r.reason());
        }
    }

    /**
     * Durations 20, 60, 20, 60, 40 µs for 1..5 MB: x̄ = 3 MB, ȳ = 40 µs; Σdx·dy = 1e6·(40,000 − 20,000 + 20,000) ns·B =
     * 4e10, Σdx² = 1e13 B², so β = 4e-3 ns/B (1/β = 250 GB/s, under the bound), α = 40,000 − 12,000 = 28,000 ns ≥ 0;
     * Σdy² = 4 · (20,000)² = 1.6e9, R² = (4e10)² / (1e13 · 1.6e9) = 0.1 < 0.5: not_meaningful.
     */
    @Test
    void hockneyFitThatExplainsLittleIsNotMeaningful() {
        Workload w = hockneyOf(20_000, 60_000, 20_000, 60_000, 40_000);
        MetricRow r = one(w, "hockney_inverse_beta_Bps", null, "workload", null);
        assertNull(r.value());
        assertEquals("not_meaningful", r.status());
        org.junit.jupiter.api.Assertions.assertTrue(
                r.reason().contains("R² = 0.1") && r.reason().contains("needs R² >= 0.5"), r.reason());
    }

    static RankEvent allReduce3(long ts, long end) {
        RankEvent e = allReduce(ts, end - ts, 100_000L);
        e.groupSize = 3;
        return e;
    }

    static MetricRow keyed(Workload w, String metric, String figure, String scope, String key) {
        List<MetricRow> found = w.metrics.stream()
                .filter(r -> r.metric().equals(metric)
                        && java.util.Objects.equals(r.figure(), figure)
                        && r.scope().equals(scope)
                        && r.rank() == null
                        && java.util.Objects.equals(r.key(), key))
                .toList();
        assertEquals(1, found.size(), metric + " " + figure + " " + key + ": " + found);
        return found.get(0);
    }

    /**
     * Three ranks, three all-reduces of 100,000 B (n = 3, busbw factor 2·2/3 = 4/3), ns:
     * <pre>
     *   instance 1: rank 0 [0, 3000)       rank 1 [1000, 3000)   rank 2 [2000, 3000)   durations 3000 2000 1000
     *   instance 2: rank 0 [10000, 12000)  rank 1 [10000, 14000) rank 2 [11000, 14000) durations 2000 4000 3000
     *   instance 3: rank 0 [20000, 24000)  rank 1 [21000, 25000) rank 2 [20500, 24500) durations 4000 4000 4000
     * </pre>
     * Shortest durations 1000, 2000, 4000 ns: algbw 100, 50, 25 GB/s, busbw 133.33, 66.67, 33.33. Median 200/3,
     * p10 at position 0.2: 33.33 + 0.2 · 33.33 = 40, p90 at 1.8: 66.67 + 0.8 · 66.67 = 120, algbw median 50.
     * Waiting (own − shortest): rank 0 2000 + 0 + 0 = 2000 ns, rank 1 1000 + 2000 + 0 = 3000, rank 2 0 + 1000 + 0 =
     * 1000: total_ms 0.002, 0.003, 0.001; mean_us 2/3, 1, 1/3; workload 0.006 ms, 6000 / 9 ns = 2/3 µs, the rank that
     * waited most 1. First arrivals: rank 0 in all three (instance 2: ranks 0 and 1 start together, the lower rank).
     */
    @Test
    void waitFreeBandwidthAndCollectiveWait() {
        RankSummary r0 = rank(0, List.of(allReduce3(0, 3000), allReduce3(10_000, 12_000), allReduce3(20_000, 24_000)));
        RankSummary r1 =
                rank(1, List.of(allReduce3(1000, 3000), allReduce3(10_000, 14_000), allReduce3(21_000, 25_000)));
        RankSummary r2 =
                rank(2, List.of(allReduce3(2000, 3000), allReduce3(11_000, 14_000), allReduce3(20_500, 24_500)));
        Workload w = workload(r0, r1, r2);
        assertEquals(
                200.0 / 3,
                keyed(w, "wait_free_busbw_gbps", "median", "workload", "all_reduce")
                        .value(),
                1e-9);
        assertEquals(
                40.0,
                keyed(w, "wait_free_busbw_gbps", "p10", "workload", "all_reduce")
                        .value(),
                1e-9);
        assertEquals(
                120.0,
                keyed(w, "wait_free_busbw_gbps", "p90", "workload", "all_reduce")
                        .value(),
                1e-9);
        assertEquals(
                50.0,
                keyed(w, "wait_free_busbw_gbps", "algbw_median", "workload", "all_reduce")
                        .value(),
                1e-9);
        assertEquals(0.002, one(w, "collective_wait", "total_ms", "rank", 0).value(), 1e-15);
        assertEquals(0.003, one(w, "collective_wait", "total_ms", "rank", 1).value(), 1e-15);
        assertEquals(0.001, one(w, "collective_wait", "total_ms", "rank", 2).value(), 1e-15);
        assertEquals(2.0 / 3, one(w, "collective_wait", "mean_us", "rank", 0).value(), 1e-12);
        assertEquals(1.0, one(w, "collective_wait", "mean_us", "rank", 1).value(), 1e-12);
        assertEquals(
                1.0, one(w, "collective_wait", "first_arrival_share", "rank", 0).value());
        assertEquals(
                0.0, one(w, "collective_wait", "first_arrival_share", "rank", 1).value());
        assertEquals(
                0.006, one(w, "collective_wait", "total_ms", "workload", null).value(), 1e-15);
        assertEquals(
                2.0 / 3, one(w, "collective_wait", "mean_us", "workload", null).value(), 1e-12);
        assertEquals(
                1.0,
                one(w, "collective_wait", "most_waiting_rank", "workload", null).value());
    }

    /**
     * Issue 42 item 4: a tie is no answer. Three ranks start two all-reduces together and rank 2 comes 1000 ns late
     * to each, its kernels [1000, 2000) and [11000, 12000) against ranks 0 and 1's [0, 2000) and [10000, 12000): the
     * shortest is rank 2's 1000 ns, so ranks 0 and 1 each wait 1000 + 1000 = 2000 ns and rank 2 none. Ranks 0 and 1
     * share the largest total: most_waiting_rank names neither (it named rank 0, the lower), and says why.
     */
    @Test
    void mostWaitingRankIsNotMeaningfulOnATie() {
        RankSummary r0 = rank(0, List.of(allReduce3(0, 2000), allReduce3(10_000, 12_000)));
        RankSummary r1 = rank(1, List.of(allReduce3(0, 2000), allReduce3(10_000, 12_000)));
        RankSummary r2 = rank(2, List.of(allReduce3(1000, 2000), allReduce3(11_000, 12_000)));
        Workload w = workload(r0, r1, r2);
        assertEquals(0.002, one(w, "collective_wait", "total_ms", "rank", 0).value(), 1e-15);
        assertEquals(0.002, one(w, "collective_wait", "total_ms", "rank", 1).value(), 1e-15);
        assertEquals(0.0, one(w, "collective_wait", "total_ms", "rank", 2).value(), 1e-15);
        MetricRow most = one(w, "collective_wait", "most_waiting_rank", "workload", null);
        assertNull(most.value());
        assertEquals("not_meaningful", most.status());
        org.junit.jupiter.api.Assertions.assertTrue(most.reason().contains("ranks [0, 1]"), most.reason());
    }

    static RankEvent allToAll(long ts, long end, long in, long out, String splits) {
        RankEvent e = gpu("kernel", "comm", "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", ts, end - ts, 1);
        e.collective = "all_to_all";
        e.inBytes = in;
        e.outBytes = out;
        e.groupSize = 2;
        e.dtype = "Float";
        e.pgRanks = "[0, 1]";
        e.argInSplitSize = splits;
        return e;
    }

    /**
     * An uneven all_to_all (ranks' in and out bytes differ) has no ring bus size from in = out. Instance 1 carries
     * split sizes (Float, 4 B): rank 0 [100, 150] sends 400 B to itself and 600 to rank 1; rank 1 [600, 400] sends
     * 2,400 to rank 0 and 1,600 to itself. Off-rank traffic: rank 0 sent 600, received 2,400; rank 1 sent 2,400,
     * received 600; the busiest link carries 2,400 B in the shortest duration 500 ns (rank 1 [500, 1000)): 4.8 GB/s;
     * algbw from the most a rank sent, 4,000 B: 8 GB/s. Instance 2 has no splits: not meaningful for that instance,
     * and the kind's row is partial, saying 1 of 2 instances are left out.
     */
    @Test
    void unevenAllToAllTakesItsBusBandwidthFromSplits() {
        RankSummary r0 =
                rank(0, List.of(allToAll(0, 1000, 1000, 2800, "[100, 150]"), allToAll(5000, 6000, 1000, 2800, null)));
        RankSummary r1 =
                rank(1, List.of(allToAll(500, 1000, 4000, 2200, "[600, 400]"), allToAll(5000, 6000, 4000, 2200, null)));
        Workload w = workload(r0, r1);
        MetricRow median = keyed(w, "wait_free_busbw_gbps", "median", "workload", "all_to_all");
        assertEquals(4.8, median.value(), 1e-12);
        assertEquals("partial", median.status());
        assertEquals("1 of 2 instances left out: uneven all_to_all without split sizes", median.reason());
        assertEquals(
                8.0,
                keyed(w, "wait_free_busbw_gbps", "algbw_median", "workload", "all_to_all")
                        .value(),
                1e-12);
        MetricRow second = keyed(w, "wait_free_busbw_gbps", "instance", "key", "stream=7 kind=all_to_all k=2");
        assertNull(second.value());
        assertEquals("not_meaningful", second.status());
    }

    /**
     * Issue 32 item 6: reasons say what is missing rather than naming a rank the workload never had. A workload with no
     * rank (a memory snapshot alone) has no trace with collectives; one whose ranks 4 and 6 compute but never
     * communicate has none either; one whose ranks 4 and 6 all-reduce lacks rank 0, and says which ranks it has.
     */
    @Test
    void reasonsSayWhatIsMissing() {
        MetricRow none = one(workload(), "collective_vol_allreduce_gb", null, "workload", null);
        assertNull(none.value());
        assertEquals("no trace with collectives in this workload (no trace with events on a rank)", none.reason());
        assertEquals(
                Gaps.NO_RANKS,
                one(workload(), "straggler_lag", "mean_lag_us", "workload", null)
                        .reason());
        Workload computeOnly = workload(
                rank(4, List.of(gpu("kernel", "compute", "loop_fusion_1", 0, 100, 1))),
                rank(6, List.of(gpu("kernel", "compute", "loop_fusion_1", 0, 100, 1))));
        assertEquals(
                "no trace with collectives in this workload (ranks 4, 6 hold events, none of them communication"
                        + " kernels)",
                one(computeOnly, "collective_vol_allreduce_gb", null, "workload", null)
                        .reason());
        Workload noRank0 = workload(rank(4, List.of(allReduce(0, 100))), rank(6, List.of(allReduce(10, 100))));
        assertEquals(
                "no trace of rank 0: the ranks that hold events are 4, 6, and CCL-Bench's collective volumes are"
                        + " rank 0's",
                one(noRank0, "collective_vol_allreduce_gb", null, "workload", null)
                        .reason());
    }

    /**
     * METRICS.md §1: a reason that says no step was found names what it looked for and the nearest annotation seen.
     * Rank 0's user_annotations "Profiler Step 12" (2 edits from "ProfilerStep#" in 13: 0.15) and "forward" (far from
     * every form), rank 1's "model_step" (nearest "step[extend": 6 edits in 11); the GPU-side copy of an annotation
     * (gpu_user_annotation) is not weighed.
     */
    @Test
    void noStepReasonNamesTheNearestAnnotation() {
        RankSummary r0 = rank(
                0,
                List.of(
                        cpu("user_annotation", "Profiler Step 12", 0, 1000),
                        cpu("user_annotation", "forward", 10, 100),
                        gpu("kernel", "compute", "sm90_gemm", 0, 100, 1)));
        RankSummary r1 = rank(
                1,
                List.of(
                        cpu("user_annotation", "model_step", 0, 1000),
                        cpu("gpu_user_annotation", "ProfilerStep#x", 0, 1000),
                        gpu("kernel", "compute", "sm90_gemm", 0, 100, 1)));
        MetricRow iter = one(workload(r0, r1), "iter_time", "avg_ms", "workload", null);
        assertNull(iter.value());
        String reason = iter.reason();
        org.junit.jupiter.api.Assertions.assertTrue(
                reason.contains("looked for ProfilerStep#<N>; vLLM execute_context_"), reason);
        org.junit.jupiter.api.Assertions.assertTrue(
                reason.endsWith("the nearest annotation seen is 'Profiler Step 12'"
                        + " (rank 0), which does not match the ProfilerStep#<N> form"),
                reason);
        MetricRow none = one(
                workload(rank(0, List.of(gpu("kernel", "compute", "sm90_gemm", 0, 100, 1)))),
                "iter_time",
                "avg_ms",
                "workload",
                null);
        org.junit.jupiter.api.Assertions.assertTrue(
                none.reason().endsWith("the traces hold no other CPU-side annotation"), none.reason());
    }
}
