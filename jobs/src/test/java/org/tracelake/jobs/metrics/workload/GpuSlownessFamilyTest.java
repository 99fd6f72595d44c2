package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankSummary;

/** gpu_slowness (METRICS.md §4 "Why") on hand-built kernels, without Spark. */
class GpuSlownessFamilyTest {
    private static RankEvent kernel(String name, String grid, String block, long ts, long dur) {
        RankEvent e = gpu("kernel", "compute", name, ts, dur, 1);
        e.argGrid = grid;
        e.argBlock = block;
        return e;
    }

    /** Kernel A (grid [1,1,1], block [128,1,1]) three times, kernel "gemm" (no geometry) once. */
    private static RankSummary rank(int rank, long a1, long a2, long a3, long gemm, boolean withB) {
        List<RankEvent> events = new ArrayList<>(List.of(
                kernel("A", "[1, 1, 1]", "[128, 1, 1]", 0, a1),
                kernel("A", "[1, 1, 1]", "[128, 1, 1]", 1_000, a2),
                kernel("A", "[1, 1, 1]", "[128, 1, 1]", 2_000, a3),
                kernel("gemm", null, null, 3_000, gemm)));
        if (withB) events.add(kernel("A", "[2, 1, 1]", "[128, 1, 1]", 4_000, 999_999));
        events.sort(RankEvent.ORDER);
        return MetricFamiliesTest.rank(rank, events);
    }

    private static Double value(Workload w, String figure, String scope, Integer rank) {
        for (MetricRow r : w.metrics) {
            if (r.metric().equals("gpu_slowness")
                    && Objects.equals(r.figure(), figure)
                    && r.scope().equals(scope)
                    && Objects.equals(r.rank(), rank)) {
                return r.value();
            }
        }
        throw new AssertionError(figure + " " + scope + " " + rank);
    }

    /**
     * Group A: medians per rank 100, 100, 120 (rank 2: 120, 120, 130) → ref = the 2nd of [100, 100, 120] = 100; group
     * gemm: 200, 300, 200 → ref 200. A with grid [2,1,1] runs on ranks 0 and 1 only: not compared. Scores Σ T ÷ Σ n·ref:
     * rank 0 (300 + 200) / (3·100 + 200) = 1.0; rank 1 (300 + 300) / 500 = 1.2; rank 2 (370 + 200) / 500 = 1.14.
     * Workload: max 1.2, rank 1.
     */
    @Test
    void identicalKernelsComparedAcrossRanks() {
        Workload w = MetricFamiliesTest.workload(
                rank(0, 100, 100, 100, 200, true),
                rank(1, 100, 100, 100, 300, true),
                rank(2, 120, 120, 130, 200, false));
        assertEquals(1.0, value(w, "score", "rank", 0), 1e-12);
        assertEquals(1.2, value(w, "score", "rank", 1), 1e-12);
        assertEquals(1.14, value(w, "score", "rank", 2), 1e-12);
        assertEquals(1.2, value(w, "max", "workload", null), 1e-12);
        assertEquals(1.0, value(w, "rank", "workload", null));
    }

    /** One rank: nothing to compare with. */
    @Test
    void oneRankIsNotMeaningful() {
        Workload w = MetricFamiliesTest.workload(rank(0, 100, 100, 100, 200, false));
        assertNull(value(w, "max", "workload", null));
    }
}
