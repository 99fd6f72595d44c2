package org.tracelake.jobs.metrics.verdict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.FigureReference.Direction;

/**
 * The verdict of METRICS.md §4 "Run comparison verdicts" on hand-built step lists; each case's percentiles worked out
 * below (nearest rank: the ⌈p·n/100⌉-th smallest).
 */
class RunVerdictTest {
    private static final double EPS = 1e-12;

    /** sorted: 98 99 99 100 100 100 100 101 101 102; P10 = 1st = 98, med = 5th = 100, P90 = 9th = 101. */
    private static final double[] STEADY = {100, 101, 99, 100, 102, 98, 100, 101, 99, 100};
    /** STEADY × 1.1: sorted 107.8 108.9 108.9 110 110 110 110 111.1 111.1 112.2; P10 107.8, med 110, P90 111.1. */
    private static final double[] SLOWER = {110, 111.1, 108.9, 110, 112.2, 107.8, 110, 111.1, 108.9, 110};

    @Test
    void aTenPercentSlowerRunIsALikelyRegression() {
        // Δ = 110 / 100 − 1 = 0.10; spread(A) = (101 − 98) / 200 = 0.015, spread(B) = (111.1 − 107.8) / 220 = 0.015,
        // so noise = max(0.02, 0.015, 0.015) = 0.02; Δ > noise and P10(B) = 107.8 > med(A) = 100
        RunVerdict.Result r = RunVerdict.of(STEADY, SLOWER);
        assertEquals(RunVerdict.Movement.ROSE, r.movement());
        assertEquals(RunVerdict.REGRESSION_LIKELY, r.verdict(Direction.LOWER));
        assertEquals(0.10, r.change(), EPS);
        assertEquals(0.02, r.noise(), EPS);
        assertEquals(100.0, r.medianA(), EPS);
        assertEquals(110.0, r.medianB(), EPS);
        // the same rise of a figure where higher is better (a bandwidth) is an improvement
        assertEquals(RunVerdict.IMPROVEMENT_LIKELY, r.verdict(Direction.HIGHER));
        assertEquals(RunVerdict.INCONCLUSIVE, r.verdict(Direction.NONE));
    }

    @Test
    void goingBackIsALikelyImprovement() {
        // Δ = 100 / 110 − 1 = −0.0909; noise 0.02; P90(B) = 101 < med(A) = 110
        RunVerdict.Result r = RunVerdict.of(SLOWER, STEADY);
        assertEquals(RunVerdict.IMPROVEMENT_LIKELY, r.verdict(Direction.LOWER));
        assertEquals(100.0 / 110 - 1, r.change(), EPS);
        assertEquals(0.02, r.noise(), EPS);
    }

    @Test
    void onePercentIsNeutral() {
        // B = STEADY + 1: med 101, Δ = 0.01 ≤ 0.02; spread(B) = (102 − 99) / 202 = 0.01485 < 0.02
        double[] b = new double[STEADY.length];
        for (int i = 0; i < b.length; i++) b[i] = STEADY[i] + 1;
        RunVerdict.Result r = RunVerdict.of(STEADY, b);
        assertEquals(RunVerdict.NEUTRAL, r.verdict(Direction.LOWER));
        assertEquals(0.01, r.change(), EPS);
        assertEquals(0.02, r.noise(), EPS);
    }

    @Test
    void theRunsOwnSpreadRaisesTheNoiseFloor() {
        // A sorted 80 90 100 110 120: P10 = 1st = 80, med = 3rd = 100, P90 = 5th = 120; spread = 40 / 200 = 0.2.
        double[] a = {100, 80, 120, 90, 110};
        // B: med 130, Δ = 0.3 > 0.2, but P10(B) = 100 is not above med(A) = 100: the runs overlap
        RunVerdict.Result overlap = RunVerdict.of(a, new double[] {130, 100, 150, 110, 140});
        assertEquals(0.2, overlap.noise(), EPS);
        assertEquals(0.3, overlap.change(), EPS);
        assertEquals(RunVerdict.INCONCLUSIVE, overlap.verdict(Direction.LOWER));
        // B 130..170: med 150, Δ = 0.5; spread(B) = 40 / 300 = 0.133, noise 0.2; P10(B) = 130 > 100
        RunVerdict.Result clear = RunVerdict.of(a, new double[] {150, 130, 170, 140, 160});
        assertEquals(RunVerdict.REGRESSION_LIKELY, clear.verdict(Direction.LOWER));
        assertEquals(0.2, clear.noise(), EPS);
        // Δ = 0.15 is within the 0.2 noise: neutral, although 7.5 times the 2 % floor
        assertEquals(
                RunVerdict.NEUTRAL,
                RunVerdict.of(a, new double[] {115, 95, 135, 105, 125}).verdict(Direction.LOWER));
    }

