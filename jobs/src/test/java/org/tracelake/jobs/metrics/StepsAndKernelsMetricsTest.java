package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.tracelake.jobs.testing.KinetoTraceBuilder.collectiveArgs;
import static org.tracelake.jobs.testing.TraceClock.T0;
import static org.tracelake.jobs.testing.TraceClock.ms;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Steps, throughput, efficiency and kernel metrics (METRICS.md §4, StepFamily and KernelFamily) on traces written
 * by hand: every expected number is worked out from the events below, the arithmetic in a comment. Times are ms
 * or µs after T0 as named; "[a, b)" is an event from a to b. One archive, one refresh, six workloads:
 * <ul>
 *   <li>{@code sk_train} (2 ranks, training card with model and data): rank 1 lacks ProfilerStep#3;
 *   <li>{@code sk_two} (1 rank, two steps): a card without batch_size, seq_len and num_layers;
 *   <li>{@code sk_vllm} (2 ranks, inference): vLLM {@code execute_context_*} steps;
 *   <li>{@code sk_vllm_gpu_copy} (1 rank, inference): one vLLM step and Kineto's GPU-side copy of it;
 *   <li>{@code sk_kernels} (2 ranks): kernels of every category, memcpys with bytes (rank 0 only), runtime and
 *       driver calls, phase annotations, an FSDP annotation set, blocks-per-SM args, MoE kernel names;
 *   <li>{@code sk_tp2} (4 ranks, card tp = 2): collectives over tp, dp, world, pipeline and expert groups.
 * </ul>
 */
class StepsAndKernelsMetricsTest {
    static final double REL = 1e-9;

