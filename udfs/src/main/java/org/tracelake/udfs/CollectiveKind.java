package org.tracelake.udfs;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which collective a communication activity performs (METRICS.md section 2). Bus bandwidth factors,
 * message-size completion and the cross-rank join all key on this value.
 */
public final class CollectiveKind {

    public static final String ALL_REDUCE = "all_reduce";
    public static final String ALL_GATHER = "all_gather";
    public static final String REDUCE_SCATTER = "reduce_scatter";
    public static final String ALL_TO_ALL = "all_to_all";
    public static final String BROADCAST = "broadcast";
    public static final String REDUCE = "reduce";
    public static final String SEND_RECV = "send_recv";
    public static final String BARRIER = "barrier";
    public static final String OTHER = "other";

    private record Rule(String kind, Pattern pattern) {}

    /**
     * One ordered table for every spelling: PyTorch {@code Collective name} values ("allreduce",
     * "_allgather_base", "reduce_scatter_tensor_coalesced", "alltoall_base", "send", "recvAnySource",
     * "_broadcast_oop", "_reduce_oop", "barrier"), NCCL kernels ("ncclDevKernel_AllReduce_Sum_f16_RING_LL",
     * "ncclKernel_SendRecv_…"), annotations and ops ("nccl:_all_gather_base", "c10d::alltoall_base_") and
     * XLA ops ("all-gather-start.1", "collective-permute-done"). The order matters: the compound names
     * (all_to_all, reduce_scatter, all_gather, all_reduce) must win over their parts (reduce, gather).
     * A letter may not precede the short words, so "AllReduce" is never read as "reduce".
     */
    private static final List<Rule> RULES = List.of(
            rule(ALL_TO_ALL, "all[_-]?to[_-]?all"),
            new Rule(ALL_TO_ALL, CommunicationNames.DEEP_EP), // MoE dispatch/combine is all-to-all traffic
            rule(REDUCE_SCATTER, "reduce[_-]?scatter"),
            rule(ALL_GATHER, "all[_-]?gather"),
            rule(ALL_REDUCE, "all[_-]?reduce|cross_device_reduce"), // cross_device_reduce: vLLM custom all-reduce
            rule(SEND_RECV, "send[_-]?recv|collective-permute|(?<![a-z])(?:send|recv)"),
            rule(BROADCAST, "broadcast"),
            rule(REDUCE, "(?<![a-z])reduce"),
            rule(BARRIER, "barrier"),
            // gather/scatter are real collectives with no kind of their own.
            rule(OTHER, "(?<![a-z])(?:gather|scatter)"));

    /** PyTorch records a {@code wait} with {@code Group size} 1 under the same arg: not a collective. */
    private static final String WAIT = "wait";

    private CollectiveKind() {}

    /**
     * @param collectiveNameArg the {@code Collective name} arg; it decides when a rule reads it. "wait" and
     *     blank are ignored (a {@code wait} record is not a collective); any other value no rule reads still
     *     marks a collective, so the result is at least "other"
     * @param kernelName the activity name (NCCL/RCCL kernel, XLA op, or an hlo category)
     * @param launchingOpName the CPU op or annotation that launched it ("nccl:all_to_all", "c10d::allreduce_")
     * @return a kind; "other" for communication whose kind cannot be told (RCCL {@code ncclDevKernel_Generic_1});
     *     null when neither the arg nor the names are communication (a compute kernel under a c10d op included)
     */
    public static String of(String collectiveNameArg, String kernelName, String launchingOpName) {
        String fromArg = firstRule(collectiveNameArg);
        if (fromArg != null) {
            return fromArg;
        }
        // An arg we cannot read still says "this is a collective" (wait records excepted).
        String fallback = isCollectiveArg(collectiveNameArg) ? OTHER : null;
        String fromKernel = fromName(kernelName);
        if (SEND_RECV.equals(fromKernel)) {
            // Older NCCL runs every collective as ncclKernel_SendRecv_* (and NCCL has no AllToAll kernel at all):
            // the launching op (nccl:all_reduce, c10d::_allgather_base_, …) says which collective it was. Only an
            // op that also says send/recv, or names no kind, leaves it send_recv (METRICS.md §2).
            String fromOp = launchingOpKind(launchingOpName);
            return fromOp != null ? fromOp : SEND_RECV;
        }
        if (fromKernel != null && !OTHER.equals(fromKernel)) {
            return fromKernel;
        }
        if (fromKernel == null && kernelName != null && !kernelName.isBlank()) {
            // A compute kernel under a c10d op (a pre-collective copy, say) is not a collective.
            return fallback;
        }
        // The kernel is comm without a kind (RCCL Generic), or absent: the launching op may still tell.
        String fromOp = fromName(launchingOpName);
        if (fromOp != null && (fromKernel == null || !OTHER.equals(fromOp))) {
            return fromOp;
        }
        return fromKernel != null ? fromKernel : fallback;
    }

    /**
     * The kind a launching op names, when it names one other than "other": the ops of a kernel come as one
     * blank-separated string ("c10d::allreduce_ record_param_comms nccl:all_reduce "), and the name rules read it
     * whole. Null for no op, or ops that name no kind (record_param_comms alone).
     */
    private static String launchingOpKind(String launchingOpName) {
        String kind = firstRule(launchingOpName);
        return OTHER.equals(kind) ? null : kind;
    }

    /** A {@code Collective name} that is present and not the non-collective {@code wait}. */
    private static boolean isCollectiveArg(String collectiveNameArg) {
        return collectiveNameArg != null
                && !collectiveNameArg.isBlank()
                && !WAIT.equalsIgnoreCase(collectiveNameArg.trim());
    }

    /** The kind named by an XLA {@code hlo_category}; null unless it names a collective ("broadcast" does not). */
    public static String fromHloCategory(String hloCategory) {
        return CommunicationNames.isXlaCollective(hloCategory) ? kindOrOther(hloCategory) : null;
    }

    /** Kind from a name that is communication by any of our name rules; null for non-communication. */
    private static String fromName(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        boolean comm = CommunicationNames.isCommName(name)
                || CommunicationNames.isXlaCollective(name)
                || CommOpNames.isCommOp(name); // CPU ops the activity-name rule does not cover (c10d::*, …)
        return comm ? kindOrOther(name) : null;
    }

    private static String kindOrOther(String name) {
        String kind = firstRule(name);
        return kind != null ? kind : OTHER;
    }

    private static String firstRule(String s) {
        if (s == null) {
            return null;
        }
        for (Rule r : RULES) {
            if (r.pattern().matcher(s).find()) {
                return r.kind();
            }
        }
        return null;
    }

    private static Rule rule(String kind, String regex) {
        return new Rule(kind, Pattern.compile(regex, Pattern.CASE_INSENSITIVE));
    }
}
