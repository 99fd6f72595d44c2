package org.tracelake.jobs.generate;

/**
 * What to generate for one workload. Times are nanoseconds. A straggler rank starts every collective
 * {@code stragglerDelayNs} late, so straggler metrics have a known answer. Every GEMM kernel (kernel category gemm)
 * lasts {@code gemmScale} times its jittered duration, so a run comparison has a known cause to find.
 */
public record WorkloadSpec(
        String name,
        TraceStyle style,
        int ranks,
        int firstStep,
        int steps,
        int layers,
        boolean gzip,
        int stragglerRank,
        long stragglerDelayNs,
        long seed,
        double gemmScale) {

    /** A workload whose GEMMs run at their nominal speed. */
    public WorkloadSpec(
            String name,
            TraceStyle style,
            int ranks,
            int firstStep,
            int steps,
            int layers,
            boolean gzip,
            int stragglerRank,
            long stragglerDelayNs,
            long seed) {
        this(name, style, ranks, firstStep, steps, layers, gzip, stragglerRank, stragglerDelayNs, seed, 1.0);
    }

    public static WorkloadSpec modernSample() {
        return new WorkloadSpec("llama3-8b-fsdp-h100x4", TraceStyle.MODERN, 4, 10, 4, 4, true, 3, 40_000, 11);
    }

    public static WorkloadSpec legacySample() {
        return new WorkloadSpec("dlrm-ddp-v100x4-legacy", TraceStyle.LEGACY, 4, 20, 4, 4, true, 1, 25_000, 29);
    }
}
