package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;

/**
 * idle_breakdown (METRICS.md §4 "Why"): the GPU's idle gaps inside each step split into host wait (nothing was queued:
 * the host was late), device wait (work was queued but waited) and unattributed (no launch record), per rank and
 * step; the workload's means over (rank, step) pairs, the host's share of all gap time, and the gaps' share of the
 * steps' time ({@code idle_fraction}, over the pairs whose step has a window), which the host-bound finding reads.
 */
final class IdleBreakdownFamily {
    private IdleBreakdownFamily() {}

    static final Metric IDLE_BREAKDOWN = Metric.of("idle_breakdown");

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

    /**
     * The GPU's idle gaps inside each step, by cause (METRICS.md §4 idle_breakdown): the step's GPU activities (by their
     * step), the gaps between the segments of their union; a gap {@code [a, b)} ends with the activity starting at
     * {@code b} (of several, the one launched first), launched at {@code λ}: {@code min(max(λ − a, 0), b − a)} of it is
     * host wait (nothing was queued yet), the rest device wait (queued work waited); with no launch record it is
     * unattributed. GPU activities come by start, so each step's union and its open gap are kept as they grow.
     */
    static final class IdleGapPart implements RankPart {
        /** One step's union so far: its end, and the gap ending at the latest start, still open to ties at that start. */
        private static final class StepState {
            long end;
            long gapFrom = -1;
            long gapTo;
            Long launch;
            long[] sums = new long[3];
        }

        private final Map<Long, StepState> steps = new HashMap<>();

        @Override
        public void accept(RankEvent e) {
            if (!e.isGpu() || e.ts == null || e.step == null) return;
            StepState s = steps.get(e.step);
            if (s == null) {
                s = new StepState();
                s.end = e.end();
                steps.put(e.step, s);
                return;
            }
            if (s.gapFrom >= 0 && e.ts == s.gapTo) { // another activity starting where the open gap ends
                if (e.launchTs != null && (s.launch == null || e.launchTs < s.launch)) s.launch = e.launchTs;
            } else if (e.ts > s.end) {
                close(s);
                s.gapFrom = s.end;
                s.gapTo = e.ts;
                s.launch = e.launchTs;
            }
            if (e.ts > s.gapTo || s.gapFrom < 0) close(s);
            s.end = Math.max(s.end, e.end());
        }

        /** Adds the open gap, if any, to the step's sums. */
        private static void close(StepState s) {
            if (s.gapFrom < 0) return;
            long gap = s.gapTo - s.gapFrom;
            if (s.launch == null) s.sums[2] += gap;
            else {
                long host = Math.min(Math.max(s.launch - s.gapFrom, 0), gap);
                s.sums[0] += host;
                s.sums[1] += gap - host;
            }
            s.gapFrom = -1;
            s.launch = null;
        }

        @Override
        public Serializable finish(RankSummary done) {
            TreeMap<Long, long[]> out = new TreeMap<>();
            steps.forEach((step, s) -> {
                close(s);
                out.put(step, s.sums);
            });
            return new IdleGaps(out);
        }

        /** Per step: {host wait, device wait, unattributed} in ns. */
        public record IdleGaps(TreeMap<Long, long[]> byStep) implements Serializable {}
    }
}
