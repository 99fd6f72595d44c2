package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.rank.RankAccumulator;
import org.tracelake.jobs.metrics.rank.RankEvent;
import org.tracelake.jobs.metrics.rank.RankSummary;

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
        e.stream = 7L;
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
        RankAccumulator acc = new RankAccumulator(rank);
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
            if (r.metric().equals(metric) && java.util.Objects.equals(r.figure(), figure) && r.scope().equals(scope)
                    && java.util.Objects.equals(r.rank(), rank) && r.step() == null && r.key() == null) {
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
        RankSummary r0 = rank(0, List.of(cpu("user_annotation", "ProfilerStep#1", 0, 1000),
                gpu("kernel", "compute", "sm90_gemm", 0, 100, 1), allReduce(50, 100)));
        RankSummary r1 = rank(1, List.of(cpu("user_annotation", "ProfilerStep#1", 0, 1000),
                gpu("kernel", "compute", "sm90_gemm", 0, 100, 1), allReduce(60, 100)));
        Workload w = workload(r0, r1);
        assertEquals(0.5, one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 0).value());
        assertEquals(0.4, one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 1).value());
        assertEquals(0.45, one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "workload", null).value(), 1e-15);
        assertEquals(0.01, one(w, "straggler_lag", "max_lag_us", "workload", null).value(), 1e-15);
        assertEquals(1.0, one(w, "straggler_lag", "straggler_rank", "workload", null).value());
        assertEquals(1.0, one(w, "straggler_lag", "last_arrival_share", "rank", 1).value());
        assertEquals(0.0, one(w, "straggler_lag", "last_arrival_share", "rank", 0).value());
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
        assertEquals(10.0, one(w, "average_memory_bandwidth", null, "workload", null).value());
    }
}
