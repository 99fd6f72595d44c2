package org.tracelake.jobs.rank;

import java.io.Serializable;

/**
 * One collective instance on one rank: a communication activity (METRICS.md §2), or both halves of an XLA async
 * collective joined into one (the time it was in flight, from the -start's start to the -done's end). What every
 * rule that counts collectives, sums their bytes, times them one by one or matches them across ranks reads.
 */
public record CommInstance(
        String name,
        String kind,
        long ts,
        long end,
        Long step,
        Long inNelems,
        String dtype,
        Long inBytes,
        Long outBytes,
        Long sizeBytes,
        Integer groupSize,
        String pgName,
        String pgRanks,
        Long seq,
        Long stream,
        String inSplitSize,
        int halves,
        Double xlaSeconds)
        implements Serializable {

    public long dur() {
        return end - ts;
    }

    /**
     * The cross-rank match key (METRICS.md §4 straggler_lag): (process group, kind) when known, else (stream, kind),
     * else kind alone.
     */
    public String matchKey() {
        String k = kind == null ? "unknown" : kind;
        if (pgName != null) return "pg=" + pgName + " kind=" + k;
        if (stream != null) return "stream=" + stream + " kind=" + k;
        return "kind=" + k;
    }
}
