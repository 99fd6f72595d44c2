package org.tracelake.jobs.generate;

/**
 * A cause of lateness injected into one rank of a generated run, so that lateness_cause has an answer known by
 * construction (METRICS.md §4 "Why"): {@link Kind#SLOW_GEMM} makes the rank's first backward GEMM of a layer take
 * {@code amountNs} longer (its GPU has more work); {@link Kind#CPU_STALL} stalls the rank's CPU for {@code amountNs}
 * before it launches a layer's backward kernels (its GPU waits for work). {@code layer} -1 means every layer.
 */
public record Fault(int rank, Kind kind, int layer, long amountNs) {
    public enum Kind {
        SLOW_GEMM,
        CPU_STALL
    }

    boolean hits(int rank, Kind kind, int layer) {
        return this.rank == rank && this.kind == kind && (this.layer < 0 || this.layer == layer);
    }
}