    static final String GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_kernel";
    static final String MOE = "fused_moe_kernel";
    static final String TOPK = "topk_kernel";
    static final String ELEMENTWISE = "void at::native::vectorized_elementwise_kernel<4, add>";
    static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String ALL_GATHER = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String SEND_RECV = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";
    static final String MEMCPY = "Memcpy HtoD (Pinned -> Device)";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static List<Row> rows;
    static TestArchive archive;

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        writeTrain(archive);
        writeTwoSteps(archive);
        writeVllm(archive);
        writeVllmWithGpuCopy(archive);
        writeKernels(archive);
        writeTp2(archive);
        Refresh.Result result = archive.refresh(spark);
        assertNotNull(result);
        rows = spark.read()
                .format("iceberg")
                .load(archive.table("metrics"))
                .selectExpr(
                        "workload",
                        "metric",
                        "figure",
                        "value",
                        "unit",
                        "scope",
                        "rank",
                        "step",
                        "key",
                        "status",
                        "reason")
                .collectAsList();
        assertFalse(rows.isEmpty(), "the refresh wrote no metrics");
    }

    // ---------------------------------------------------------------------------------------------- workloads

    /**
     * sk_train. Rank 0 steps (ms): #1 [0, 10), #2 [10, 22), #3 [22, 36), #4 [36, 56) — 10, 12, 14, 20.
     * Rank 1: #1 [0, 11), #2 [11, 26), #4 [26, 43) — 11, 15, 17; no ProfilerStep#3.
     */
    static void writeTrain(TestArchive archive) {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2)
                .step(1, T0, ms(10))
                .step(2, T0 + ms(10), ms(12))
                .step(3, T0 + ms(22), ms(14))
                .step(4, T0 + ms(36), ms(20));
        r0.kernel(GEMM, 7, T0 + ms(1), ms(1), T0 + ms(1) - us(10), Map.of());
        KinetoTraceBuilder r1 = new KinetoTraceBuilder(1, 2)
                .step(1, T0, ms(11))
                .step(2, T0 + ms(11), ms(15))
                .step(4, T0 + ms(26), ms(17));
        r1.kernel(GEMM, 7, T0 + ms(1), ms(1), T0 + ms(1) - us(10), Map.of());
        archive.write("sk_train", "rank0_trace.json", r0.toJson()).write("sk_train", "rank1_trace.json", r1.toJson());
        archive.write(
                "sk_train",
                "sk_train.yaml",
                new Card("training", "NVIDIA H100", 2)
                        .arch("num_params", 1_000_000_000L)
                        .arch("num_params_embedding", 100_000_000L)
                        .arch("num_layers", 10)
                        .arch("num_heads", 8)
                        .arch("head_dim", 64)
                        .data("batch_size", 4)
                        .data("seq_len", 1000)
                        .yaml());
    }

    /** sk_two: one rank, ProfilerStep#7 [0, 8) and #8 [8, 20) ms; the card lacks batch_size, seq_len, num_layers. */
    static void writeTwoSteps(TestArchive archive) {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 1).step(7, T0, ms(8)).step(8, T0 + ms(8), ms(12));
        r0.kernel(GEMM, 7, T0 + ms(1), ms(1), T0 + ms(1) - us(10), Map.of());
        archive.write("sk_two", "rank0_trace.json", r0.toJson());
        archive.write(
                "sk_two",
                "sk_two.yaml",
                new Card("training", "NVIDIA H100", 1)
                        .arch("num_params", 1_000_000_000L)
                        .arch("num_heads", 8)
                        .arch("head_dim", 64)
                        .yaml());
    }

    /** sk_vllm: rank 0 execute_context steps of 50, 10, 12, 14 ms back to back; rank 1 of 40, 8 ms. */
    static void writeVllm(TestArchive archive) {
        long[][] durations = {{50, 10, 12, 14}, {40, 8}};
        for (int rank = 0; rank < 2; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2);
            long start = 0;
            for (int i = 0; i < durations[rank].length; i++) {
                b.cpu(
                        "user_annotation",
                        // vLLM counts prefill requests after "context_": the first step prefills (ttft, METRICS.md §4)
                        "execute_context_" + (i == 0 ? 1 : 0) + "(4)_generation_" + i + "(4)",
                        T0 + ms(start),
                        ms(durations[rank][i]),
                        Map.of());
                b.kernel(GEMM, 7, T0 + ms(start) + us(100), us(500), T0 + ms(start) + us(10), Map.of());
                start += durations[rank][i];
            }
            archive.write("sk_vllm", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.write(
                "sk_vllm",
                "sk_vllm.yaml",
                new Card("inference", "NVIDIA A100", 2)
                        .arch("num_params", 1_000_000_000L)
                        .arch("num_layers", 2)
                        .arch("num_heads", 4)
                        .arch("head_dim", 64)
                        .data("batch_size", 2)
                        .data("seq_len", 100)
                        .yaml());
    }

    /**
     * sk_vllm_gpu_copy, rank 0, times in ms, imitating the shape of the gpu_user_annotation copies in
     * traces/kineto/hta-nccl-args-rank0of2 (same name and External id as the CPU annotation, pid = device, tid =
     * stream, starting with the first kernel under it and ending with the last):
     * <pre>
     * execute_context_1(8)_generation_0(0)  user_annotation      [0, 30)   External id 1  — the one step (prefill only)
     * execute_context_1(8)_generation_0(0)  gpu_user_annotation  [2, 31)   stream 7, External id 1  — its GPU copy
     * GEMM [2, 12) launched at 0.5; GEMM [12, 31) launched at 3 (inside both windows, the copy having started later)
     * </pre>
     */
    static void writeVllmWithGpuCopy(TestArchive archive) {
        // vLLM names the prefill requests after "context_": one request of 8 prompt tokens (ttft, METRICS.md §4)
        String step = "execute_context_1(8)_generation_0(0)";
        KinetoTraceBuilder b = new KinetoTraceBuilder(0, 1)
                .cpu("user_annotation", step, T0, ms(30), Map.of("External id", 1))
                .gpuAnnotation(step, 7, T0 + ms(2), ms(29), 1);
        b.kernel(GEMM, 7, T0 + ms(2), ms(10), T0 + us(500), Map.of());
        b.kernel(GEMM, 7, T0 + ms(12), ms(19), T0 + ms(3), Map.of());
        archive.write("sk_vllm_gpu_copy", "rank0_trace.json", b.toJson());
        archive.write("sk_vllm_gpu_copy", "sk_vllm_gpu_copy.yaml", new Card("inference", "NVIDIA A100", 1).yaml());
    }

    /**
     * sk_kernels, times in µs, ProfilerStep#1 [0, 1000) on both ranks.
     * <pre>
     * rank 0  GEMM        [100, 400)  stream 7   blocks per SM 2.0    launched at 90
     *         MOE         [400, 500)  stream 7   blocks per SM 0.5    launched at 91
     *         ALL_REDUCE  [500, 700)  stream 20  (no arg)             launched at 92
     *         ELEMENTWISE [700, 750)  stream 7   blocks per SM 0.25   launched at 93
     *         memcpy      [50, 150)   stream 8   1,000,000 bytes
     *         memcpy      [800, 1000) stream 8   3,000,000 bytes
     *         cuLaunchKernel (cuda_driver) [94, 99); four cudaLaunchKernel of 1 µs (the launches above)
     *         ## forward ## [10, 200); autograd::engine::evaluate_function: [300, 400), [350, 450), [500, 520);
     *         Optimizer.step#AdamW.step [600, 700), Optimizer.zero_grad#AdamW.zero_grad [700, 720);
     *         a gpu_user_annotation "## forward ##" [0, 900) (the GPU-timeline copy: the forward's GPU time)
     *         FSDP::pre_forward [20, 60), FSDP::all_gather_copy_in [22, 30), FSDP::all_gather (layers.0) [30, 50),
     *         FSDP::all_gather_copy_out [50, 55), FSDP::all_gather (layers.1) [100, 130),
     *         FSDP::post_forward (layers.0) [190, 195), FSDP::pre_backward (layers.0) [290, 300),
     *         FSDP::post_backward (layers.0) [460, 500) around FSDP::post_backward_reduce (layers.0) [470, 490)
     *         and FSDP::post_backward_reshard (layers.0) [490, 495)
     * rank 1  GEMM        [250, 400)  stream 7   blocks per SM 1.5    launched at 240
     *         ALL_GATHER  [200, 300)  stream 20  (no arg)             launched at 241
     *         TOPK        [450, 500)  stream 7   (no arg)             launched at 242
     *         tiny_kernel_00 … tiny_kernel_10: [600 + 2i, 601 + 2i), no launch record
     *         cudaStreamSynchronize (cuda_runtime) [900, 950); three cudaLaunchKernel of 1 µs
     *         FSDP::all_gather (layers.0) [30, 60), FSDP::pre_forward [20, 70); no copies, no phases
     * </pre>
     */
    static void writeKernels(TestArchive archive) {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2).step(1, t(0), us(1000));
        r0.kernel(GEMM, 7, t(100), us(300), t(90), Map.of("blocks per SM", 2.0));
        r0.kernel(MOE, 7, t(400), us(100), t(91), Map.of("blocks per SM", 0.5));
        r0.kernel(ALL_REDUCE, 20, t(500), us(200), t(92), Map.of());
        r0.kernel(ELEMENTWISE, 7, t(700), us(50), t(93), Map.of("blocks per SM", 0.25));
        r0.memcpy(8, t(50), us(100), 1_000_000L);
        r0.memcpy(8, t(800), us(200), 3_000_000L);
        r0.cpu("cuda_driver", "cuLaunchKernel", t(94), us(5), Map.of());
        r0.cpu("user_annotation", "## forward ##", t(10), us(190), Map.of());
        r0.cpu("cpu_op", "autograd::engine::evaluate_function: MmBackward0", t(300), us(100), Map.of());
        r0.cpu("cpu_op", "autograd::engine::evaluate_function: MmBackward0", t(350), us(100), Map.of());
        r0.cpu("cpu_op", "autograd::engine::evaluate_function: AddBackward0", t(500), us(20), Map.of());
        r0.cpu("user_annotation", "Optimizer.step#AdamW.step", t(600), us(100), Map.of());
        r0.cpu("user_annotation", "Optimizer.zero_grad#AdamW.zero_grad", t(700), us(20), Map.of());
        r0.cpu("gpu_user_annotation", "## forward ##", t(0), us(900), Map.of());
        r0.cpu("user_annotation", "FSDP::pre_forward", t(20), us(40), Map.of());
        r0.cpu("user_annotation", "FSDP::all_gather_copy_in", t(22), us(8), Map.of());
        r0.cpu("user_annotation", "FSDP::all_gather (layers.0)", t(30), us(20), Map.of());
        r0.cpu("user_annotation", "FSDP::all_gather_copy_out", t(50), us(5), Map.of());
        r0.cpu("user_annotation", "FSDP::all_gather (layers.1)", t(100), us(30), Map.of());
        r0.cpu("user_annotation", "FSDP::post_forward (layers.0)", t(190), us(5), Map.of());
        r0.cpu("user_annotation", "FSDP::pre_backward (layers.0)", t(290), us(10), Map.of());
        r0.cpu("user_annotation", "FSDP::post_backward (layers.0)", t(460), us(40), Map.of());
        r0.cpu("user_annotation", "FSDP::post_backward_reduce (layers.0)", t(470), us(20), Map.of());
        r0.cpu("user_annotation", "FSDP::post_backward_reshard (layers.0)", t(490), us(5), Map.of());

        KinetoTraceBuilder r1 = new KinetoTraceBuilder(1, 2).step(1, t(0), us(1000));
        r1.kernel(GEMM, 7, t(250), us(150), t(240), Map.of("blocks per SM", 1.5));
        r1.kernel(ALL_GATHER, 20, t(200), us(100), t(241), Map.of());
        r1.kernel(TOPK, 7, t(450), us(50), t(242), Map.of());
        for (int i = 0; i <= 10; i++) {
            r1.kernelWithoutLaunch(
                    String.format(Locale.ROOT, "tiny_kernel_%02d", i), 7, t(600 + 2L * i), us(1), Map.of());
        }
        r1.cpu("cuda_runtime", "cudaStreamSynchronize", t(900), us(50), Map.of());
        r1.cpu("user_annotation", "FSDP::all_gather (layers.0)", t(30), us(30), Map.of());
        r1.cpu("user_annotation", "FSDP::pre_forward", t(20), us(50), Map.of());
        archive.write("sk_kernels", "rank0_trace.json", r0.toJson())
                .write("sk_kernels", "rank1_trace.json", r1.toJson());
        archive.write("sk_kernels", "sk_kernels.yaml", new Card("training", "NVIDIA H100", 2).yaml());
    }

    /**
     * sk_tp2: 4 ranks, card tp = 2 (pp 1). Rank r runs, all with dtype Float (4 bytes) and Process Group Ranks:
     * an all_reduce of 1000 elements over its tp group {2⌊r/2⌋, 2⌊r/2⌋+1}; an all_reduce of 500 over its dp group
     * {r mod 2, r mod 2 + 2}; an all_gather of 100 in / 400 out over {0, 1, 2, 3}; a send of 250 to a pipeline
     * peer; an all_to_all of 300 over {0, 1, 2, 3}.
     */
    static void writeTp2(TestArchive archive) {
        for (int r = 0; r < 4; r++) {
            int tpBase = 2 * (r / 2);
            KinetoTraceBuilder b = new KinetoTraceBuilder(r, 4).step(1, t(0), us(1000));
            b.kernel(ALL_REDUCE, 20, t(100), us(10), t(90), group("allreduce", 1000, 1000, "tp", tpBase, tpBase + 1));
            b.kernel(ALL_REDUCE, 21, t(200), us(10), t(91), group("allreduce", 500, 500, "dp", r % 2, r % 2 + 2));
            b.kernel(ALL_GATHER, 20, t(300), us(10), t(92), group("_allgather_base", 100, 400, "world", 0, 1, 2, 3));
            b.kernel(
                    SEND_RECV,
                    22,
                    t(400),
                    us(10),
                    t(93),
                    group("send", 250, 250, "pp", Math.min(r, r ^ 2), Math.max(r, r ^ 2)));
            b.kernel(SEND_RECV, 23, t(500), us(10), t(94), group("all_to_all", 300, 300, "world", 0, 1, 2, 3));
            archive.write("sk_tp2", "rank" + r + "_trace.json", b.toJson());
        }
        archive.write(
                "sk_tp2",
                "sk_tp2.yaml",
                new Card("training", "NVIDIA H100", 4)
                        .plan("tp", 2)
                        .plan("pp", 1)
                        .yaml());
    }

    static Map<String, Object> group(String collective, long in, long out, String pg, int... members) {
        Map<String, Object> a = new LinkedHashMap<>(collectiveArgs(collective, in, out, "Float", members.length, pg));
        a.put("Process Group Ranks", java.util.Arrays.toString(members));
        return a;
    }

    // ------------------------------------------------------------------------------------------------- steps

    @Test
    void iterTimePerRankPerStepIncludingARankMissingAStep() {
        // rank 0: 10, 12, 14, 20 ms; rank 1: 11, 15, 17 ms for steps 1, 2, 4 (no step 3 row).
        ok(10, "sk_train", "iter_time", null, "step", 0, 1L, null);
        ok(20, "sk_train", "iter_time", null, "step", 0, 4L, null);
        ok(15, "sk_train", "iter_time", null, "step", 1, 2L, null);
        ok(17, "sk_train", "iter_time", null, "step", 1, 4L, null);
        assertFalse(has("sk_train", "iter_time", null, "step", 1, 3L, null), "rank 1 has no step 3");
        assertEquals(7, at("sk_train", "iter_time", null, "step").size());
    }

    @Test
    void iterTimeWorkloadFiguresOverAllRankSteps() {
        // 7 values 10, 12, 14, 20, 11, 15, 17: Σ = 99, Σx² = 100+144+196+400+121+225+289 = 1475.
        ok(99.0 / 7, "sk_train", "iter_time", "avg_ms", "workload", null, null, null);
        ok(10, "sk_train", "iter_time", "min_ms", "workload", null, null, null);
        ok(20, "sk_train", "iter_time", "max_ms", "workload", null, null, null);
        // population std: sqrt(Σx²/n − mean²)
        ok(
                Math.sqrt(1475.0 / 7 - (99.0 / 7) * (99.0 / 7)),
                "sk_train",
                "iter_time",
                "std_ms",
                "workload",
                null,
                null,
                null);
        // per rank: rank 1 mean (11 + 15 + 17) / 3 = 43/3
        ok(43.0 / 3, "sk_train", "iter_time", "avg_ms", "rank", 1, null, null);
    }

    @Test
    void avgStepTimeTrimsEachRankWithMoreThanTwoSteps() {
        // rank 0: drop 10 and 20 → (12 + 14) / 2 = 13 ms; rank 1: drop 11 and 17 → 15 ms. Mean 14 ms = 0.014 s.
        ok(0.013, "sk_train", "avg_step_time", null, "rank", 0, null, null);
        ok(0.015, "sk_train", "avg_step_time", null, "rank", 1, null, null);
        ok(0.014, "sk_train", "avg_step_time", null, "workload", null, null, null);
    }

    @Test
    void avgStepTimeKeepsBothStepsWhenThereAreOnlyTwo() {
        // sk_two: 8 and 12 ms, nothing trimmed → 10 ms.
        ok(0.010, "sk_two", "avg_step_time", null, "workload", null, null, null);
    }

    @Test
    void throughputFromTheCard() {
        // batch 4 × seq 1000 = 4000 tokens per step ÷ 0.014 s; ÷ 2 devices.
        ok(4000 / 0.014, "sk_train", "throughput_tokens", "tokens_per_s", "workload", null, null, null);
        ok(4000 / 0.014 / 2, "sk_train", "throughput_tokens", "tokens_per_s_per_gpu", "workload", null, null, null);
        assertEquals(
                "tokens/s",
                one("sk_train", "throughput_tokens", "tokens_per_s", "workload", null, null, null)
                        .getString(4));
    }

    @Test
    void mfuFromTheCard() {
        // FLOP/token = 6(1e9 − 1e8) + 12·10·64·8·1000 = 5.4e9 + 61,440,000 = 5,461,440,000;
        // tokens/s = 4000 / 0.014; peak: H100 → 989e12 per device, 2 devices.
        double expected = 5_461_440_000.0 * (4000 / 0.014) / (989e12 * 2) * 100;
        ok(expected, "sk_train", "mfu", null, "workload", null, null, null);
    }

    @Test
    void cardGapsAreReasonRows() {
        missing("sk_two", "throughput_tokens", "tokens_per_s", "missing_input", "batch_size");
        missing("sk_two", "throughput_tokens", "tokens_per_s_per_gpu", "missing_input", "batch_size");
        missing("sk_two", "mfu", null, "missing_input", "num_layers");
        // inference: throughput is for training only (the gap filler's row)
        missing("sk_vllm", "throughput_tokens", "tokens_per_s", "not_applicable", "not a training workload");
        // training: ttft/tpot are for inference only
        missing("sk_train", "ttft", null, "not_applicable", "not an inference workload");
    }

    @Test
    void vllmTtftAndTpot() {
        // rank 0: ttft 50 ms; tpot = mean of the middle steps 10, 12 = 11 ms (14, the last, dropped).
        // rank 1: ttft 40 ms; two steps → tpot = the second, 8 ms.
        ok(0.050, "sk_vllm", "ttft", null, "rank", 0, null, null);
        ok(0.011, "sk_vllm", "tpot", null, "rank", 0, null, null);
        ok(0.008, "sk_vllm", "tpot", null, "rank", 1, null, null);
        ok((0.050 + 0.040) / 2, "sk_vllm", "ttft", null, "workload", null, null, null);
        ok((0.011 + 0.008) / 2, "sk_vllm", "tpot", null, "workload", null, null, null);
        // the execute_context ranges are the steps: iter_time per step, numbered in time order from 0
        ok(50, "sk_vllm", "iter_time", null, "step", 0, 0L, null);
        ok(14, "sk_vllm", "iter_time", null, "step", 0, 3L, null);
    }

    @Test
    void gpuSideCopyOfAStepAnnotationIsNoStep() {
        // METRICS.md §1: only the CPU annotation [0, 30) ms is a step. Counting the copy [2, 31) too gave two steps
        // (iter_time 30 and 29 ms, tpot 29 ms for a trace without a decode step) and put the GEMM launched at 3 ms
        // into the copy's phantom step 1.
        assertEquals(1, at("sk_vllm_gpu_copy", "iter_time", null, "step").size());
        ok(30, "sk_vllm_gpu_copy", "iter_time", null, "step", 0, 0L, null);
        ok(30, "sk_vllm_gpu_copy", "iter_time", "avg_ms", "workload", null, null, null);
        ok(0.030, "sk_vllm_gpu_copy", "ttft", null, "rank", 0, null, null);
        assertFalse(has("sk_vllm_gpu_copy", "tpot", null, "rank", 0, null, null), "one step: no decode step");
        missing("sk_vllm_gpu_copy", "tpot", null, "missing_input", "single inference step");
        // both kernels, launched at 0.5 and 3 ms, belong to step 0
        List<Row> kernelSteps = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = 'sk_vllm_gpu_copy' AND cat = 'kernel'")
                .select("step")
                .collectAsList();
        assertEquals(2, kernelSteps.size());
        kernelSteps.forEach(r -> assertEquals(0L, r.getLong(0)));
    }

    // ------------------------------------------------------------------------------------------------ kernels

    @Test
    void kernelTimeAndBreakdownByCategoryAndName() {
        // GPU activity per rank: rank 0 = 300 + 100 + 200 + 50 (kernels) + 100 + 200 (memcpys) = 950 µs;
        // rank 1 = 150 + 100 + 50 + 11 × 1 = 311 µs. Mean over ranks (950 + 311) / 2 = 630.5 µs.
        ok(950e-6, "sk_kernels", "kernel_time_s", null, "rank", 0, null, null);
        ok(630.5e-6, "sk_kernels", "kernel_time_s", null, "workload", null, null, null);
        // Pooled by category: gemm 300 + 150 = 450; comm 200 + 100 = 300; memory 300; other (MoE 100, topk 50,
        // tiny 11) = 161; elementwise 50. Total 1261 µs.
        ok(450e-6 / 2, "sk_kernels", "kernel_time_s", null, "key", null, null, "gemm");
        ok(100.0 * 450 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "gemm");
        ok(100.0 * 300 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "memory");
        ok(100.0 * 300 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "comm");
        ok(100.0 * 161 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "other");
        ok(100.0 * 50 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "elementwise");
        // The workload row is the largest category's share, keyed by it.
        ok(100.0 * 450 / 1261, "sk_kernels", "kernel_breakdown", null, "workload", null, null, "gemm");
        // Top 10 names: GEMM 450, memcpy 300, all_reduce 200, MoE 100, all_gather 100, topk 50, elementwise 50,
        // then the 1 µs tiny kernels by name: 00, 01, 02.
        ok(100.0 * 450 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "name:" + GEMM);
        ok(100.0 * 300 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "name:" + MEMCPY);
        ok(100.0 * 1 / 1261, "sk_kernels", "kernel_breakdown", null, "key", null, null, "name:tiny_kernel_02");
        assertFalse(has("sk_kernels", "kernel_breakdown", null, "key", null, null, "name:tiny_kernel_03"));
        long names = at("sk_kernels", "kernel_breakdown", null, "key").stream()
                .filter(r -> r.getString(8).startsWith("name:"))
                .count();
        assertEquals(10, names);
    }

    @Test
    void cpuOverheadPerRankOverTheProfiledSpan() {
        // rank 0: four cudaLaunchKernel × 1 µs + cuLaunchKernel 5 µs = 9 µs over [0, 1000) → 0.9 %.
        // rank 1: three launches × 1 µs + cudaStreamSynchronize 50 µs = 53 µs over 1000 µs → 5.3 %.
        ok(0.9, "sk_kernels", "cpu_overhead", null, "rank", 0, null, null);
        ok(5.3, "sk_kernels", "cpu_overhead", null, "rank", 1, null, null);
        ok((0.9 + 5.3) / 2, "sk_kernels", "cpu_overhead", null, "workload", null, null, null);
    }

    @Test
    void phasesFromAnnotations() {
        // METRICS.md §4 as amended (issue 46): the value is the phase's GPU time, the CPU annotations' |union| the
        // figure dispatch_ms.
        // forward: its GPU-side copy ## forward ## [0, 900) = 900 µs; dispatch ## forward ## [10, 200) = 190 µs.
        // backward: no GPU-side copy, and none of rank 0's launches (90-93) starts inside an evaluate_function, so it
        // launched nothing: 0 µs; dispatch [300, 400) ∪ [350, 450) ∪ [500, 520) = 150 + 20 = 170 µs.
        // optimizer: no copy, nothing launched: 0 µs; dispatch step [600, 700) ∪ zero_grad [700, 720) = 120 µs.
        ok(0.900, "sk_kernels", "phase_time_ms", null, "step", 0, 1L, "forward");
        ok(0.0, "sk_kernels", "phase_time_ms", null, "step", 0, 1L, "backward");
        ok(0.0, "sk_kernels", "phase_time_ms", null, "step", 0, 1L, "optimizer");
        ok(0.900, "sk_kernels", "phase_time_ms", null, "workload", null, null, "forward");
        ok(0.0, "sk_kernels", "phase_time_ms", null, "workload", null, null, "optimizer");
        ok(0.190, "sk_kernels", "phase_time_ms", "dispatch_ms", "step", 0, 1L, "forward");
        ok(0.170, "sk_kernels", "phase_time_ms", "dispatch_ms", "step", 0, 1L, "backward");
        ok(0.120, "sk_kernels", "phase_time_ms", "dispatch_ms", "step", 0, 1L, "optimizer");
        ok(0.190, "sk_kernels", "phase_time_ms", "dispatch_ms", "workload", null, null, "forward");
        ok(0.120, "sk_kernels", "phase_time_ms", "dispatch_ms", "workload", null, null, "optimizer");
        assertTrue(
                all("sk_kernels", "phase_time_ms").stream().noneMatch(r -> !r.isNullAt(6) && r.getInt(6) == 1),
                "rank 1 has no phase annotations");
        missing("sk_train", "phase_time_ms", null, "missing_input", "no forward/backward/optimizer annotations");
    }

    @Test
    void fsdpAnnotationsBySuffix() {
        // Rank 0 / rank 1 in µs; workload = the mean of the two ranks, in ms.
        // all_gather: (20 + 30) / 30 → (50 + 30) / 2 = 40 µs
        ok(0.050, "sk_kernels", "fsdp_all_gather", null, "rank", 0, null, null);
        ok(0.040, "sk_kernels", "fsdp_all_gather", null, "workload", null, null, null);
        // reduce_scatter: FSDP2's post_backward_reduce 20 / 0 → 10 µs
        ok(0.010, "sk_kernels", "fsdp_reduce_scatter", null, "workload", null, null, null);
        ok(0.004, "sk_kernels", "fsdp_copy_in", null, "workload", null, null, null); // (8 + 0) / 2
        ok(0.0025, "sk_kernels", "fsdp_copy_out", null, "workload", null, null, null); // (5 + 0) / 2
        ok(0.045, "sk_kernels", "fsdp_pre_forward", null, "workload", null, null, null); // (40 + 50) / 2
        ok(0.0025, "sk_kernels", "fsdp_post_forward", null, "workload", null, null, null); // (5 + 0) / 2
        ok(0.005, "sk_kernels", "fsdp_pre_backward", null, "workload", null, null, null); // (10 + 0) / 2
        // post_backward: the outer 40 µs only (its _reduce/_reshard children are other suffixes) → 20 µs
        ok(0.020, "sk_kernels", "fsdp_post_backward", null, "workload", null, null, null);
        ok(0.0, "sk_kernels", "fsdp_copy_in", null, "rank", 1, null, null);
        // prefetch overlap: rank 1's all_gather [200, 300) ∩ compute (GEMM [250, 400)) = 50 of 100 µs; rank 0
        // has no all_gather and is left out.
        ok(0.5, "sk_kernels", "fsdp_prefetch_overlap", null, "rank", 1, null, null);
        ok(0.5, "sk_kernels", "fsdp_prefetch_overlap", null, "workload", null, null, null);
        missing("sk_train", "fsdp_all_gather", null, "missing_input", "FSDP");
        // no FSDP::* annotations: missing like every fsdp_* metric, for the same reason (issue 14 item 7)
        missing("sk_train", "fsdp_prefetch_overlap", null, "missing_input", "FSDP");
    }

    @Test
    void trafficDistributionByProcessGroupRanks() {
        // Per rank: tp all_reduce 1000 × 4 = 4000 B; dp all_reduce 500 × 4 = 2000 B; the world all_gather
        // (S = out = 400 × 4 = 1600 B) is neither a tp run nor a strided dp group → unknown; send 250 × 4 =
        // 1000 B → pp; all_to_all 300 × 4 = 1200 B → ep. Four ranks each.
        ok(4 * 4000, "sk_tp2", "traffic_distribution", "tp_bytes", "workload", null, null, "pg_ranks");
        ok(4 * 2000, "sk_tp2", "traffic_distribution", "dp_bytes", "workload", null, null, "pg_ranks");
        ok(4 * 1000, "sk_tp2", "traffic_distribution", "pp_bytes", "workload", null, null, "pg_ranks");
        ok(4 * 1200, "sk_tp2", "traffic_distribution", "ep_bytes", "workload", null, null, "pg_ranks");
        ok(4 * 1600, "sk_tp2", "traffic_distribution", "unknown_bytes", "workload", null, null, "pg_ranks");
    }

    @Test
    void dominantKernelConcentration() {
        // cat 'kernel' only, pooled: rank 0 300 + 100 + 200 + 50 = 650; rank 1 150 + 100 + 50 + 11 = 311;
        // total 961 µs. GEMM 300 + 150 = 450 µs.
        ok(100.0 * 450 / 961, "sk_kernels", "dominant_kernel_concentration", null, "workload", null, null, null);
        ok(100.0 * 450 / 961, "sk_kernels", "dominant_kernel_concentration", null, "key", null, null, "name:" + GEMM);
    }

    @Test
    void moeFraction() {
        // fused_moe_kernel 100 + topk_kernel 50 = 150 of 961 µs.
        ok(100.0 * 150 / 961, "sk_kernels", "moe_fraction", null, "workload", null, null, null);
        ok(0.0, "sk_train", "moe_fraction", null, "workload", null, null, null);
    }

    @Test
    void meanSmCoverage() {
        // Kernels with the arg: GEMM 300 × min(2, 1) + MOE 100 × 0.5 + ELEMENTWISE 50 × 0.25 + GEMM 150 × min(1.5, 1)
        // = 300 + 50 + 12.5 + 150 = 512.5 over 600 µs.
        ok(100.0 * 512.5 / 600, "sk_kernels", "mean_sm_coverage", null, "workload", null, null, null);
        missing("sk_train", "mean_sm_coverage", null, "missing_input", "blocks per SM");
    }

    @Test
    void memcpyExposedPctAndMemoryTransferOverhead() {
        // memcpy_exposed_pct, over every GPU activity: rank 0: copies [50, 150) ∪ [800, 1000) = 300 µs; non-copy
        // non-comm [100, 400) ∪ [400, 500) ∪ [700, 750) overlaps them for [100, 150) = 50 µs → pure 250 µs. Span of
        // GPU events: 50 → 1000 = 950 µs. rank 1 has no copies: skipped.
        ok(100.0 * 250 / 950, "sk_kernels", "memcpy_exposed_pct", null, "rank", 0, null, null);
        assertFalse(has("sk_kernels", "memcpy_exposed_pct", null, "rank", 1, null, null));
        ok(100.0 * 250 / 950, "sk_kernels", "memcpy_exposed_pct", null, "workload", null, null, null);
        missing("sk_train", "memcpy_exposed_pct", null, "missing_input", "no copy activity");
        // memory_transfer_overhead (CCL-Bench) reads kernels only, and both copies here are Kineto gpu_memcpy
        // events: no copy kernel on any rank → null (CCL-Bench's tool prints -1.0 for it).
        assertFalse(has("sk_kernels", "memory_transfer_overhead", null, "rank", 0, null, null));
        missing("sk_kernels", "memory_transfer_overhead", null, "missing_input", "no copy kernel");
        missing("sk_train", "memory_transfer_overhead", null, "missing_input", "no copy kernel");
    }

    @Test
    void averageMemoryBandwidth() {
        // (1,000,000 + 3,000,000) bytes ÷ (100 + 200) µs ÷ 1000 = 13.33 GB/s.
        ok(4_000_000.0 / 300 / 1000, "sk_kernels", "average_memory_bandwidth", null, "workload", null, null, null);
        missing("sk_train", "average_memory_bandwidth", null, "missing_input", "copy");
    }

    @Test
    void scaleUpIsNeverComputed() {
        missing("sk_kernels", "scale_up_bw_utility", null, "not_applicable", "simulator");
    }

    @Test
    void everyMetricOfThisFamilyHasAWorkloadRowWithoutNaN() {
        List<String> metrics = List.of(
                "iter_time",
                "avg_step_time",
                "throughput_tokens",
                "mfu",
                "ttft",
                "tpot",
                "kernel_time_s",
                "kernel_breakdown",
                "cpu_overhead",
                "phase_time_ms",
                "fsdp_all_gather",
                "fsdp_prefetch_overlap",
                "traffic_distribution",
                "dominant_kernel_concentration",
                "moe_fraction",
                "mean_sm_coverage",
                "memory_transfer_overhead",
                "average_memory_bandwidth",
                "scale_up_bw_utility");
        for (String w : List.of("sk_train", "sk_two", "sk_vllm", "sk_kernels", "sk_tp2")) {
            for (String metric : metrics) {
                List<Row> wl = all(w, metric).stream()
                        .filter(r -> "workload".equals(r.getString(5)))
                        .toList();
                assertFalse(wl.isEmpty(), w + " " + metric + " has no workload row");
                for (Row r : wl) {
                    if (r.isNullAt(3)) {
                        assertNotNull(r.getString(10), w + " " + metric + ": a null value needs a reason");
                        assertFalse("ok".equals(r.getString(9)), w + " " + metric + ": a null value is not ok");
                    } else {
                        assertTrue(Double.isFinite(r.getDouble(3)) && r.getDouble(3) >= 0, w + " " + metric + ": " + r);
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static List<Row> all(String workload, String metric) {
        return rows.stream()
                .filter(r -> workload.equals(r.getString(0)) && metric.equals(r.getString(1)))
                .collect(Collectors.toList());
    }

    static List<Row> at(String workload, String metric, String figure, String scope) {
        return all(workload, metric).stream()
                .filter(r -> Objects.equals(figure, r.getString(2)) && scope.equals(r.getString(5)))
                .collect(Collectors.toList());
    }

    static boolean matches(Row r, String figure, String scope, Integer rank, Long step, String key) {
        return Objects.equals(figure, r.getString(2))
                && scope.equals(r.getString(5))
                && Objects.equals(rank, r.isNullAt(6) ? null : r.getInt(6))
                && Objects.equals(step, r.isNullAt(7) ? null : r.getLong(7))
                && Objects.equals(key, r.getString(8));
    }

    static boolean has(
            String workload, String metric, String figure, String scope, Integer rank, Long step, String key) {
        return all(workload, metric).stream().anyMatch(r -> matches(r, figure, scope, rank, step, key));
    }

    static Row one(String workload, String metric, String figure, String scope, Integer rank, Long step, String key) {
        List<Row> hits = all(workload, metric).stream()
                .filter(r -> matches(r, figure, scope, rank, step, key))
                .toList();
        if (hits.size() != 1) {
            fail(hits.size() + " rows for " + workload + " " + metric + " figure=" + figure + " scope=" + scope
                    + " rank=" + rank + " step=" + step + " key=" + key + "; rows of the metric: "
                    + all(workload, metric));
        }
        return hits.get(0);
    }

    static void ok(
            double expected,
            String workload,
            String metric,
            String figure,
            String scope,
            Integer rank,
            Long step,
            String key) {
        Row r = one(workload, metric, figure, scope, rank, step, key);
        String what = workload + " " + metric + " " + figure + " " + scope + " rank=" + rank + " step=" + step + " key="
                + key;
        assertEquals("ok", r.getString(9), () -> what + ": status (reason " + r.getString(10) + ")");
        assertFalse(r.isNullAt(3), what + ": value is null");
        assertEquals(expected, r.getDouble(3), Math.max(Math.abs(expected) * REL, 1e-12), what);
    }

    /** The workload row of a metric that could not be computed: null value, this status, a reason with this text. */
    static void missing(String workload, String metric, String figure, String status, String reasonPart) {
        Row r = one(workload, metric, figure, "workload", null, null, null);
        String what = workload + " " + metric + " " + figure;
        assertTrue(r.isNullAt(3), what + ": value should be null, was " + r);
        assertEquals(status, r.getString(9), what + ": status (reason " + r.getString(10) + ")");
        assertNotNull(r.getString(10), what + ": reason");
        assertTrue(r.getString(10).contains(reasonPart), what + ": reason " + r.getString(10));
    }

    /** A CCL-Bench workload card with just the fields a test needs. */
    static final class Card {
        private final String phase;
        private final String xpu;
        private final int devices;
        private final Map<String, Object> arch = new LinkedHashMap<>();
        private final Map<String, Object> data = new LinkedHashMap<>();
        private final Map<String, Object> plan = new LinkedHashMap<>();

        Card(String phase, String xpu, int devices) {
            this.phase = phase;
            this.xpu = xpu;
            this.devices = devices;
        }

        Card arch(String key, Object value) {
            arch.put(key, value);
            return this;
        }

        Card data(String key, Object value) {
            data.put(key, value);
            return this;
        }

        Card plan(String key, Object value) {
            plan.put(key, value);
            return this;
        }

        String yaml() {
            StringBuilder y = new StringBuilder("workload:\n  model:\n    phase: ")
                    .append(phase)
                    .append("\n    model_family: test\n");
            if (!arch.isEmpty()) {
                y.append("    model_arch:\n");
                arch.forEach((k, v) ->
                        y.append("      ").append(k).append(": ").append(v).append('\n'));
            }
            if (!data.isEmpty()) {
                y.append("  data:\n");
                data.forEach((k, v) ->
                        y.append("    ").append(k).append(": ").append(v).append('\n'));
            }
            y.append("  hardware:\n    xpu_spec:\n      type: GPU\n      model: ")
                    .append(xpu)
                    .append("\n      total_count: ")
                    .append(devices)
                    .append('\n');
            if (!plan.isEmpty()) {
                y.append("Model-executor:\n  model_plan_parallelization:\n");
                plan.forEach((k, v) ->
                        y.append("    ").append(k).append(": ").append(v).append('\n'));
            }
            return y.toString();
        }
    }

    @Test
    void noNullValueIsOk() {
        // Every workload of this class: every null value, at every scope, says why.
        MetricRows.of(rows).assertNoNullIsOk();
    }
}
