package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;

/**
 * The rank's GPU time by kernel (METRICS.md §4 kernel_time_s, kernel_breakdown, kernel_step_time_ms): Σ dur of its GPU
 * activities but device syncs, per kernel name and per kernel category, in all and over the activities assigned to a
 * step.
 */
public final class KernelTimePart implements RankPart {
    private boolean any;
    private long ns;
    private final Map<String, Long> byName = new HashMap<>();
    private final Map<String, Long> byCategory = new HashMap<>();
    private long stepNs;
    private final Map<String, Long> stepByName = new HashMap<>();
    private final Map<String, Long> stepByCategory = new HashMap<>();

    @Override
    public void accept(RankEvent e) {
        if (!e.isGpu() || e.ts == null || ActivityClass.SYNC.equals(e.activityClass)) return;
        any = true;
        ns += e.dur;
        if (e.name != null) byName.merge(e.name, e.dur, Long::sum);
        byCategory.merge(e.kernelCategory, e.dur, Long::sum); // null included: its own key
        if (e.step != null) {
            stepNs += e.dur;
            if (e.name != null) stepByName.merge(e.name, e.dur, Long::sum);
            if (e.kernelCategory != null) stepByCategory.merge(e.kernelCategory, e.dur, Long::sum);
        }
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new KernelTime(any, ns, byName, byCategory, stepNs, stepByName, stepByCategory);
    }

    /**
     * Whether the rank has such activity; Σ dur (ns), per name (names only), per category (null included); the same
     * for the activities with a step (categories only).
     */
    public record KernelTime(
            boolean any,
            long ns,
            Map<String, Long> byName,
            Map<String, Long> byCategory,
            long stepNs,
            Map<String, Long> stepByName,
            Map<String, Long> stepByCategory)
            implements Serializable {}
}
