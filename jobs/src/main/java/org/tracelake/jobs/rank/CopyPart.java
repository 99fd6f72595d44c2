package org.tracelake.jobs.rank;

import java.io.Serializable;
import org.tracelake.udfs.ActivityClass;

/**
 * average_memory_bandwidth (METRICS.md §4): GPU-side copies (activity class memcpy: Kineto gpu_memcpy, Nsight and
 * rocprof copies) with a duration and a byte count. Memsets are not copies, and neither are the CPU-side runtime
 * calls ROCm's Kineto writes bytes on (hipMemcpyWithStream): their duration is the host's wait.
 */
public final class CopyPart implements RankPart {
    private long count;
    private double bytes;
    private long ns;

    @Override
    public void accept(RankEvent e) {
        if (e.dur <= 0 || e.ts == null || !ActivityClass.MEMCPY.equals(e.activityClass)) return;
        Double b = SparkCasts.toDouble(e.argBytes);
        if (b == null || !(b > 0)) return;
        count++;
        bytes += b;
        ns += e.dur;
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new Copies(count, bytes, ns);
    }

    /** How many such copies, Σ bytes, Σ dur (ns). */
    public record Copies(long count, double bytes, long ns) implements Serializable {}
}
