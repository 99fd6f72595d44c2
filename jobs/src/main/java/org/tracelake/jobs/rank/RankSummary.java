package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pass over a rank's events found, for the workload's metric families: the interval facts of the sweep
 * (METRICS.md §3), the rank's collective instances, and the sums the kernel, annotation, CPU and XLA rules need.
 * Small (no event is kept but the collectives), so that every rank of a workload meets in one task.
 */
public final class RankSummary implements Serializable {
    public int rank;

    /** Whole-trace interval facts ({@link RankFactNames}); empty for a rank with neither GPU activity nor step windows. */
    public final Map<String, Long> whole = new HashMap<>();
    /** Per-step facts: the step's window and its GPU activity (by each activity's step). */
    public final TreeMap<Long, Map<String, Long>> steps = new TreeMap<>();

    /** The rank's collective instances in (start, end) order. */
    public List<CommInstance> comm;

    /** GPU activity but device syncs: Σ dur, per kernel name (names only) and per kernel category (null included). */
    public boolean hasKernelTime;

    public long kernelTimeNs;
    public final Map<String, Long> kernelTimeByName = new HashMap<>();
    public final Map<String, Long> kernelTimeByCategory = new HashMap<>();
    /** The same for the activities assigned to a step (kernel_step_time_ms): Σ dur, per name, per category. */
    public long stepKernelTimeNs;

    public final Map<String, Long> stepKernelTimeByName = new HashMap<>();
    public final Map<String, Long> stepKernelTimeByCategory = new HashMap<>();
    /** GPU activities other than communication by (name, class, category): {calls, Σ dur ns} (kernel_totals). */
    public final Map<GpuKey, long[]> gpuTotals = new HashMap<>();

    /** A group of a rank's GPU activities in kernel_totals. */
    public record GpuKey(String name, String activityClass, String kernelCategory) implements Serializable {}

    /** Kineto kernels ({@code cat} kernel, CCL-Bench's leaderboard set): Σ dur per name, in all, in MoE kernels. */
    public long leaderboardKernels;

    public long leaderboardNs;
    public final Map<String, Long> leaderboardByName = new HashMap<>();
    public long moeNs;
    /** Kernels with a "blocks per SM" arg: Σ dur and Σ dur × min(blocks per SM, 1). */
    public long smKernels;

    public long smDurNs;
    public double smWeightedNs;
    /** ncclDevKernel_* kernels (CCL-Bench straggler). */
    public boolean hasNcclDevKernel;

    public long ncclDevKernelNs;

    /** cuda_runtime / cuda_driver events, and the rank's span over every event with a start and a duration. */
    public long runtimeEvents;

    public long runtimeNs;
    public Long spanFirst;
    public Long spanLast;

    /** Forward/backward/optimizer annotations, with or without a step (their times: {@link PhasePart}). */
    public long phaseAnnotations;

    /**
     * The CPU-side annotation (user_annotation) that comes nearest a step form without being a step, and that form;
     * null without annotations. What a reason that says no step was found names (METRICS.md §1).
     */
    public String nearestAnnotation;

    /** The annotation name of each step window (the first step's says whether it prefilled: ttft, METRICS.md §4). */
    public final TreeMap<Long, String> stepNames = new TreeMap<>();

    public String nearestStepForm;

    /** FSDP::* annotations: whether any, and Σ dur per fsdp_* metric. */
    public boolean hasFsdp;

    public final Map<String, Long> fsdpNs = new HashMap<>();

    /**
     * GPU activities that ran past the start of the next one on their stream, clipped there ({@link StreamClipper}):
     * how many, and the time clipped off (stream_overrun_ms).
     */
    public long clippedActivities;

    public long clippedNs;

    /**
     * Kernel launches without a GPU activity in the trace ({@link LaunchLedger}): {all, before the first launch whose
     * activity is there, after the last}; null when no GPU activity of the rank is linked to its launch.
     */
    public long[] launchesWithoutActivity;

    /** Copy events (copy names, dur > 0, bytes > 0): Σ bytes and Σ dur. */
    public long copies;

    public double copyBytes;
    public long copyNs;

    /** XLA device ops: whether any; Σ T of compute ops; model_flops (all, and over ops with T > 0). */
    public boolean hasXlaOps;

    public double xlaComputeS;
    public long xlaWithFlops;
    public double xlaModelFlops;
    public Double xlaTimedFlops;
    public Double xlaTimedFlopsS;
    /** First start and last end of the rank's complete events of an XLA file (host too). */
    public Long xlaWallFirst;

    public Long xlaWallLast;

    /** The results of the families' own per-rank parts ({@link RankPart}), by their class. */
    private final Map<String, Serializable> parts = new HashMap<>();

    void putPart(Serializable result) {
        parts.put(result.getClass().getName(), result);
    }

    /** The result a family's per-rank part gave for this rank, or null when the rank's pass had no such part. */
    public <T extends Serializable> T part(Class<T> type) {
        return type.cast(parts.get(type.getName()));
    }
}
