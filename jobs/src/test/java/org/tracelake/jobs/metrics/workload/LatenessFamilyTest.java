package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.cpu;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankSummary;

/**
 * lateness_cause and lateness_top_kernel (METRICS.md §4 "Why") on three hand-built ranks, without Spark. Every rank:
 * step 1 = [0, 1 ms); all-reduce #1 starts at 100 µs on every rank; then a GEMM; then all-reduce #2. Times in ns.
 */
class LatenessFamilyTest {
    private static RankEvent allReduce(long ts, long dur) {
        RankEvent e = MetricFamiliesTest.allReduce(ts, dur);
        e.groupSize = 3;
        return e;
    }

    /** One rank: all-reduce #1 at 100 µs for {@code ar1} ns, a GEMM [gemmAt, +gemm), all-reduce #2 at {@code ar2}. */
    private static RankSummary rank(int rank, long ar1, long gemmAt, long gemm, long ar2) {
        List<RankEvent> events = new ArrayList<>(List.of(
                cpu("user_annotation", "ProfilerStep#1", 0, 1_000_000),
                allReduce(100_000, ar1),
                gpu("kernel", "compute", "sm90_gemm", gemmAt, gemm, 1),
                allReduce(ar2, 10_000)));
        events.sort(RankEvent.ORDER);
        return MetricFamiliesTest.rank(rank, events);
    }

    private static MetricRow row(Workload w, String metric, String figure, String scope, Integer rank) {
        for (MetricRow r : w.metrics) {
            if (r.metric().equals(metric)
                    && Objects.equals(r.figure(), figure)
                    && r.scope().equals(scope)
                    && Objects.equals(r.rank(), rank)) {
                return r;
            }
        }
        throw new AssertionError(metric + " " + figure + " " + scope + " " + rank + " not found");
    }

    /** The cause of the instance with the largest lag (all-reduce #2 here). */
    private static Workload.Cause secondCause(Workload w) {
        Workload.Instance second =
                w.instances.stream().max((a, b) -> Long.compare(a.k(), b.k())).orElseThrow();
        return w.causes.get(second);
    }

    /**
     * Rank 2's GEMM takes 90 µs where ranks 0 and 1 take 50: all three leave all-reduce #1 at 110 µs, rank 2 starts #2
     * at 200 µs, the others at 160: lag 40 µs. Windows [110, s): compute 50, 50, 90 µs, idle 0 everywhere; Δstart 0,
     * Δcompute = 90 − 50 = 40 µs ≥ 40/2 and ≥ Δidle 0: device. The top kernel: sm90_gemm, 90 − median(50, 50) = 40 µs.
     * Instance #1 (lag 0) has no cause; its windows start at the step's start, 0 (no earlier comm).
     */
    @Test
    void aSlowerGemmIsDevice() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 10_000, 110_000, 50_000, 160_000),
                rank(1, 10_000, 110_000, 50_000, 160_000),
                rank(2, 10_000, 110_000, 90_000, 200_000));
        Workload.Cause c = secondCause(w);
        assertEquals(new Workload.Cause("device", 0, 40_000, 0), c);
        assertEquals(1, w.causes.size(), "instance #1 has lag 0: no cause");
        for (Workload.Member m : w.members) {
            Workload.LeadIn l = w.leadIns.get(m);
            if (m.ts() == 100_000) assertEquals(new Workload.LeadIn(0, 0, 100_000), l, "before #1: the step's start");
            else assertEquals(110_000, l.from());
        }
        assertEquals(1.0, row(w, "lateness_cause", "device", "rank", 2).value());
        assertEquals(0.0, row(w, "lateness_cause", "host", "rank", 2).value());
        assertEquals(
                1.0, row(w, "lateness_cause", "explained_instances", "rank", 2).value());
        MetricRow straggler = row(w, "lateness_cause", null, "workload", null);
        assertEquals("device", straggler.key());
        assertEquals(1.0, straggler.value());
        MetricRow top = row(w, "lateness_top_kernel", null, "workload", null);
        assertEquals("sm90_gemm", top.key());
        assertEquals(40.0, top.value(), 1e-12); // 40,000 ns = 40 µs
    }

    /**
     * Rank 1's host launches its GEMM 30 µs late (at 140 µs; it ends at 190, all-reduce #2 at 190): window [110, 190)
     * holds compute 50 and idle 30 µs, the others' compute 50 and idle 0. Lag 190 − 160 = 30 µs; Δstart 0, Δcompute 0,
     * Δidle 30 ≥ 15: host. No device instance: lateness_top_kernel is null, not_meaningful.
     */
    @Test
    void aLateLaunchIsHost() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 10_000, 110_000, 50_000, 160_000),
                rank(1, 10_000, 140_000, 50_000, 190_000),
                rank(2, 10_000, 110_000, 50_000, 160_000));
        assertEquals(new Workload.Cause("host", 0, 0, 30_000), secondCause(w));
        assertEquals("host", row(w, "lateness_cause", null, "workload", null).key());
        MetricRow top = row(w, "lateness_top_kernel", null, "workload", null);
        assertNull(top.value());
        assertEquals("not_meaningful", top.status());
    }

    /**
     * Rank 0 leaves all-reduce #1 30 µs late (it lasts 40 µs there, 10 elsewhere): its window starts at 140 µs, the
     * others' at 110; its GEMM is as long as theirs, so #2 starts at 190 vs 160: lag 30, Δstart = 30 ≥ 15: upstream.
     */
    @Test
    void aLateEntryIsUpstream() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 40_000, 140_000, 50_000, 190_000),
                rank(1, 10_000, 110_000, 50_000, 160_000),
                rank(2, 10_000, 110_000, 50_000, 160_000));
        assertEquals(new Workload.Cause("upstream", 30_000, 0, 0), secondCause(w));
    }

    /**
     * Rank 1 leaves #1 at 112 µs (2 late), its GEMM runs [112, 166) (4 more), it waits 4 µs and starts #2 at 170: lag
     * 10 µs (the smallest that gets a cause), Δstart 2, Δcompute 4, Δidle 4 µs, none ≥ 5: unexplained.
     */
    @Test
    void smallDifferencesAreUnexplained() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 10_000, 110_000, 50_000, 160_000),
                rank(1, 12_000, 112_000, 54_000, 170_000),
                rank(2, 10_000, 110_000, 50_000, 160_000));
        assertEquals(new Workload.Cause("unexplained", 2_000, 4_000, 4_000), secondCause(w));
        assertEquals(1.0, row(w, "lateness_cause", "unexplained", "rank", 1).value());
    }

    /** A lag of 9.999 µs gets no cause, and then the straggler has no explained instance. */
    @Test
    void lagsBelowTenMicrosecondsGetNoCause() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 10_000, 110_000, 50_000, 160_000), rank(1, 10_000, 110_000, 50_000, 169_999));
        assertEquals(0, w.causes.size());
        MetricRow straggler = row(w, "lateness_cause", null, "workload", null);
        assertNull(straggler.value());
        assertEquals("not_meaningful", straggler.status());
    }
}
