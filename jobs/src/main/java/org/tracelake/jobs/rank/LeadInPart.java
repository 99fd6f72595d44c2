package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;

/**
 * The lead-in window of each of a rank's collective instances (METRICS.md §4 "Why"): {@code W = [p, s)} from the latest
 * end of the rank's communication activities that end at or before the instance's start {@code s} (any kind, stream
 * or group; with none, the start of the step window holding {@code s}; with no such window, the rank's first GPU
 * activity), and what the GPU did in it: compute time, idle time, and compute time per kernel name of the kernels
 * starting in it. What lateness_cause compares across the ranks of an instance.
 */
public final class LeadInPart implements RankPart {
    private final IntervalList gpu = new IntervalList();
    private final IntervalList compute = new IntervalList();
    private long[] commEnds = new long[64];
    private int comms;
    private long[] kernelStarts = new long[256];
    private long[] kernelDurs = new long[256];
    private String[] kernelNames = new String[256];
    private int kernels;
    private Long firstGpu;

    @Override
    public void accept(RankEvent e) {
        if (!e.isGpu() || e.ts == null) return;
        if (firstGpu == null) firstGpu = e.ts; // GPU activities come by start
        gpu.add(e.ts, e.end());
        if (ActivityClass.COMM.equals(e.activityClass)) {
            if (comms == commEnds.length) commEnds = Arrays.copyOf(commEnds, comms * 2);
            commEnds[comms++] = e.end();
        } else if (ActivityClass.COMPUTE.equals(e.activityClass)) {
            compute.add(e.ts, e.end());
            if (e.name == null) return;
            if (kernels == kernelStarts.length) {
                kernelStarts = Arrays.copyOf(kernelStarts, kernels * 2);
                kernelDurs = Arrays.copyOf(kernelDurs, kernels * 2);
                kernelNames = Arrays.copyOf(kernelNames, kernels * 2);
            }
            kernelStarts[kernels] = e.ts;
            kernelDurs[kernels] = e.dur;
            kernelNames[kernels++] = e.name;
        }
    }

    @Override
    public Serializable finish(RankSummary done) {
        long[] ends = Arrays.copyOf(commEnds, comms);
        Arrays.sort(ends);
        List<long[]> windows = new ArrayList<>();
        done.steps.forEach((step, f) -> {
            Long start = f.get(RankFactNames.WINDOW_START);
            if (start != null) windows.add(new long[] {start, f.get(RankFactNames.WINDOW_END)});
        });
        int n = done.comm.size();
        LeadIns out = new LeadIns(new long[n], new long[n], new long[n], new ArrayList<>(n));
        for (int i = 0; i < n; i++) {
            long s = done.comm.get(i).ts();
            Long p = latestAtOrBefore(ends, s);
            if (p == null) p = stepStartHolding(windows, s);
            if (p == null) p = firstGpu == null ? s : firstGpu;
            long from = Math.min(p, s);
            out.from[i] = p;
            out.compute[i] = compute.lengthWithin(from, s);
            out.idle[i] = (s - from) - gpu.lengthWithin(from, s);
            out.kernelNs.add(kernelsStartingIn(from, s));
        }
        return out;
    }

    /** The largest value of the sorted array that is ≤ t, or null. */
    private static Long latestAtOrBefore(long[] sorted, long t) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo == 0 ? null : sorted[lo - 1];
    }

    private static Long stepStartHolding(List<long[]> windows, long t) {
        for (long[] w : windows) if (w[0] <= t && t < w[1]) return w[0];
        return null;
    }

    /** Σ dur per name of the compute kernels starting in [from, to), or null when none does. */
    private Map<String, Long> kernelsStartingIn(long from, long to) {
        int lo = 0;
        int hi = kernels;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (kernelStarts[mid] < from) lo = mid + 1;
            else hi = mid;
        }
        Map<String, Long> out = null;
        for (int k = lo; k < kernels && kernelStarts[k] < to; k++) {
            if (out == null) out = new HashMap<>();
            out.merge(kernelNames[k], kernelDurs[k], Long::sum);
        }
        return out;
    }

    /**
     * Per collective instance of the rank (aligned with {@link RankSummary#comm}): the window's start {@code p} (ns),
     * its compute and idle time (ns), and Σ dur per compute kernel name starting in it (null: none).
     */
    public record LeadIns(long[] from, long[] compute, long[] idle, List<Map<String, Long>> kernelNs)
            implements Serializable {}
}
