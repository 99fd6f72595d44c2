package org.tracelake.jobs.metrics;

/**
 * One handle per metric of {@code metrics/catalog.csv}, for the families to write rows through
 * ({@code w.add(Metrics.ITER_TIME.figure("avg_ms").at(rank).value(v))}): each is checked against the catalog when this
 * class loads, and MetricsTest checks that the catalog has no metric without one. Below them, the figures the
 * families write that the catalog does not list, with their units: each is written only at rank, step or key scope,
 * where the catalog (one row per workload-scope figure) has no line for it.
 */
public final class Metrics {
    private Metrics() {}

    public static final Metric COLL_CALL_NUM = Metric.of("coll_call_num");
    public static final Metric COMM_BYTES_TOTAL = Metric.of("comm_bytes_total");
    public static final Metric COLLECTIVE_VOL_ALLREDUCE_GB = Metric.of("collective_vol_allreduce_gb");
    public static final Metric COLLECTIVE_VOL_ALLGATHER_GB = Metric.of("collective_vol_allgather_gb");
    public static final Metric COLLECTIVE_VOL_REDUCESCATTER_GB = Metric.of("collective_vol_reducescatter_gb");
    public static final Metric COLLECTIVE_VOL_ALLTOALL_GB = Metric.of("collective_vol_alltoall_gb");
    public static final Metric COLLECTIVE_VOL_TOTAL_GB = Metric.of("collective_vol_total_gb");
    public static final Metric COMM_TIME_S = Metric.of("comm_time_s");
    public static final Metric TOTAL_COMMUNICATION_TIME = Metric.of("total_communication_time");
    public static final Metric COMMUNICATION_FRACTION = Metric.of("communication_fraction");
    public static final Metric BUSBW_GBPS = Metric.of("busbw_gbps");
    public static final Metric WAIT_FREE_BUSBW_GBPS = Metric.of("wait_free_busbw_gbps");
    public static final Metric BANDWIDTH_UTILIZATION_ALLGATHER = Metric.of("bandwidth_utilization_allgather");
    public static final Metric BANDWIDTH_UTILIZATION_ALLREDUCE = Metric.of("bandwidth_utilization_allreduce");
    public static final Metric BANDWIDTH_UTILIZATION_REDUCESCATTER = Metric.of("bandwidth_utilization_reducescatter");
    public static final Metric BANDWIDTH_UTILIZATION_ALLTOALL = Metric.of("bandwidth_utilization_alltoall");
    public static final Metric HOCKNEY_ALPHA_S = Metric.of("hockney_alpha_s");
    public static final Metric HOCKNEY_BETA_S_PER_BYTE = Metric.of("hockney_beta_s_per_byte");
    public static final Metric HOCKNEY_INVERSE_BETA_BPS = Metric.of("hockney_inverse_beta_Bps");
    public static final Metric COMM_COMP_OVERLAP = Metric.of("comm_comp_overlap");
    public static final Metric TIME_BREAKDOWN = Metric.of("time_breakdown");
    public static final Metric COMPUTE_COMM_OVERLAP = Metric.of("compute_comm_overlap");
    public static final Metric GPU_UTILIZATION = Metric.of("gpu_utilization");
    public static final Metric AGGREGATE_GPU_UTILIZATION = Metric.of("aggregate_gpu_utilization");
    public static final Metric PIPELINE_BUBBLE = Metric.of("pipeline_bubble");
    public static final Metric STRAGGLER_LAG = Metric.of("straggler_lag");
    public static final Metric COLLECTIVE_WAIT = Metric.of("collective_wait");
    public static final Metric STRAGGLER = Metric.of("straggler");
    public static final Metric COMM_TIME_IMBALANCE = Metric.of("comm_time_imbalance");
    public static final Metric LOAD_IMBALANCE_RATIO = Metric.of("load_imbalance_ratio");
    public static final Metric ITER_TIME_SKEW_MS = Metric.of("iter_time_skew_ms");
    public static final Metric ITER_TIME = Metric.of("iter_time");
    public static final Metric AVG_STEP_TIME = Metric.of("avg_step_time");
    public static final Metric THROUGHPUT_TOKENS = Metric.of("throughput_tokens");
    public static final Metric MFU = Metric.of("mfu");
    public static final Metric TTFT = Metric.of("ttft");
    public static final Metric TPOT = Metric.of("tpot");
    public static final Metric KERNEL_TIME_S = Metric.of("kernel_time_s");
    public static final Metric KERNEL_BREAKDOWN = Metric.of("kernel_breakdown");
    public static final Metric CPU_OVERHEAD = Metric.of("cpu_overhead");
    public static final Metric PHASE_TIME_MS = Metric.of("phase_time_ms");
    public static final Metric FSDP_ALL_GATHER = Metric.of("fsdp_all_gather");
    public static final Metric FSDP_REDUCE_SCATTER = Metric.of("fsdp_reduce_scatter");
    public static final Metric FSDP_COPY_IN = Metric.of("fsdp_copy_in");
    public static final Metric FSDP_COPY_OUT = Metric.of("fsdp_copy_out");
    public static final Metric FSDP_PRE_FORWARD = Metric.of("fsdp_pre_forward");
    public static final Metric FSDP_POST_FORWARD = Metric.of("fsdp_post_forward");
    public static final Metric FSDP_PRE_BACKWARD = Metric.of("fsdp_pre_backward");
    public static final Metric FSDP_POST_BACKWARD = Metric.of("fsdp_post_backward");
    public static final Metric FSDP_PREFETCH_OVERLAP = Metric.of("fsdp_prefetch_overlap");
    public static final Metric TRAFFIC_DISTRIBUTION = Metric.of("traffic_distribution");
    public static final Metric DOMINANT_KERNEL_CONCENTRATION = Metric.of("dominant_kernel_concentration");
    public static final Metric MOE_FRACTION = Metric.of("moe_fraction");
    public static final Metric MEAN_SM_COVERAGE = Metric.of("mean_sm_coverage");
    public static final Metric MEMORY_TRANSFER_OVERHEAD = Metric.of("memory_transfer_overhead");
    public static final Metric MEMCPY_EXPOSED_PCT = Metric.of("memcpy_exposed_pct");
    public static final Metric AVERAGE_MEMORY_BANDWIDTH = Metric.of("average_memory_bandwidth");
    public static final Metric SCALE_UP_BW_UTILITY = Metric.of("scale_up_bw_utility");
    public static final Metric WALL_TIME_S = Metric.of("wall_time_s");
    public static final Metric TOTAL_COMPUTE_TIME_S = Metric.of("total_compute_time_s");
    public static final Metric TOTAL_COMM_TIME_S = Metric.of("total_comm_time_s");
    public static final Metric AVG_COMM_KERNEL_TIME_S = Metric.of("avg_comm_kernel_time_s");
    public static final Metric COMPUTE_UTILIZATION_PROXY = Metric.of("compute_utilization_proxy");
    public static final Metric NUM_COMM_KERNELS = Metric.of("num_comm_kernels");
    public static final Metric NUM_COMM_KERNELS_W_SIZE_AND_TIME = Metric.of("num_comm_kernels_w_size_and_time");
    public static final Metric AVG_COMM_BANDWIDTH_GBPS = Metric.of("avg_comm_bandwidth_GBps");
    public static final Metric ALLREDUCE_COMM_TIME_S = Metric.of("allreduce_comm_time_s");
    public static final Metric ACHIEVED_FLOPS_FROM_TRACE_JSON = Metric.of("achieved_flops_from_trace_json");
    public static final Metric TOTAL_MODEL_FLOPS_FROM_ARGS = Metric.of("total_model_flops_from_args");
    public static final Metric FLOPS_PER_TOKEN_USED = Metric.of("flops_per_token_used");
    public static final Metric ESTIMATED_TOTAL_TOKENS = Metric.of("estimated_total_tokens");
    public static final Metric ESTIMATED_THROUGHPUT_TOKENS_PER_S = Metric.of("estimated_throughput_tokens_per_s");
    public static final Metric PEAK_ALLOCATED_BYTES = Metric.of("peak_allocated_bytes");
    public static final Metric PEAK_RESERVED_BYTES = Metric.of("peak_reserved_bytes");
    public static final Metric MEMORY_EFFICIENCY = Metric.of("memory_efficiency");
    public static final Metric FRAGMENTATION = Metric.of("fragmentation");
    public static final Metric INTERNAL_WASTE_BYTES = Metric.of("internal_waste_bytes");
    public static final Metric ALLOC_COUNT = Metric.of("alloc_count");
    public static final Metric FREE_COUNT = Metric.of("free_count");
    public static final Metric ALLOC_RATE_PER_S = Metric.of("alloc_rate_per_s");
    public static final Metric OOM_COUNT = Metric.of("oom_count");
    public static final Metric LARGEST_ALLOC_BYTES = Metric.of("largest_alloc_bytes");
    public static final Metric TELEMETRY_OVERLAP = Metric.of("telemetry_overlap");
    public static final Metric TELEMETRY_STREAM_MS = Metric.of("telemetry_stream_ms");
    public static final Metric HANG_ROOT_RANKS = Metric.of("hang_root_ranks");
    public static final Metric HUNG_GROUPS = Metric.of("hung_groups");
    public static final Metric ALL_TO_ALL_IMBALANCE = Metric.of("all_to_all_imbalance");
    public static final Metric COMM_LOCALITY = Metric.of("comm_locality");
    public static final Metric LATENESS_CAUSE = Metric.of("lateness_cause");
    public static final Metric LATENESS_TOP_KERNEL = Metric.of("lateness_top_kernel");
    public static final Metric GPU_SLOWNESS = Metric.of("gpu_slowness");
    public static final Metric IDLE_BREAKDOWN = Metric.of("idle_breakdown");
    public static final Metric KERNEL_STEP_TIME_MS = Metric.of("kernel_step_time_ms");
    public static final Metric STREAM_OVERRUN_MS = Metric.of("stream_overrun_ms");
    public static final Metric MISSING_GPU_ACTIVITIES = Metric.of("missing_gpu_activities");

