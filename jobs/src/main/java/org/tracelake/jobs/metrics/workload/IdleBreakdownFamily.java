package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_STEP;
import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_MEANINGFUL;

import java.util.Map;
import org.tracelake.jobs.rank.IdleGapPart;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;

/**
 * idle_breakdown (METRICS.md §4 "Why"): the GPU's idle gaps inside each step split into host wait (nothing was queued:
 * the host was late), device wait (work was queued but waited) and unattributed (no launch record), per rank and
 * step; the workload's means over (rank, step) pairs, the host's share of all gap time, and the gaps' share of the
 * steps' time ({@code idle_fraction}, over the pairs whose step has a window), which the host-bound finding reads.
 */
final class IdleBreakdownFamily {
    private IdleBreakdownFamily() {}

    private static final String[] FIGURES = {"host_wait_ms", "device_wait_ms", "unattributed_ms"};

    static void compute(Workload w) {
        double[] sums = new double[3];
        long pairs = 0;
        long gapsInWindows = 0;
        long windowTime = 0;
        for (RankSummary r : w.ranks) {
            IdleGapPart.IdleGaps gaps = r.part(IdleGapPart.IdleGaps.class);
            if (gaps == null) continue;
            for (Map.Entry<Long, long[]> e : gaps.byStep().entrySet()) {
                long[] v = e.getValue();
                pairs++;
                for (int i = 0; i < 3; i++) {
                    sums[i] += v[i];
                    w.ok("idle_breakdown", FIGURES[i], v[i] / 1e6, "ms", SCOPE_STEP, r.rank, e.getKey(), null);
                }
                Map<String, Long> f = r.steps.get(e.getKey());
                if (f != null && f.containsKey(RankFactNames.WINDOW_START)) {
                    gapsInWindows += v[0] + v[1] + v[2];
                    windowTime += f.get(RankFactNames.WINDOW_END) - f.get(RankFactNames.WINDOW_START);
                }
            }
        }
        if (pairs == 0) {
            String reason = "no GPU activity assigned to a step";
            for (String f : FIGURES) w.workloadRow("idle_breakdown", f, null, "ms", STATUS_NOT_MEANINGFUL, reason);
            w.workloadRow("idle_breakdown", "host_wait_share", null, "fraction", STATUS_NOT_MEANINGFUL, reason);
            w.workloadRow("idle_breakdown", "idle_fraction", null, "fraction", STATUS_NOT_MEANINGFUL, reason);
            return;
        }
        for (int i = 0; i < 3; i++)
            w.ok("idle_breakdown", FIGURES[i], sums[i] / pairs / 1e6, "ms", SCOPE_WORKLOAD, null, null, null);
        double all = sums[0] + sums[1] + sums[2];
        if (all > 0)
            w.ok("idle_breakdown", "host_wait_share", sums[0] / all, "fraction", SCOPE_WORKLOAD, null, null, null);
        else
            w.workloadRow(
                    "idle_breakdown",
                    "host_wait_share",
                    null,
                    "fraction",
                    STATUS_NOT_MEANINGFUL,
                    "the GPU was never idle inside a step");
        if (windowTime > 0)
            w.ok(
                    "idle_breakdown",
                    "idle_fraction",
                    (double) gapsInWindows / windowTime,
                    "fraction",
                    SCOPE_WORKLOAD,
                    null,
                    null,
                    null);
        else
            w.workloadRow(
                    "idle_breakdown",
                    "idle_fraction",
                    null,
                    "fraction",
                    STATUS_NOT_MEANINGFUL,
                    "no step with GPU activity has a step window");
    }
}
