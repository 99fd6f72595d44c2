package org.tracelake.jobs.export;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the leaderboard says about each metric: label, whether higher is better, its category (CCL-Bench's four)
 * and a one-line description (METRICS.md §4 is the definition). A metric not listed still exports, described as
 * "see METRICS.md" with higher_is_better false.
 */
final class LeaderboardMetrics {
    private LeaderboardMetrics() {}

    record Info(String label, boolean higherIsBetter, String category, String description) {}

    static final List<Map<String, String>> CATEGORIES = List.of(
            category("model_execution", "Model Execution", "High-level model throughput and latency metrics"),
            category("gpu_efficiency", "GPU Efficiency", "GPU utilization, SM coverage, kernel mix, and load balance"),
            category("memory", "Memory", "Memory bandwidth, allocation and transfer overhead"),
            category("communication", "Communication", "Collective communication performance, overlap, and bandwidth"));

    private static Map<String, String> category(String id, String label, String description) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("label", label);
        m.put("description", description);
        return m;
    }

    private static final String C = "communication";
    private static final String G = "gpu_efficiency";
    private static final String M = "memory";
    private static final String X = "model_execution";

    static final Map<String, Info> INFO = Map.ofEntries(
            e("coll_call_num", "Collective calls", false, C, "Communication kernels per rank, mean over ranks"),
            e("comm_bytes_total", "Comm bytes", false, C, "Bytes moved by collectives (nccl-tests S), summed over ranks"),
            e("collective_vol_allreduce_gb", "AllReduce volume (GB)", false, C, "Rank 0 all-reduce input bytes / 1e9 (CCL-Bench)"),
            e("collective_vol_allgather_gb", "AllGather volume (GB)", false, C, "Rank 0 all-gather input bytes / 1e9 (CCL-Bench)"),
            e("collective_vol_reducescatter_gb", "ReduceScatter volume (GB)", false, C, "Rank 0 reduce-scatter input bytes / 1e9 (CCL-Bench)"),
            e("collective_vol_alltoall_gb", "AllToAll volume (GB)", false, C, "Rank 0 all-to-all input bytes / 1e9 (CCL-Bench)"),
            e("collective_vol_total_gb", "Collective volume (GB)", false, C, "Sum of the four rank-0 collective volumes (CCL-Bench)"),
            e("comm_time_s", "Comm time (s)", false, C, "Union of communication kernel time per rank, mean over ranks"),
            e("total_communication_time", "Comm Time (s/step)", false, C, "Merged communication time per trimmed step, mean over ranks (CCL-Bench)"),
            e("communication_fraction", "Comm Fraction (%)", false, C, "Communication kernel time over all kernel time per trimmed step (CCL-Bench)"),
            e("busbw_gbps", "Bus bandwidth (GB/s)", true, C, "Median bus bandwidth of a collective kind (nccl-tests convention)"),
            e("bandwidth_utilization_allgather", "AllGather BW (GiB/s)", true, C, "Median AllGather bandwidth in CCL-Bench units"),
            e("bandwidth_utilization_allreduce", "AllReduce BW (GiB/s)", true, C, "Median AllReduce bandwidth in CCL-Bench units"),
            e("bandwidth_utilization_reducescatter", "ReduceScatter BW (GiB/s)", true, C, "Median ReduceScatter bandwidth in CCL-Bench units"),
            e("bandwidth_utilization_alltoall", "AllToAll BW (GiB/s)", true, C, "Median AllToAll bandwidth in CCL-Bench units"),
            e("hockney_alpha_s", "Hockney alpha (s)", false, C, "Latency term of a least-squares fit of all-reduce time"),
            e("hockney_beta_s_per_byte", "Hockney beta (s/B)", false, C, "Per-byte term of the all-reduce fit"),
            e("hockney_inverse_beta_Bps", "Hockney 1/beta (B/s)", true, C, "Asymptotic all-reduce bandwidth of the fit"),
            e("comm_comp_overlap", "Comm hidden (ratio)", true, C, "Share of communication time overlapped by compute, mean over ranks"),
            e("compute_comm_overlap", "Comm/Comp overlap (%)", true, C, "Overlapped share of communication per trimmed step (CCL-Bench)"),
            e("gpu_utilization", "GPU Util (%)", true, G, "Busy GPU time over the profiled span, mean over ranks"),
            e("aggregate_gpu_utilization", "Kernel Util (%)", true, G, "Busy kernel time over the profiled span, mean over ranks (CCL-Bench)"),
            e("pipeline_bubble", "Bubble (ratio)", false, G, "Idle share of the step span"),
            e("straggler_lag", "Straggler lag (us)", false, C, "Mean start lag of matched collectives across ranks"),
            e("straggler", "Straggler (ratio)", false, C, "(max - min) / max of per-rank communication time (CCL-Bench)"),
            e("load_imbalance_ratio", "Load imbalance", false, G, "Max / min per-rank kernel busy time (CCL-Bench)"),
            e("iter_time_skew_ms", "Step end skew (ms)", false, X, "Spread of a step's end across ranks"),
            e("iter_time", "Iteration time (ms)", false, X, "Mean step duration over every (rank, step)"),
            e("avg_step_time", "Step Time (s)", false, X, "Mean over ranks of the trimmed mean step duration (CCL-Bench)"),
            e("throughput_tokens", "Throughput (tok/s)", true, X, "Global batch tokens per second of step time"),
            e("mfu", "MFU (%)", true, X, "Model FLOPs utilization (CCL-Bench formula)"),
            e("ttft", "TTFT (s)", false, X, "Time to first token (inference, CCL-Bench)"),
            e("tpot", "TPOT (s)", false, X, "Time per output token (inference, CCL-Bench)"),
            e("kernel_time_s", "Kernel Time (s)", false, G, "Total GPU kernel time"),
            e("kernel_breakdown", "Kernel share (%)", false, G, "Share of kernel time of a kernel category"),
            e("cpu_overhead", "CPU overhead (%)", false, G, "CUDA runtime/driver time over the profiled span"),
            e("phase_time_ms", "Phase time (ms)", false, X, "Forward/backward/optimizer time per step"),
            e("fsdp_all_gather", "FSDP all-gather (ms)", false, C, "Time in FSDP::all_gather annotations"),
            e("fsdp_reduce_scatter", "FSDP reduce-scatter (ms)", false, C, "Time in FSDP::reduce_scatter annotations"),
            e("fsdp_copy_in", "FSDP copy-in (ms)", false, C, "Time in FSDP::copy_in annotations"),
            e("fsdp_copy_out", "FSDP copy-out (ms)", false, C, "Time in FSDP::copy_out annotations"),
            e("fsdp_pre_forward", "FSDP pre-forward (ms)", false, C, "Time in FSDP::pre_forward annotations"),
            e("fsdp_post_forward", "FSDP post-forward (ms)", false, C, "Time in FSDP::post_forward annotations"),
            e("fsdp_pre_backward", "FSDP pre-backward (ms)", false, C, "Time in FSDP::pre_backward annotations"),
            e("fsdp_post_backward", "FSDP post-backward (ms)", false, C, "Time in FSDP::post_backward annotations"),
            e("fsdp_prefetch_overlap", "FSDP prefetch overlap", true, C, "Overlap ratio of all-gather kernels with compute"),
            e("traffic_distribution", "DP traffic (bytes)", false, C, "Bytes by parallelism dimension (headline: data parallel)"),
            e("dominant_kernel_concentration", "Top Kernel (%)", false, G, "Share of kernel time in the single most time-consuming kernel (CCL-Bench)"),
            e("moe_fraction", "MoE Fraction (%)", false, G, "Share of kernel time in Mixture-of-Experts kernels (CCL-Bench)"),
            e("mean_sm_coverage", "SM Coverage (%)", true, G, "Duration-weighted SM coverage of kernels (CCL-Bench)"),
            e("memory_transfer_overhead", "Mem Transfer OH (%)", false, M, "Share of trace time in pure memory copies (CCL-Bench)"),
            e("average_memory_bandwidth", "Avg Mem BW (GB/s)", true, M, "Average copy bandwidth over memcpy operations (CCL-Bench)"),
            e("scale_up_bw_utility", "Scale-up BW utility", true, C, "Network-simulator what-if; not computed from traces"),
            e("wall_time_s", "Wall time (s)", false, X, "TPU/XLA profiled wall time"),
            e("total_compute_time_s", "Compute time (s)", false, G, "TPU/XLA total compute op time"),
            e("total_comm_time_s", "Comm time (s)", false, C, "TPU/XLA total communication op time"),
            e("avg_comm_kernel_time_s", "Avg comm op (s)", false, C, "TPU/XLA mean communication op time"),
            e("compute_utilization_proxy", "Compute util proxy", true, G, "TPU/XLA compute time over wall time"),
            e("num_comm_kernels", "Comm ops", false, C, "TPU/XLA communication ops"),
            e("num_comm_kernels_w_size_and_time", "Comm ops with size", false, C, "TPU/XLA communication ops with size and time"),
            e("avg_comm_bandwidth_GBps", "Avg comm BW (GB/s)", true, C, "TPU/XLA mean communication bandwidth"),
            e("allreduce_comm_time_s", "AllReduce time (s)", false, C, "TPU/XLA all-reduce time"),
            e("achieved_flops_from_trace_json", "Achieved FLOP/s", true, X, "TPU/XLA FLOPs from the trace over time"),
            e("total_model_flops_from_args", "Model FLOPs", false, X, "TPU/XLA model FLOPs from op args"),
            e("flops_per_token_used", "FLOPs/token", false, X, "FLOPs per token used for the estimate"),
            e("estimated_total_tokens", "Tokens (est.)", true, X, "Estimated tokens processed"),
            e("estimated_throughput_tokens_per_s", "Throughput est. (tok/s)", true, X, "Estimated tokens per second"),
            e("peak_allocated_bytes", "Peak allocated", false, M, "Peak allocated bytes in the memory snapshot replay (requested sizes)"),
            e("peak_reserved_bytes", "Peak reserved", false, M, "Peak reserved bytes in the memory snapshot replay"),
            e("memory_efficiency", "Memory efficiency", true, M, "Allocated over reserved at peak allocation"),
            e("fragmentation", "Fragmentation", false, M, "1 - largest inactive block / inactive bytes"),
            e("internal_waste_bytes", "Internal waste", false, M, "Bytes allocated beyond requested sizes"),
            e("alloc_count", "Allocations", false, M, "Allocations in the snapshot trace"),
            e("free_count", "Frees", false, M, "Frees in the snapshot trace"),
            e("alloc_rate_per_s", "Alloc rate (1/s)", false, M, "Allocations per second of trace"),
            e("oom_count", "OOMs", false, M, "Out-of-memory events"),
            e("largest_alloc_bytes", "Largest alloc", false, M, "Largest single allocation"),
            e("telemetry_overlap", "Telemetry overlap", true, C, "AORTA telemetry: overlap ratio of communication with compute"),
            e("telemetry_stream_ms", "Telemetry stream (ms)", false, C, "AORTA telemetry: time per stream"));

    private static Map.Entry<String, Info> e(String name, String label, boolean higher, String category, String description) {
        return Map.entry(name, new Info(label, higher, category, description));
    }
}
