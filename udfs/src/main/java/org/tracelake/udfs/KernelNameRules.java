package org.tracelake.udfs;

import java.util.regex.Pattern;

/**
 * Name rules that single metrics use (METRICS.md §4, kernel-level leaderboard metrics), kept here with the other
 * classification rules so SQL and Java agree.
 */
public final class KernelNameRules {
    private KernelNameRules() {}

    /** memory_transfer_overhead's copy kernels; case-sensitive as written in the contract. */
    private static final Pattern COPY = Pattern.compile(
            "memcpy|memset|copy_kernel|Memcpy|Memset|copy\\.|copy-start|copy-done|\\bdma\\b");

    /** moe_fraction's MoE kernels, case-insensitive. */
    private static final Pattern MOE = Pattern.compile(
            "moe|expert|routing|gating|gate_|topk|fused_expert|expert_kernel|dispatchkernel|combinekernel|grouped_gemm|dispatch|combine",
            Pattern.CASE_INSENSITIVE);

    private static final NameMemo<Boolean> COPY_BY_NAME = new NameMemo<>(n -> n != null && COPY.matcher(n).find());
    private static final NameMemo<Boolean> MOE_BY_NAME = new NameMemo<>(n -> n != null && MOE.matcher(n).find());

    public static boolean isCopyKernel(String name) {
        return COPY_BY_NAME.apply(name);
    }

    public static boolean isMoeKernel(String name) {
        return MOE_BY_NAME.apply(name);
    }
}
