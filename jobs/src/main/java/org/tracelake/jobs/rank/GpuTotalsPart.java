package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;

/**
 * The rank's GPU activities other than communication, grouped by (name, activity class, kernel category): calls and Σ
 * dur (kernel_totals). Communication is counted by instance from the rank's collective instances instead.
 */
public final class GpuTotalsPart implements RankPart {
    private final Map<GpuKey, long[]> totals = new HashMap<>();

    @Override
    public void accept(RankEvent e) {
        if (!e.isGpu() || e.ts == null || ActivityClass.COMM.equals(e.activityClass)) return;
        long[] t = totals.computeIfAbsent(new GpuKey(e.name, e.activityClass, e.kernelCategory), k -> new long[2]);
        t[0]++;
        t[1] += e.dur;
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new GpuTotals(totals);
    }

    /** A group of a rank's GPU activities in kernel_totals. */
    public record GpuKey(String name, String activityClass, String kernelCategory) implements Serializable {}

    /** Per group: {calls, Σ dur ns}. */
    public record GpuTotals(Map<GpuKey, long[]> byKey) implements Serializable {}
}
