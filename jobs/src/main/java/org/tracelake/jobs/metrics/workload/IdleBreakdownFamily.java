package org.tracelake.jobs.metrics.workload;

import static org.tracelake.jobs.metrics.Metrics.IDLE_BREAKDOWN;

import java.util.List;
import java.util.Map;
import org.tracelake.jobs.metrics.Figure;
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

    private static final List<Figure> FIGURES = List.of(
            IDLE_BREAKDOWN.figure("host_wait_ms"),
            IDLE_BREAKDOWN.figure("device_wait_ms"),
            IDLE_BREAKDOWN.figure("unattributed_ms"));
    private static final Figure HOST_WAIT_SHARE = IDLE_BREAKDOWN.figure("host_wait_share");
    private static final Figure IDLE_FRACTION = IDLE_BREAKDOWN.figure("idle_fraction");

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
                    w.add(FIGURES.get(i).step(r.rank, e.getKey()).value(v[i] / 1e6));
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
            for (Figure f : FIGURES) w.add(f.workload().notMeaningful(reason));
            w.add(HOST_WAIT_SHARE.workload().notMeaningful(reason));
            w.add(IDLE_FRACTION.workload().notMeaningful(reason));
            return;
        }
        for (int i = 0; i < 3; i++) w.add(FIGURES.get(i).workload().value(sums[i] / pairs / 1e6));
        double all = sums[0] + sums[1] + sums[2];
        if (all > 0) w.add(HOST_WAIT_SHARE.workload().value(sums[0] / all));
        else w.add(HOST_WAIT_SHARE.workload().notMeaningful("the GPU was never idle inside a step"));
        if (windowTime > 0) w.add(IDLE_FRACTION.workload().value((double) gapsInWindows / windowTime));
        else w.add(IDLE_FRACTION.workload().notMeaningful("no step with GPU activity has a step window"));
    }
}
