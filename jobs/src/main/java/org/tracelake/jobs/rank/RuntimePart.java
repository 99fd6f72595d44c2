package org.tracelake.jobs.rank;

import java.io.Serializable;

/**
 * What cpu_overhead reads of a rank (METRICS.md §4): its cuda_runtime / cuda_driver events (how many, Σ dur) and its
 * span, first start to last end over every event with a start.
 */
public final class RuntimePart implements RankPart {
    private long events;
    private long ns;
    private Long first;
    private Long last;

    @Override
    public void accept(RankEvent e) {
        if (e.ts == null) return;
        first = first == null ? e.ts : Math.min(first, e.ts);
        last = last == null ? e.end() : Math.max(last, e.end());
        if (!e.isGpu() && ("cuda_runtime".equals(e.cat) || "cuda_driver".equals(e.cat))) {
            events++;
            ns += e.dur;
        }
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new Runtime(events, ns, first, last);
    }

    /** Runtime and driver events: how many, Σ dur (ns); the rank's span (both null without a timed event). */
    public record Runtime(long events, long ns, Long spanFirst, Long spanLast) implements Serializable {}
}
