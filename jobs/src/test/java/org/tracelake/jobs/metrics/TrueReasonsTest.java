package org.tracelake.jobs.metrics;

import static org.tracelake.jobs.testing.KinetoTraceBuilder.collectiveArgs;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 14 item 7: a missing value's reason says what is really missing.
 * <ul>
 *   <li>{@code no_steps} imitates ../shared/traces/kineto/hta-nccl-args-rank0of2 without its ProfilerStep
 *   annotations (as a trace of other hands had it): {@code Optimizer.step#SGD.step} and
 *   {@code autograd::engine::evaluate_function: AddmmBackward0} cpu_ops and a GEMM, but no step windows. Its
 *   phase_time_ms cannot be computed because the steps are missing, not the 2 annotations.</li>
 *   <li>{@code vllm_tp}: a 2-rank tensor-parallel inference step (vLLM's execute_context annotation) whose all_gather
 *   overlaps a GEMM: there is no FSDP, so fsdp_prefetch_overlap is missing like every fsdp_* metric, not 0.</li>
 * </ul>
 */
class TrueReasonsTest {
    @TempDir
    static Path tmp;

    static MetricRows m;

    @BeforeAll
    static void refresh() throws IOException {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        KinetoTraceBuilder noSteps = new KinetoTraceBuilder(0, 1)
                .cpu("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0", t(0), us(400), Map.of())
                .kernel("volta_sgemm_128x64_nt", 7, t(50), us(300), t(10), Map.of())
                .cpu("cpu_op", "Optimizer.step#SGD.step", t(500), us(200), Map.of());
        archive.write("no_steps", "rank0_trace.json", noSteps.toJson())
                .card("no_steps", "training", "dlrm", "NVIDIA V100", 1);
        for (int rank = 0; rank < 2; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2)
                    .cpu("user_annotation", "execute_context_0(8)_generation_0(8)", t(0), us(1000), Map.of())
                    .kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 7, t(100), us(400), t(20), Map.of())
                    .kernel(
                            "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                            20,
                            t(300),
                            us(300),
                            t(30),
                            collectiveArgs("_allgather_base", 4096, 8192, "BFloat16", 2, "0"));
            archive.write("vllm_tp", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("vllm_tp", "inference", "llama3-8b", "NVIDIA H100", 2);
        // SGLang's step annotation written in lower case: step[extend …] does not match ^step\[[A-Z]+
        KinetoTraceBuilder sglangLower = new KinetoTraceBuilder(0, 1)
                .cpu("user_annotation", "step[extend bs=8]", t(0), us(900), Map.of())
                .kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 7, t(100), us(400), t(20), Map.of());
        archive.write("sglang_lower", "rank0_trace.json", sglangLower.toJson())
                .card("sglang_lower", "inference", "llama3-8b", "AMD Instinct MI300X", 1);
        // Issue 46: a graph-replayed vLLM decode step. Its two kernels are launched inside the 2,400 µs annotation and
        // run after it ends; the all-reduce carries no size at all.
        KinetoTraceBuilder graphDecode = new KinetoTraceBuilder(0, 1)
                .cpu("user_annotation", "execute_context_0(0)_generation_8(8)", t(0), us(2400), Map.of())
                .kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 7, t(2450), us(2000), t(10), Map.of())
                .kernel(
                        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                        7,
                        t(4450),
                        us(500),
                        t(20),
                        Map.of());
        archive.write("graph_decode", "rank0_trace.json", graphDecode.toJson())
                .card("graph_decode", "inference", "llama3-8b", "NVIDIA H100", 1);
        // SGLang's first step decodes only; a diffusion model's first step prefills nothing either
        archive.write(
                        "sglang_decode",
                        "rank0_trace.json",
                        new KinetoTraceBuilder(0, 1)
                                .cpu("user_annotation", "step[DECODE bs=8]", t(0), us(900), Map.of())
                                .kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 7, t(100), us(400), t(20), Map.of())
                                .toJson())
                .card("sglang_decode", "inference", "llama3-8b", "NVIDIA H100", 1);
        archive.write(
                        "diffusion",
                        "rank0_trace.json",
                        new KinetoTraceBuilder(0, 1)
                                .cpu(
                                        "user_annotation",
                                        "execute_context_1(77)_generation_0(0)",
                                        t(0),
                                        us(900),
                                        Map.of())
                                .kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 7, t(100), us(400), t(20), Map.of())
                                .toJson())
                .card("diffusion", "inference", "stable-diffusion-3", "NVIDIA H100", 1);
        // a card that gives no phase
        archive.write("no_phase", "rank0_trace.json", noSteps.toJson())
                .write(
                        "no_phase",
                        "no_phase.yaml",
                        String.join(
                                "\n",
                                "workload:",
                                "  model:",
                                "    model_family: llama3-8b",
                                "  hardware:",
                                "    xpu_spec:",
                                "      type: GPU",
                                "      model: NVIDIA H100",
                                "      total_count: 1",
                                ""));
        archive.write("xspace_2_of_8", "host0.xplane.pb", org.tracelake.jobs.testing.PartlyProfiledXSpace.bytes())
                .card("xspace_2_of_8", "training", "jax-conv", "AMD Instinct MI300X", 8);
        archive.refresh(spark);
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    /**
     * METRICS.md §1 (a step's GPU span): the step [0, 2400) µs launched a GEMM [2450, 4450) and an all-reduce
     * [4450, 4950) µs. Its span is 0 → 4950 µs, busy 2500 µs: pipeline_bubble = 1 − 2500/4950 (it was 1.0 over the
     * annotation alone); gpu_span_ms 4.95 beside iter_time 2.4. No kernel overlaps the window, so
     * communication_fraction is over the step's own kernels: 500 / (2000 + 500) = 20 % (it was "not computable").
     */
    @Test
    void graphReplayedStepsAreMeasuredOverTheirGpuSpan() {
        String w = "graph_decode";
        m.ok(2.4, w, "iter_time", null, "step", 0, 0L, null);
        m.ok(4.95, w, "iter_time", "gpu_span_ms", "step", 0, 0L, null);
        m.ok(1 - 2500.0 / 4950, w, "pipeline_bubble", "bubble_ratio", "step", 0, 0L, "gaps");
        m.ok(4.95, w, "pipeline_bubble", "total_time_ms", "step", 0, 0L, "gaps");
        m.workload(20.0, w, "communication_fraction", null);
        // every size unknown: no sum at all, not 0.0 "partial"
        m.gap("missing_input", "none of the 1 collective instances has a known size", w, "comm_bytes_total", null);
    }

    /** METRICS.md §4: ttft only for a first step that prefills, and tpot's reason names the one step it had. */
    @Test
    void ttftNeedsAPrefillAndEveryReasonNamesWhatFailed() {
        m.gap(
                "not_meaningful",
                "the first step, 'execute_context_0(0)_generation_8(8)', carries no prefill",
                "graph_decode",
                "ttft",
                null);
        m.gap(
                "missing_input",
                "single inference step ('execute_context_0(0)_generation_8(8)')",
                "graph_decode",
                "tpot",
                null);
        m.gap(
                "not_meaningful",
                "the first step, 'step[DECODE bs=8]', carries no prefill",
                "sglang_decode",
                "ttft",
                null);
        m.gap("not_meaningful", "(stable-diffusion-3) is a diffusion model", "diffusion", "ttft", null);
        // a card without a phase: the one reason, for training and inference metrics alike
        String noPhase = "the card gives no workload.model.phase";
        m.gap("not_applicable", noPhase, "no_phase", "throughput_tokens", "tokens_per_s");
        m.gap("not_applicable", noPhase, "no_phase", "ttft", null);
    }

    @Test
    void phasesWithoutStepsSayTheStepsAreMissing() {
        m.gap(
                "missing_input",
                "2 forward/backward/optimizer annotations, but no step windows",
                "no_steps",
                "phase_time_ms",
                null);
    }

    /**
     * Issue 32 item 6: an XSpace of eight GPU planes of which only GPU:4 and GPU:6 hold events is two ranks, and its
     * collective figures say no trace has collectives (not "no rank 0"). GPU utilization per rank: kernels [1000,
     * 2000) and [6000, 8000) ns: busy 3000 of a 7000 ns span = 300/7 %.
     */
    @Test
    void devicePlanesWithoutEventsAreNotRanks() {
        String w = "xspace_2_of_8";
        var perRank = m.at(w, "gpu_utilization", null, "rank");
        org.junit.jupiter.api.Assertions.assertEquals(
                java.util.List.of(4, 6),
                perRank.stream().map(r -> r.getInt(6)).sorted().toList());
        m.ok(300.0 / 7, w, "gpu_utilization", null, "rank", 4, null, null);
        m.gap(
                "missing_input",
                "no trace with collectives in this workload (ranks 4, 6 hold events",
                w,
                "collective_vol_allreduce_gb",
                null);
        m.assertNoImpossibleValues(java.util.Map.of(w, "AMD Instinct MI300X", "vllm_tp", "NVIDIA H100"));
    }

    /**
     * Issue 32 item 4: with no step found, ttft and iter_time say what was looked for and name the annotation that came
     * nearest: 'step[extend bs=8]' differs from SGLang's step[EXTEND …] only in case.
     */
    @Test
    void noStepReasonNamesTheNearestAnnotation() {
        String near = "the nearest annotation seen is 'step[extend bs=8]' (rank 0), which does not match the"
                + " step[<MODE> …] form";
        m.gap("missing_input", near, "sglang_lower", "ttft", null);
        m.gap(
                "missing_input",
                "looked for ProfilerStep#<N>; vLLM execute_context_",
                "sglang_lower",
                "iter_time",
                "avg_ms");
        m.gap("missing_input", near, "sglang_lower", "iter_time", "avg_ms");
    }

    @Test
    void anInferenceTraceWithoutFsdpHasNoFsdpPrefetchOverlap() {
        m.gap("missing_input", "no FSDP::* annotations in the traces", "vllm_tp", "fsdp_prefetch_overlap", null);
        m.gap("missing_input", "no FSDP::* annotations in the traces", "vllm_tp", "fsdp_all_gather", null);
        m.assertNoNullIsOk();
    }
}
