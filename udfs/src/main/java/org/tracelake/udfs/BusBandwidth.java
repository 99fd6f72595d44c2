package org.tracelake.udfs;

/**
 * Algorithm and bus bandwidth in the nccl-tests convention (METRICS.md section 2): busbw = algbw × f(n)
 * makes collectives of different kinds and group sizes comparable with the link speed. GB = 1e9 bytes,
 * so bytes per nanosecond are exactly GB/s.
 */
public final class BusBandwidth {

    private BusBandwidth() {}

    /** The size S of one collective: out_bytes for all_gather (the gathered buffer), in_bytes otherwise. */
    public static Long sizeBytes(String kind, Long inBytes, Long outBytes) {
        if (kind == null) {
            return null;
        }
        return CollectiveKind.ALL_GATHER.equals(kind) ? outBytes : inBytes;
    }

    /**
     * The power-of-2 size bucket of a message of S bytes, for busbw by size (METRICS.md §4) and the report's table:
     * the largest power of 2 not above S; 0 for S = 0; null for an unknown or negative size.
     */
    public static Long sizeBucket(Long sizeBytes) {
        if (sizeBytes == null || sizeBytes < 0) {
            return null;
        }
        return Long.highestOneBit(sizeBytes);
    }

    /** f(n): 2(n−1)/n for all_reduce; (n−1)/n for all_gather, reduce_scatter, all_to_all; 1 otherwise. */
    public static Double factor(String kind, Integer n) {
        if (kind == null || n == null || n < 1) {
            return null;
        }
        double ranks = n;
        return switch (kind) {
            case CollectiveKind.ALL_REDUCE -> 2.0 * (ranks - 1) / ranks;
            case CollectiveKind.ALL_GATHER, CollectiveKind.REDUCE_SCATTER, CollectiveKind.ALL_TO_ALL ->
                (ranks - 1) / ranks;
            default -> 1.0;
        };
    }

    /** S / dur in GB/s; null when either is unknown, dur ≤ 0 or S < 0. */
    public static Double algbwGBps(Long sizeBytes, Long durNs) {
        if (sizeBytes == null || durNs == null || durNs <= 0 || sizeBytes < 0) {
            return null;
        }
        return (double) sizeBytes / (double) durNs;
    }

    /** algbw × f(n) for one collective instance. */
    public static Double busbwGBps(String kind, Long inBytes, Long outBytes, Integer n, Long durNs) {
        Double algbw = algbwGBps(sizeBytes(kind, inBytes, outBytes), durNs);
        Double f = factor(kind, n);
        return algbw == null || f == null ? null : algbw * f;
    }
}
