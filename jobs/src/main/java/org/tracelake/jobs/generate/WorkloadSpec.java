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
        java.util.List<Fault> faults,
        double gemmScale) {

    /** A run without injected faults, its GEMMs at their nominal speed. */
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
        this(
                name,
                style,
                ranks,
                firstStep,
                steps,
                layers,
                gzip,
                stragglerRank,
                stragglerDelayNs,
                seed,
                java.util.List.of(),
                1.0);
    }

    /** The same run with faults injected (its ranks then meet at every collective: {@link Rendezvous}). */
    public WorkloadSpec withFaults(java.util.List<Fault> injected) {
        return new WorkloadSpec(
                name,
                style,
                ranks,
                firstStep,
                steps,
                layers,
                gzip,
                stragglerRank,
                stragglerDelayNs,
                seed,
                injected,
                gemmScale);
    }

    /** The same run with every GEMM kernel lasting {@code scale} times as long (a known cause between two runs). */
    public WorkloadSpec withGemmScale(double scale) {
        return new WorkloadSpec(
                name,
                style,
                ranks,
                firstStep,
                steps,
                layers,
                gzip,
                stragglerRank,
                stragglerDelayNs,
                seed,
                faults,
                scale);
    }

    public static WorkloadSpec modernSample() {
        return new WorkloadSpec("llama3-8b-fsdp-h100x4", TraceStyle.MODERN, 4, 10, 4, 4, true, 3, 40_000, 11);
    }

    public static WorkloadSpec legacySample() {
        return new WorkloadSpec("dlrm-ddp-v100x4-legacy", TraceStyle.LEGACY, 4, 20, 4, 4, true, 1, 25_000, 29);
    }
}
