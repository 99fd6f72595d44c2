package org.tracelake.jobs.metrics.workload;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a metric of the catalog requires of a workload ({@code catalog.csv}'s requires column names one by its id):
 * what it needs, in words (the metric reference and the {@code metric_catalog} view), and why a workload does not
 * have it (the reason of the gap row {@link Gaps} writes when no family gave the metric a value), or null when it
 * does. A requirement of the card's kind of workload says the metric does not apply rather than that an input is
 * missing.
 */
public enum Requirement {
    KERNELS(
            "GPU activity (kernels, copies) in the traces",
            w -> Gaps.kernels(w) == 0 ? "no GPU kernels in the traces" : null),
    COMM(
            "communication kernels (NCCL/RCCL, XLA collectives, DeepEP)",
            w -> Gaps.commOps(w) == 0 ? Gaps.noCollectives(w) : null),
    COMM_SIZED(
            "communication with a known message size, group size >= 2 and duration > 0",
            w -> Gaps.sized(w) == 0 ? Gaps.unsized(w) : null),
    ALLREDUCE_FIT(
            ">= 5 all_reduce instances with known size and >= 2 distinct sizes",
            w -> "needs >= 5 all_reduce instances with known size and >= 2 distinct sizes"),
    RANK0("a trace of rank 0", Gaps::noRank0),
    STEPS(
            "step annotations: ProfilerStep#N, vLLM/SGLang/TPU-vLLM steps, or an XLA device Steps line",
            w -> Gaps.steps(w) == 0 ? StepFamily.noSteps(w) : null),
    MULTI_RANK("traces of two or more ranks", Gaps::notMultiRank),
    MATCHED(
            "collectives matched across two or more ranks (the straggler_lag join)",
            w -> Objects.requireNonNullElse(Gaps.noCollectivesToMatch(w), Gaps.NONE_MATCHED)),
    MATCHED_SIZED(
            "collectives matched across two or more ranks with a known message size and group size >= 2",
            Gaps::noneMatchedSized),
    TRAINING(true, "a training workload (card workload.model.phase)", w -> Gaps.notPhase(w, "training")),
    INFERENCE(
            true,
            "an inference workload (card workload.model.phase) with step annotations",
            w -> Gaps.notPhase(w, "inference")),
    CARD_MFU(
            "the card's model_arch (num_params, num_layers, num_heads, head_dim), batch and sequence length,"
                    + " total_count, and the device's peak FLOPS (conf/device_peak_flops.csv)",
            w -> Gaps.cardLacksMfu(w.card)),
    PHASES("forward/backward/optimizer annotations inside steps", Gaps::noPhases),
    GPU_ACTIVITY(
            "GPU activity of any kind (kernels, copies, XLA ops) in the traces", w -> "no GPU activity in the traces"),
    LAUNCH_LINKS("GPU activity linked to the runtime calls that launched it (correlation ids)", Gaps::noLaunchLinks),
    FSDP("FSDP::* annotations", w -> "no FSDP::* annotations in the traces"),
    SM_ARGS("kernels with the \"blocks per SM\" arg", w -> "no kernel carries the \"blocks per SM\" arg"),
    COPIES("GPU-side copies with a byte count", w -> "no GPU-side copy (memcpy activity) with a byte count"),
    XLA(true, "XLA/TPU device ops (XLA trace JSON or XSpace)", w -> "no XLA/TPU device ops in this workload"),
    MEMORY("a CUDA memory snapshot", w -> "no CUDA memory snapshot in this workload"),
    TELEMETRY(
            "AORTA iteration telemetry (rank_NN_metrics.jsonl)",
            w -> "no AORTA iteration telemetry (rank_NN_metrics.jsonl) in this workload"),
    FLIGHT_RECORDER(
            "NCCL Flight Recorder dumps",
            w -> "no NCCL Flight Recorder dump (_dump_N, nccl_trace_rank_N) in this workload"),
    A2A_SPLITS(
            "all_to_all with split sizes (Kineto In split size, or an execution trace)",
            w -> "no all_to_all carries split sizes (In split size args, or execution-trace all_to_allv splits)"),
    NODE_LAYOUT("the card's hardware.xpu_spec.count_per_node, and communication", Gaps::noNodeLayout),
    SIMULATOR(
            true,
            "a network simulator (not computed from traces)",
            w -> "a what-if of CCL-Bench's network simulator; tracelake computes only what the traces show");

    private final boolean applicability;
    private final String needs;
    private final Function<Workload, String> unmet;

    Requirement(String needs, Function<Workload, String> unmet) {
        this(false, needs, unmet);
    }

    Requirement(boolean applicability, String needs, Function<Workload, String> unmet) {
        this.applicability = applicability;
        this.needs = needs;
        this.unmet = unmet;
    }

    /** The name catalog.csv gives it. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What it asks of a workload, in words. */
    public String needs() {
        return needs;
    }

    /** Why the workload does not meet it, or null when it does. */
    public String unmet(Workload w) {
        return unmet.apply(w);
    }

    /** Whether, unmet, it makes the metric not applicable to the workload (rather than missing an input). */
    public boolean isApplicability() {
        return applicability;
    }

    /** The requirement catalog.csv names so. */
    public static Requirement of(String id) {
        for (Requirement r : values()) if (r.id().equals(id)) return r;
        throw new IllegalArgumentException("unknown requirement '" + id + "'");
    }
}
