package org.tracelake.udfs;

import java.util.regex.Pattern;

/**
 * The name rules that say "this is communication". Kept in one class because both {@link ActivityClass}
 * (is it comm?) and {@link CollectiveKind} (which collective?) must agree on them.
 */
final class CommunicationNames {

    /** METRICS.md section 2, class rule 1, copied verbatim; case-insensitive, matched anywhere (find). */
    private static final Pattern COMM_NAME = Pattern.compile(
            "^nccl|^rccl|nccl(Dev)?Kernel|^msccl|mscclpp|cross_device_reduce|all_?reduce|all_?gather"
                    + "|reduce_?scatter|all_?to_?all|sendrecv|collective-permute",
            Pattern.CASE_INSENSITIVE);

    /**
     * DeepEP kernels that move MoE tokens between ranks without NCCL (METRICS.md §2, FORMATS.md pitfall): a function of
     * the {@code ep::} namespace named dispatch or combine, or their {@code notify_*} / {@code cached_notify_*} forms
     * ({@code dpsk::ep::internode::dispatch}, {@code deep_ep::intranode::combine}, {@code notify_dispatch}). Its layout
     * and index kernels ({@code get_dispatch_layout}) compute locally and are not communication. The {@code ep::}
     * namespace must start a name component, so {@code step::dispatch} does not count.
     */
    static final Pattern DEEP_EP = Pattern.compile(
            "(?:^|[^a-z0-9])ep::(?:[a-z0-9_]+::)*(?:cached_)?(?:notify_)?(?:dispatch|combine|notify)(?![a-z0-9_])",
            Pattern.CASE_INSENSITIVE);

    /**
     * An XLA collective as an {@code hlo_category} value or an XLA op name: the base op, optionally with
     * a {@code -start}/{@code -done} suffix, a {@code .N} instance number or a {@code fusion} suffix
     * ("all-reduce", "all-gather-start.3", "all-reduce fusion", "send-done.1"). Anchored at the start so a
     * compute category that merely mentions a collective is not taken; XLA {@code broadcast} is a data
     * layout op, not a collective, so it is absent on purpose.
     */
    static final Pattern XLA_COLLECTIVE = Pattern.compile(
            "^%?(?:all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute|send|recv)(?:$|[-.\\s])",
            Pattern.CASE_INSENSITIVE);

    private CommunicationNames() {}

    /** The comm test on an activity name: METRICS.md's regex, plus DeepEP. */
    static boolean isCommName(String name) {
        return name != null
                && (COMM_NAME.matcher(name).find() || DEEP_EP.matcher(name).find());
    }

    /** Whether an {@code hlo_category} (or XLA op name) names a collective. */
    static boolean isXlaCollective(String hloCategoryOrOpName) {
        return hloCategoryOrOpName != null
                && XLA_COLLECTIVE.matcher(hloCategoryOrOpName.trim()).find();
    }
}