    @Test
    void oneStepIsInconclusive() {
        RunVerdict.Result r = RunVerdict.of(new double[] {100}, SLOWER);
        assertEquals(RunVerdict.INCONCLUSIVE, r.verdict(Direction.LOWER));
        assertNull(r.change());
        assertNull(r.noise());
        assertEquals(
                RunVerdict.INCONCLUSIVE, RunVerdict.of(STEADY, new double[0]).verdict(Direction.LOWER));
    }

    @Test
    void percentilesAreNearestRankInWholeNumbers() {
        double[] v = new double[30];
        for (int i = 0; i < 30; i++) v[i] = i + 1;
        // 10 % of 30 is the 3rd value (0.1 × 30 in doubles is 3.0000000000000004, whose ceiling would be the 4th)
        assertEquals(3, RunVerdict.nearestRank(v, 10));
        assertEquals(15, RunVerdict.nearestRank(v, 50));
        assertEquals(27, RunVerdict.nearestRank(v, 90));
        assertEquals(2, RunVerdict.median(new double[] {4, 1, 2, 3})); // ⌈4/2⌉ = 2nd smallest
    }

    /**
     * Trimming and the split. Run A: rank 0 steps 1-4 of 50, 10, 12, 60 ms (more than two steps: 50 and 60 dropped),
     * rank 1 steps 1-2 of 11, 13 (two steps: both kept) → 10 11 12 13: med = 2nd = 11, P10 = 10, P90 = 4th = 13,
     * spread = 3 / 22 = 0.136. Run B the same + 10 ms (and 50/60 at the ends): 20 21 22 23, med 21, spread 3 / 42.
     * Δ = 21 / 11 − 1 = 0.909 > 0.136 and P10(B) = 20 > 11: regression_likely, +10 ms. Every step's compute is
     * step − 2 ms, its exposed communication 1 ms, its idle 1 ms (0.6 host wait, 0.3 device wait, 0.1 other),
     * its exposed copies 0: compute med 9 → 19 (+10), the others +0, other = 10 − 10 = 0.
     */
    @Test
    void theStepChangeSplitsIntoItsParts() {
        StepComparison c = StepComparison.of(
                steps(new double[] {50, 10, 12, 60}, new double[] {11, 13}),
                steps(new double[] {50, 20, 22, 60}, new double[] {21, 23}));
        assertEquals(RunVerdict.REGRESSION_LIKELY, c.verdict());
        assertEquals(21.0 / 11 - 1, c.result().change(), EPS);
        assertEquals(3.0 / 22, c.result().noise(), EPS);
        assertEquals(10.0, c.deltaMs(), EPS);
        assertEquals(10.0, c.parts().get("compute"), EPS);
        assertEquals(0.0, c.parts().get("exposed_comm"), EPS);
        assertEquals(0.0, c.parts().get("exposed_copy"), EPS);
        for (String idle : StepSample.IDLE_PARTS) assertEquals(0.0, c.parts().get(idle), EPS, idle);
        assertEquals(0.0, c.idleDeltaMs(), EPS);
        assertEquals(0.0, c.parts().get("other"), EPS);
        assertEquals("compute", c.partMovedMost());
    }

