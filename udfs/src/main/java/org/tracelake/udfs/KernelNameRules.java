package org.tracelake.udfs;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Name rules that single metrics use (METRICS.md §4, kernel-level leaderboard metrics), kept here with the other
 * classification rules so SQL and Java agree.
 */
public final class KernelNameRules {
    private KernelNameRules() {}

    /** memory_transfer_overhead's copy kernels; case-insensitive, as CCL-Bench's _MEMCPY_RE (re.IGNORECASE). */
    private static final Pattern COPY = Pattern.compile(
            "memcpy|memset|copy_kernel|copy\\.|copy-start|copy-done|\\bdma\\b", Pattern.CASE_INSENSITIVE);

    /** CCL-Bench's _COMM_RE: the names memory_transfer_overhead leaves out of compute. Case-insensitive. */
    private static final Pattern CCL_BENCH_COMM = Pattern.compile(
            "nccl|ncclKernel|ncclDevKernel|allreduce|allgather|reducescatter|broadcast|cross[_\\-]?device|all_reduce"
                    + "|all_gather|reduce_scatter|sendrecv",
            Pattern.CASE_INSENSITIVE);

    /** The Kineto categories CCL-Bench's memory_transfer_overhead reads (absent counts too): no gpu_memcpy/memset. */
    private static final Set<String> CCL_BENCH_EVENT_CATS = Set.of("kernel", "Op", "gpu_op", "device_op");

    /** straggler (CCL-Bench) counts only kernels named ncclDevKernel_*, case-insensitive. */
    private static final String NCCL_DEV_KERNEL_PREFIX = "nccldevkernel_";

    /** moe_fraction's MoE kernels, case-insensitive. */
    private static final Pattern MOE = Pattern.compile(
            "moe|expert|routing|gating|gate_|topk|fused_expert|expert_kernel|dispatchkernel|combinekernel|grouped_gemm|dispatch|combine",
            Pattern.CASE_INSENSITIVE);

    private static final NameMemo<Boolean> COPY_BY_NAME =
            new NameMemo<>(n -> n != null && COPY.matcher(n).find());
    private static final NameMemo<Boolean> CCL_BENCH_COMM_BY_NAME =
            new NameMemo<>(n -> n != null && CCL_BENCH_COMM.matcher(n).find());
    private static final NameMemo<Boolean> MOE_BY_NAME =
            new NameMemo<>(n -> n != null && MOE.matcher(n).find());

    public static boolean isCopyKernel(String name) {
        return COPY_BY_NAME.apply(name);
    }

    public static boolean isMoeKernel(String name) {
        return MOE_BY_NAME.apply(name);
    }

    /** A communication name by CCL-Bench's kernel regex (not our §2 classification, on purpose: parity). */
    public static boolean isCclBenchCommName(String name) {
        return CCL_BENCH_COMM_BY_NAME.apply(name);
    }

    /** An event memory_transfer_overhead (CCL-Bench) reads: `cat` kernel, Op, gpu_op, device_op or absent. */
    public static boolean isCclBenchEventCat(String cat) {
        return cat == null || CCL_BENCH_EVENT_CATS.contains(cat);
    }

    /** A kernel straggler (CCL-Bench) counts: its name starts with ncclDevKernel_, in any case. */
    public static boolean isNcclDevKernel(String name) {
        return name != null && name.regionMatches(true, 0, NCCL_DEV_KERNEL_PREFIX, 0, NCCL_DEV_KERNEL_PREFIX.length());
    }

    /**
     * A runtime or driver call that launches a kernel (cudaLaunchKernel, cudaLaunchKernelExC, cuLaunchKernel(Ex),
     * cudaLaunchCooperativeKernel, cudaGraphLaunch, hipLaunchKernel, hipExtLaunchKernel, hip(Ext)ModuleLaunchKernel, and
     * Nsight's versioned forms such as cudaLaunchKernel_v7000): each should have at least one GPU activity of its
     * correlation in the trace (missing_gpu_activities).
     */
    public static boolean isKernelLaunch(String name) {
        return KERNEL_LAUNCH_BY_NAME.apply(name);
    }

    private static final Pattern KERNEL_LAUNCH = Pattern.compile(
            "(?i)(^|[^a-z])(cuda|cu|hip|hipExt|hipModule|hipExtModule)Launch(Cooperative)?Kernel|GraphLaunch");
    private static final NameMemo<Boolean> KERNEL_LAUNCH_BY_NAME =
            new NameMemo<>(n -> n != null && KERNEL_LAUNCH.matcher(n).find());
}