    /** A catalog entry's figure (the rows that say why a workload lacks a figure: Gaps). */
    public static Figure of(MetricCatalog.Entry e) {
        return new Figure(e.metric(), e.figure(), e.unit());
    }

    /** A step's duration (iter_time's rank and workload rows are figures over these: avg_ms, min_ms ...). */
    public static final Figure ITER_TIME_OF_STEP = ITER_TIME.unlisted(null, "ms");

    /** A rank's idle GPU time within its span (gpu_utilization's per-rank complement). */
    public static final Figure GPU_UTILIZATION_IDLE_MS = GPU_UTILIZATION.unlisted("idle_ms", "ms");

    /** A rank's share of the matched instances it arrived last at. */
    public static final Figure STRAGGLER_LAG_LAST_ARRIVAL_SHARE = STRAGGLER_LAG.unlisted("last_arrival_share", "ratio");

    /** A rank's share of the matched instances it arrived first at (and so waited longest). */
    public static final Figure COLLECTIVE_WAIT_FIRST_ARRIVAL_SHARE =
            COLLECTIVE_WAIT.unlisted("first_arrival_share", "ratio");

    /** A rank's slowness score (the workload's figures are the largest of them and its rank). */
    public static final Figure GPU_SLOWNESS_SCORE = GPU_SLOWNESS.unlisted("score", "ratio");

