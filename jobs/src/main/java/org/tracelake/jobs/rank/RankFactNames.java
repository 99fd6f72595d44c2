package org.tracelake.jobs.rank;

/**
 * Names of the per-rank interval facts the sweep produces ({@code rank_facts} view: workload, rank, step, fact,
 * value_ns). Whole-trace facts have a null step; step facts carry the step number.
 */
public final class RankFactNames {
    private RankFactNames() {}

    // whole trace, and per step (GPU activity grouped by its step column)
    public static final String GPU_UNION = "gpu_union_ns";
    public static final String COMM_UNION = "comm_union_ns";
    public static final String COMPUTE_UNION = "compute_union_ns";
    public static final String OVERLAP = "overlap_ns";
    // whole trace only
    public static final String GPU_FIRST = "gpu_first_ns";
    public static final String GPU_LAST = "gpu_last_ns";
    public static final String KERNEL_UNION = "kernel_union_ns";
    public static final String KERNEL_FIRST = "kernel_first_ns";
    public static final String KERNEL_LAST = "kernel_last_ns";
    // and per step: memcpy_exposed_pct (every GPU activity of dur > 0, memcpy/memset activities included)
    public static final String COPY_PURE = "copy_pure_ns";
    public static final String POSITIVE_FIRST = "positive_first_ns";
    public static final String POSITIVE_LAST = "positive_last_ns";
    // whole trace only
    public static final String ALLGATHER_UNION = "allgather_union_ns";
    public static final String ALLGATHER_OVERLAP = "allgather_overlap_ns";
    // memory_transfer_overhead (CCL-Bench): its events only (is_ccl_bench_event_cat), copy kernels by name
    public static final String CCL_COPY_PURE = "ccl_copy_pure_ns";
    public static final String CCL_EVENT_FIRST = "ccl_event_first_ns";
    public static final String CCL_EVENT_LAST = "ccl_event_last_ns";
    public static final String TRIMMED_STEPS = "trimmed_steps";
    // total_communication_time's numerator: clipped to the trimmed span only with more than two steps
    public static final String CCL_COMM_PER_STEP_BASIS = "ccl_comm_step_basis_ns";
    public static final String CCL_COMM_TOTAL = "ccl_comm_total_ns";
    // per step window (ProfilerStep annotation)
    public static final String WINDOW_START = "window_start_ns";
    public static final String WINDOW_END = "window_end_ns";
    public static final String GPU_IN_WINDOW = "gpu_in_window_ns";
    /**
     * A step whose own GPU activities (assigned by launch, METRICS.md §1) end after its window: the end of its GPU span
     * (the last of them), the GPU activity within [window start, that end), and the Σ dur of the step's own kernels and
     * of its communication kernels (CUDA/HIP graph replay: nothing of the step overlaps its window).
     */
    public static final String GPU_SPAN_END = "gpu_span_end_ns";

    public static final String GPU_IN_SPAN = "gpu_in_span_ns";
    public static final String STEP_KERNEL_DUR = "step_kernel_dur_ns";
    public static final String STEP_COMM_KERNEL_DUR = "step_comm_kernel_dur_ns";
    public static final String TRIMMED = "trimmed";
    public static final String CCL_COMM_IN_WINDOW = "ccl_comm_in_window_ns";
    public static final String CCL_OVERLAP_IN_WINDOW = "ccl_overlap_in_window_ns";
    public static final String CCL_COMM_DUR_OVERLAPPING = "ccl_comm_dur_overlapping_ns";
    public static final String CCL_KERNEL_DUR_OVERLAPPING = "ccl_kernel_dur_overlapping_ns";
}
