package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.cpu;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.RankEvent;

/** idle_breakdown (METRICS.md §4 "Why") on hand-built activities, without Spark. Times in ns. */
class IdleBreakdownFamilyTest {
    private static RankEvent kernel(long ts, long dur, long step, Long launch) {
        RankEvent e = gpu("kernel", "compute", "k", ts, dur, step);
        e.launchTs = launch;
        return e;
    }

    private static Double value(Workload w, String figure, String scope, Long step) {
        for (MetricRow r : w.metrics) {
            if (r.metric().equals("idle_breakdown")
                    && Objects.equals(r.figure(), figure)
                    && r.scope().equals(scope)
                    && Objects.equals(r.step(), step)) {
                return r.value();
            }
        }
        throw new AssertionError(figure + " " + scope + " " + step);
    }

    /**
     * Step 1 (window [0, 1 ms)): [100, 200) · gap [200, 300) before a kernel launched at 350: host min(150, 100) = 100 ·
     * [300, 400) · gap [400, 450) before a kernel launched at 100, long before: device 50 · [450, 500) · gap [500, 600)
     * before two kernels starting at 600, one without a launch record and one launched at 520: host 20, device 80 ·
     * [600, 700) · gap [700, 800) before a kernel with no launch: unattributed 100 · [800, 900). Totals host 120,
     * device 130, unattributed 100 ns. Step 2's one kernel [250, 260) sits in step 1's gap but is not step 1's: step 2
     * has no gap. Workload: means over the 2 (rank, step) pairs: host 60 ns = 6e-5 ms, device 65 ns, unattributed 50;
     * host_wait_share 120 / 350; idle_fraction over steps with a window (step 1 only): 350 / 1,000,000.
     */
    @Test
    void gapsSplitByWhenTheirKernelWasLaunched() {
        List<RankEvent> events = new ArrayList<>(List.of(
                cpu("user_annotation", "ProfilerStep#1", 0, 1_000_000),
                kernel(100, 100, 1, 50L),
                kernel(250, 10, 2, 240L),
                kernel(300, 100, 1, 350L),
                kernel(450, 50, 1, 100L),
                kernel(600, 50, 1, null),
                kernel(600, 100, 1, 520L),
                kernel(800, 100, 1, null)));
        events.sort(RankEvent.ORDER);
        Workload w = MetricFamiliesTest.workload(MetricFamiliesTest.rank(0, events));
        assertEquals(100 / 1e6 + 20 / 1e6, value(w, "host_wait_ms", "step", 1L), 1e-15);
        assertEquals(130 / 1e6, value(w, "device_wait_ms", "step", 1L), 1e-15);
        assertEquals(100 / 1e6, value(w, "unattributed_ms", "step", 1L), 1e-15);
        assertEquals(0.0, value(w, "host_wait_ms", "step", 2L));
        assertEquals(60 / 1e6, value(w, "host_wait_ms", "workload", null), 1e-15);
        assertEquals(65 / 1e6, value(w, "device_wait_ms", "workload", null), 1e-15);
        assertEquals(50 / 1e6, value(w, "unattributed_ms", "workload", null), 1e-15);
        assertEquals(120.0 / 350, value(w, "host_wait_share", "workload", null), 1e-15);
        assertEquals(350.0 / 1_000_000, value(w, "idle_fraction", "workload", null), 1e-15);
    }
}