    /** A rank's share of its late arrivals by cause (the workload row is the straggler's largest, keyed by cause). */
    public static final Figure LATENESS_CAUSE_DEVICE = LATENESS_CAUSE.unlisted("device", "fraction");

    public static final Figure LATENESS_CAUSE_HOST = LATENESS_CAUSE.unlisted("host", "fraction");
    public static final Figure LATENESS_CAUSE_UPSTREAM = LATENESS_CAUSE.unlisted("upstream", "fraction");
    public static final Figure LATENESS_CAUSE_UNEXPLAINED = LATENESS_CAUSE.unlisted("unexplained", "fraction");

    /** How many of a rank's late arrivals have a cause. */
    public static final Figure LATENESS_CAUSE_EXPLAINED = LATENESS_CAUSE.unlisted("explained_instances", "count");

    /** One all_to_all instance's imbalance, keyed by the instance. */
    public static final Figure ALL_TO_ALL_IMBALANCE_INSTANCE = ALL_TO_ALL_IMBALANCE.unlisted("instance", "ratio");

    /** One collective instance's wait-free bus bandwidth, keyed by the instance. */
    public static final Figure WAIT_FREE_BUSBW_INSTANCE = WAIT_FREE_BUSBW_GBPS.unlisted("instance", "GB/s");
}