    /**
     * The idle time split as idle_breakdown splits it, from one (rank, step)'s metric rows. Step 1: iter_time 10 ms,
     * comp_time 6, exposed_comm 1, bubble (idle) 2 of a GPU span of 9, host wait 1.2, device wait 0.5 → exposed copies
     * 9 − 2 − 6 − 1 = 0, other idle 2 − 1.2 − 0.5 = 0.3 (the span's edges and unexplained gaps). Step 2 the same
     * without idle_breakdown rows: its whole idle of 2 ms is other. Step 3 has no GPU activity: every part null.
     */
    @Test
    void theIdleTimeSplitsIntoHostWaitDeviceWaitAndUnattributed() {
        List<RunRow> rows = new ArrayList<>();
        for (long step = 1; step <= 3; step++) {
            rows.add(stepRow("iter_time", null, step, 10));
            if (step == 3) continue;
            rows.add(stepRow("comm_comp_overlap", "comp_time_ms", step, 6));
            rows.add(stepRow("comm_comp_overlap", "exposed_comm_ms", step, 1));
            rows.add(stepRow("pipeline_bubble", "bubble_time_ms", step, 2));
            rows.add(stepRow("pipeline_bubble", "total_time_ms", step, 9));
            if (step == 2) continue;
            rows.add(stepRow("idle_breakdown", "host_wait_ms", step, 1.2));
            rows.add(stepRow("idle_breakdown", "device_wait_ms", step, 0.5));
        }
        List<StepSample> s = RunPair.stepSamples(rows);
        assertEquals(3, s.size());
        StepSample one = s.get(0);
        assertEquals(0.0, one.exposedCopyMs(), EPS);
        assertEquals(1.2, one.idleHostWaitMs(), EPS);
        assertEquals(0.5, one.idleDeviceWaitMs(), EPS);
        assertEquals(0.3, one.idleOtherMs(), EPS);
        StepSample two = s.get(1);
        assertEquals(0.0, two.idleHostWaitMs(), EPS);
        assertEquals(0.0, two.idleDeviceWaitMs(), EPS);
        assertEquals(2.0, two.idleOtherMs(), EPS);
        for (String part : StepSample.PARTS) assertNull(s.get(2).part(part), part);
    }

    /**
     * A run whose GPU waits longer for the host: every step of B is 2 ms longer than A's, all of it idle host wait
     * (1 → 3 ms). The step's change is +2 ms, idle_host_wait +2, every other part 0.
     */
    @Test
    void aLateHostShowsAsIdleHostWait() {
        List<StepSample> a = new ArrayList<>();
        List<StepSample> b = new ArrayList<>();
        for (int step = 1; step <= 6; step++) {
            double jitter = step * 0.01;
            a.add(new StepSample(0, step, 20 + jitter, 15 + jitter, 2.0, 0.5, 1.0, 1.0, 0.5));
            b.add(new StepSample(0, step, 22 + jitter, 15 + jitter, 2.0, 0.5, 3.0, 1.0, 0.5));
        }
        StepComparison c = StepComparison.of(a, b);
        assertEquals(2.0, c.deltaMs(), EPS);
        assertEquals(2.0, c.parts().get("idle_host_wait"), EPS);
        assertEquals(2.0, c.idleDeltaMs(), EPS);
        assertEquals(0.0, c.parts().get("compute"), EPS);
        assertEquals(0.0, c.parts().get("other"), EPS);
        assertEquals("idle_host_wait", c.partMovedMost());
    }

    private static RunRow stepRow(String metric, String figure, long step, double value) {
        return new RunRow(true, null, metric, figure, "step", 0, step, null, value);
    }

    private static List<StepSample> steps(double[] rank0, double[] rank1) {
        List<StepSample> out = new ArrayList<>();
        double[][] ranks = {rank0, rank1};
        for (int r = 0; r < 2; r++) {
            for (int s = 0; s < ranks[r].length; s++) {
                double ms = ranks[r][s];
                out.add(new StepSample(r, s + 1, ms, ms - 2, 1.0, 0.0, 0.6, 0.3, 0.1));
            }
        }
        return out;
    }

    /**
     * gemm 5.0 → 5.5 (+0.5), nccl 2.0 → 1.8 (−0.2), elementwise 1.0 → 1.0 (0: not listed), old 0.5 → absent (−0.5),
     * new absent → 0.3 (+0.3). By |Δ|, ties by name: gemm, old, new, nccl.
     */
    @Test
    void kernelsMovedMostByTheirChangePerRankStep() {
        List<KernelDeltas.Moved> top = KernelDeltas.top(
                Map.of("gemm", 5.0, "nccl", 2.0, "elementwise", 1.0, "old", 0.5),
                Map.of("gemm", 5.5, "nccl", 1.8, "elementwise", 1.0, "new", 0.3));
        assertEquals(
                List.of("gemm", "old", "new", "nccl"),
                top.stream().map(KernelDeltas.Moved::kernel).toList());
        assertEquals(
                List.of(1, 2, 3, 4),
                top.stream().map(KernelDeltas.Moved::position).toList());
        assertEquals(0.5, top.get(0).deltaMs(), EPS);
        assertEquals(-0.5, top.get(1).deltaMs(), EPS);
        assertEquals(-0.2, top.get(3).deltaMs(), 1e-9);
    }
}
