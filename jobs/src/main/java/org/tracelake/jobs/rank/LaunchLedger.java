package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.Arrays;
import java.util.BitSet;
import org.tracelake.udfs.KernelNameRules;

/**
 * The rank's kernel launches (runtime and driver calls, udfs KernelNameRules.isKernelLaunch) and which of them the
 * trace holds a GPU activity of, matched by the launch's start, which a GPU activity carries as its launch time
 * ({@code launch_ts_ns}, joined on correlation by the reader). A launch without one ran on a GPU the profiler did not
 * record: CUPTI drops the first kernels of a session when its buffers are not ready, and a kernel still running when
 * the profile stops is never written. Counted only on a rank where some GPU activity is linked to its launch (without
 * links every launch would look unmatched).
 */
public final class LaunchLedger implements RankPart {
    private long[] starts = new long[64];
    private int size;
    private boolean sorted = true;
    private BitSet matched;
    private boolean sawLink;

    @Override
    public void accept(RankEvent e) {
        if (e.ts == null) return;
        if (e.isGpu()) {
            if (e.launchTs != null) activity(e.launchTs);
        } else if (("cuda_runtime".equals(e.cat) || "cuda_driver".equals(e.cat))
                && KernelNameRules.isKernelLaunch(e.name)) {
            launch(e.ts);
        }
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new MissingLaunches(missing());
    }

    /**
     * Kernel launches without a GPU activity in the trace: {all, before the first launch whose activity is there,
     * after the last}; null when no GPU activity of the rank is linked to its launch.
     */
    public record MissingLaunches(long[] counts) implements Serializable {}

    /** A kernel launch call starting at ts (CPU-side events come in start order, before every GPU activity). */
    private void launch(long ts) {
        if (size > 0 && ts < starts[size - 1]) sorted = false;
        if (size == starts.length) starts = Arrays.copyOf(starts, size * 2);
        starts[size++] = ts;
    }

    /** A GPU activity launched at launchTs. */
    private void activity(long launchTs) {
        if (matched == null) {
            if (!sorted) Arrays.sort(starts, 0, size);
            matched = new BitSet(size);
        }
        sawLink = true;
        int i = Arrays.binarySearch(starts, 0, size, launchTs);
        if (i < 0) return;
        while (i > 0 && starts[i - 1] == launchTs) i--; // several launches at one instant: mark them all
        for (; i < size && starts[i] == launchTs; i++) matched.set(i);
    }

    /** Kernel launches without a GPU activity: {all, before the first matched launch, after the last}, or null. */
    private long[] missing() {
        if (!sawLink || matched == null || size == 0) return null;
        int first = matched.nextSetBit(0);
        int last = matched.previousSetBit(size - 1);
        if (first < 0) return new long[] {size, 0, 0};
        long all = (long) size - matched.cardinality();
        return new long[] {all, first, (long) size - 1 - last};
    }
}
