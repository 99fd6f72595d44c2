package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GPU's idle gaps inside each step, by cause (METRICS.md §4 idle_breakdown): the step's GPU activities (by their
 * step), the gaps between the segments of their union; a gap {@code [a, b)} ends with the activity starting at
 * {@code b} (of several, the one launched first), launched at {@code λ}: {@code min(max(λ − a, 0), b − a)} of it is
 * host wait (nothing was queued yet), the rest device wait (queued work waited); with no launch record it is
 * unattributed. GPU activities come by start, so each step's union and its open gap are kept as they grow.
 */
public final class IdleGapPart implements RankPart {
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
