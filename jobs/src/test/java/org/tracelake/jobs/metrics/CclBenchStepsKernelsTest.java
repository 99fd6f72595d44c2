package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.tracelake.jobs.testing.TraceClock.T0;
import static org.tracelake.jobs.testing.TraceClock.ms;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.StepsAndKernelsMetricsTest.Card;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The CCL-Bench metrics of StepFamily and KernelFamily equal their METRICS.md definitions, quirks included:
 * trimmed steps, per-rank means before the mean over ranks, pooling over rank files, Σ ÷ Σ rather than a mean
 * of ratios. Every expected value is worked out in a comment, next to the number a naive reading would give.
 * One archive, one refresh:
 * <ul>
 *   <li>{@code cb_train} (3 ranks): 5, 2 and 1 ProfilerSteps; a MoE card with active params on an H100 PCIe;
 *   <li>{@code cb_infer} (3 ranks): vLLM steps, 5, 2 and 1 per rank; an inference card;
 *   <li>{@code cb_infer1} (1 rank): an inference card with output_len 1;
 *   <li>{@code cb_kernels} (3 ranks): kernels whose dominant name differs per rank, MoE names, blocks-per-SM
 *       args, copies overlapped by compute and by communication, memcpys with bytes, a rank without copies.
 * </ul>
 */
class CclBenchStepsKernelsTest {
    static final double REL = 1e-9;

    static final String A_GEMM = "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_tn";
    static final String B_GATING = "void vllm::moe::topkGatingSoftmax<8>";
    static final String C_DISPATCH = "cutlass_DispatchKernel_sm80";
    static final String D_GROUPED = "cutlass_grouped_gemm_kernel";
    static final String E_GROUPED_CAMEL = "cutlass::GroupedGemmKernel";
    static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String COPY_KERNEL = "direct_copy_kernel_cuda";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static List<Row> rows;

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        writeTrain(archive);
        writeInference(archive);
        writeKernels(archive);
        archive.refresh(spark);
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
    }

    /** Steps back to back from T0 with these durations (ms), numbered ProfilerStep#1…. */
    static KinetoTraceBuilder profilerSteps(int rank, int world, long... durationsMs) {
        KinetoTraceBuilder b = new KinetoTraceBuilder(rank, world);
        long start = 0;
        for (int i = 0; i < durationsMs.length; i++) {
            b.step(i + 1, T0 + ms(start), ms(durationsMs[i]));
            start += durationsMs[i];
        }
        return b;
    }

    /** vLLM execute_context ranges back to back from T0 with these durations (ms). */
    static KinetoTraceBuilder vllmSteps(int rank, int world, long... durationsMs) {
        KinetoTraceBuilder b = new KinetoTraceBuilder(rank, world);
        long start = 0;
        for (int i = 0; i < durationsMs.length; i++) {
            b.cpu(
                    "user_annotation",
                    // vLLM counts prefill requests after "context_": the first step prefills (ttft, METRICS.md §4)
                    "execute_context_" + (i == 0 ? 1 : 0) + "(1)_generation_" + i + "(1)",
                    T0 + ms(start),
                    ms(durationsMs[i]),
                    Map.of());
            start += durationsMs[i];
        }
        return b;
    }

    /**
     * cb_train: step durations (ms) rank 0: 1000, 100, 200, 300, 5000; rank 1: 400, 600; rank 2: 700.
     * Card: num_params 10e9, num_params_active 2e9, num_params_embedding 2e8, 4 layers, 16 heads of 128,
     * batch 8 × seq 2048, 3 × "NVIDIA H100 PCIe".
     */
    static void writeTrain(TestArchive archive) {
        archive.write(
                "cb_train",
                "rank0_trace.json",
                profilerSteps(0, 3, 1000, 100, 200, 300, 5000).toJson());
        archive.write(
                "cb_train", "rank1_trace.json", profilerSteps(1, 3, 400, 600).toJson());
        archive.write("cb_train", "rank2_trace.json", profilerSteps(2, 3, 700).toJson());
        archive.write(
                "cb_train",
                "cb_train.yaml",
                new Card("training", "NVIDIA H100 PCIe", 3)
                        .arch("num_params", 10_000_000_000L)
                        .arch("num_params_active", 2_000_000_000L)
                        .arch("num_params_embedding", 200_000_000L)
                        .arch("num_layers", 4)
                        .arch("num_heads", 16)
                        .arch("head_dim", 128)
                        .data("batch_size", 8)
                        .data("seq_len", 2048)
                        .yaml());
    }

    /**
     * cb_infer: execute_context durations (ms) rank 0: 30, 5, 6, 7, 100; rank 1: 20, 4; rank 2: 10. Card:
     * 7e9 params (no embedding count), 32 layers, 32 heads of 128, batch 1 × seq 128, 3 × A100.
     * cb_infer1: one rank, 10 and 5 ms; output_len 1.
     */
    static void writeInference(TestArchive archive) {
        archive.write(
                "cb_infer",
                "rank0_trace.json",
                vllmSteps(0, 3, 30, 5, 6, 7, 100).toJson());
        archive.write("cb_infer", "rank1_trace.json", vllmSteps(1, 3, 20, 4).toJson());
        archive.write("cb_infer", "rank2_trace.json", vllmSteps(2, 3, 10).toJson());
        archive.write(
                "cb_infer",
                "cb_infer.yaml",
                new Card("inference", "NVIDIA A100-SXM4-80GB", 3)
                        .arch("num_params", 7_000_000_000L)
                        .arch("num_layers", 32)
                        .arch("num_heads", 32)
                        .arch("head_dim", 128)
                        .data("batch_size", 1)
                        .data("seq_len", 128)
                        .yaml());
        archive.write("cb_infer1", "rank0_trace.json", vllmSteps(0, 1, 10, 5).toJson());
        archive.write(
                "cb_infer1",
                "cb_infer1.yaml",
                new Card("inference", "NVIDIA A100", 1)
                        .data("batch_size", 1)
                        .data("seq_len", 128)
                        .data("output_len", 1)
                        .yaml());
    }

    /**
     * cb_kernels, µs after T0:
     * <pre>
     * rank 0  A_GEMM      [0, 100)    blocks per SM 4
     *         B_GATING    [100, 160)  blocks per SM 0.5
     *         ALL_REDUCE  [200, 260)  (communication)
     *         memcpy      [150, 250)  1,000,000 bytes
     * rank 1  B_GATING    [0, 70)     blocks per SM 0.1
     *         C_DISPATCH  [100, 110)
     *         COPY_KERNEL [300, 400)  (cat kernel, a copy by name; no bytes)
     *         memcpy      [400, 450)  2,000,000 bytes
     * rank 2  D_GROUPED   [0, 40)     blocks per SM 1
     *         E_GROUPED_CAMEL [40, 60)
     *         memcpy      [70, 70)    1,000,000 bytes, zero duration
     * </pre>
     */
    static void writeKernels(TestArchive archive) {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 3);
        r0.kernel(A_GEMM, 7, t(0), us(100), t(0) - us(5), Map.of("blocks per SM", 4));
        r0.kernel(B_GATING, 7, t(100), us(60), t(0) - us(4), Map.of("blocks per SM", 0.5));
        r0.kernel(ALL_REDUCE, 20, t(200), us(60), t(0) - us(3), Map.of());
        r0.memcpy(8, t(150), us(100), 1_000_000L);
        KinetoTraceBuilder r1 = new KinetoTraceBuilder(1, 3);
        r1.kernel(B_GATING, 7, t(0), us(70), t(0) - us(5), Map.of("blocks per SM", 0.1));
        r1.kernel(C_DISPATCH, 7, t(100), us(10), t(0) - us(4), Map.of());
        r1.kernel(COPY_KERNEL, 7, t(300), us(100), t(0) - us(3), Map.of());
        r1.memcpy(8, t(400), us(50), 2_000_000L);
        KinetoTraceBuilder r2 = new KinetoTraceBuilder(2, 3);
        r2.kernel(D_GROUPED, 7, t(0), us(40), t(0) - us(5), Map.of("blocks per SM", 1));
        r2.kernel(E_GROUPED_CAMEL, 7, t(40), us(20), t(0) - us(4), Map.of());
        r2.memcpy(8, t(70), 0, 1_000_000L);
        archive.write("cb_kernels", "rank0_trace.json", r0.toJson())
                .write("cb_kernels", "rank1_trace.json", r1.toJson())
                .write("cb_kernels", "rank2_trace.json", r2.toJson());
        archive.write("cb_kernels", "cb_kernels.yaml", new Card("training", "NVIDIA A100", 3).yaml());
    }

    // -------------------------------------------------------------------------------------------- steps

    @Test
    void avgStepTimeIsTheMeanOverRanksOfEachRanksTrimmedMean() {
        // rank 0 has 5 steps: drop the first (1000) and last (5000) → (100 + 200 + 300) / 3 = 200 ms.
        // rank 1 has 2 steps, rank 2 one: nothing dropped → 500 ms and 700 ms.
        // avg_step_time = (200 + 500 + 700) / 3 ms. (Pooling the kept steps instead would give
        // (100 + 200 + 300 + 400 + 600 + 700) / 6 = 383.3 ms; not trimming, (6600 + 1000 + 700) / 8 = 1037.5 ms.)
        ok(0.200, "cb_train", "avg_step_time", "rank", 0);
        ok(0.500, "cb_train", "avg_step_time", "rank", 1);
        ok(0.700, "cb_train", "avg_step_time", "rank", 2);
        ok((0.2 + 0.5 + 0.7) / 3, "cb_train", "avg_step_time", "workload", null);
        // iter_time is over every step, untrimmed: (1000 + 100 + 200 + 300 + 5000 + 400 + 600 + 700) / 8 = 1037.5 ms.
        ok(8300.0 / 8, "cb_train", "iter_time", "avg_ms", "workload", null, null);
    }

    @Test
    void mfuUsesActiveParamsAndTheFirstMatchingPeak() {
        // N = num_params_active 2e9 (not num_params 10e9); FLOP/token = 6(2e9 − 2e8) + 12·L·H·Q·S
        //   = 10.8e9 + 12·4·128·16·2048 = 10,800,000,000 + 201,326,592 = 11,001,326,592.
        // tokens/s = 8 × 2048 / avg_step_time, avg_step_time = (0.2 + 0.5 + 0.7) / 3 s.
        // "NVIDIA H100 PCIe" matches "H100.*PCIe" (756 TFLOPS) before "H100|H200|GH200" (989): 3 devices.
        double stepS = (0.2 + 0.5 + 0.7) / 3;
        double expected = 11_001_326_592.0 * (8 * 2048 / stepS) / (756e12 * 3) * 100;
        ok(expected, "cb_train", "mfu", "workload", null);
        ok(8 * 2048 / stepS, "cb_train", "throughput_tokens", "tokens_per_s", "workload", null, null);
    }

    @Test
    void ttftIsTheFirstStepAndTpotTheMeanOfTheMiddleStepsPerRankThenOverRanks() {
        // rank 0: ttft 30 ms; tpot = mean(5, 6, 7) = 6 ms (the last step, 100 ms, is dropped as cooldown).
        // rank 1: ttft 20 ms; tpot = its second step, 4 ms. rank 2: ttft 10 ms; one step → no tpot.
        // ttft = (30 + 20 + 10) / 3 = 20 ms; tpot = (6 + 4) / 2 = 5 ms over the ranks that decode.
        // (Pooling decode steps instead: (5 + 6 + 7 + 4) / 4 = 5.5 ms.)
        ok(0.030, "cb_infer", "ttft", "rank", 0);
        ok(0.006, "cb_infer", "tpot", "rank", 0);
        ok(0.004, "cb_infer", "tpot", "rank", 1);
        assertFalse(has("cb_infer", "tpot", null, "rank", 2, null), "rank 2 has a single step");
        ok(0.020, "cb_infer", "ttft", "workload", null);
        ok(0.005, "cb_infer", "tpot", "workload", null);
    }

    @Test
    void tpotIsNotApplicableWhenTheCardGeneratesOneToken() {
        ok(0.010, "cb_infer1", "ttft", "workload", null);
        Row r = one("cb_infer1", "tpot", null, "workload", null, null);
        assertTrue(r.isNullAt(3));
        assertEquals("not_applicable", r.getString(9));
        assertTrue(r.getString(10).contains("output_len"), r.getString(10));
    }

    @Test
    void inferenceMfuUsesTheInferenceFormula() {
        // avg_step_time: rank 0 trimmed (5 + 6 + 7) / 3 = 6; rank 1 (20 + 4) / 2 = 12; rank 2 10 → 28/3 ms.
        // FLOP/token = 2(7e9 − 0) + 4·32·128·32·128 = 14,000,000,000 + 67,108,864 = 14,067,108,864
        // (no embedding count on the card: N_emb = 0). tokens/s = 1 × 128 / (0.028 / 3). A100: 312 TFLOPS × 3.
        double stepS = 0.028 / 3;
        ok(stepS, "cb_infer", "avg_step_time", "workload", null);
        ok(14_067_108_864.0 * (128 / stepS) / (312e12 * 3) * 100, "cb_infer", "mfu", "workload", null);
        // throughput_tokens is for training only
        Row r = one("cb_infer", "throughput_tokens", "tokens_per_s", "workload", null, null);
        assertEquals("not_applicable", r.getString(9));
    }

    // ------------------------------------------------------------------------------------------ kernels

    @Test
    void dominantKernelConcentrationPoolsEveryRankFile() {
        // cat 'kernel' only (memcpys are not kernels): Σ by name over all ranks — A 100, B 60 + 70 = 130, C 10,
        // ALL_REDUCE 60, COPY_KERNEL 100, D 40, E 20 → total 460 µs. max = B 130 → 130 / 460 × 100.
        // (Per rank the dominant kernels are A, COPY_KERNEL and D: a mean of per-rank maxima would be
        // (100/220 + 100/180 + 40/60) / 3 × 100 = 55.9 %.)
        ok(100.0 * 130 / 460, "cb_kernels", "dominant_kernel_concentration", "workload", null);
        ok(100.0 * 130 / 460, "cb_kernels", "dominant_kernel_concentration", null, "key", null, "name:" + B_GATING);
    }

    @Test
    void moeFractionMatchesTheNamePatternCaseInsensitively() {
        // MoE by name: B "…moe::topkGating…" 130, C "…DispatchKernel…" 10, D "…grouped_gemm…" 40 = 180 µs;
        // not E "GroupedGemmKernel" (the pattern wants grouped_gemm), not A, ALL_REDUCE, COPY_KERNEL.
        ok(100.0 * 180 / 460, "cb_kernels", "moe_fraction", "workload", null);
    }

    @Test
    void meanSmCoverageIsDurationWeightedOverKernelsWithTheArg() {
        // A 100 × min(4, 1) + B 60 × 0.5 + B 70 × 0.1 + D 40 × min(1, 1) = 100 + 30 + 7 + 40 = 177 over
        // 100 + 60 + 70 + 40 = 270 µs (C, E, ALL_REDUCE, COPY_KERNEL carry no arg and are left out).
        // (Unweighted: (1 + 0.5 + 0.1 + 1) / 4 = 65 %.)
        ok(100.0 * 177 / 270, "cb_kernels", "mean_sm_coverage", "workload", null);
    }

    @Test
    void memoryTransferOverheadCountsCopyKernelsOnlyAsCclBenchDoes() {
        // CCL-Bench reads events of cat kernel (or Op, gpu_op, device_op, absent): the Kineto gpu_memcpy rows are
        // not among them, and they do not widen the span either.
        // rank 0: kernels A [0, 100), B [100, 160), ALL_REDUCE [200, 260); no copy kernel (its memcpy is a
        //   gpu_memcpy event) → skipped.
        // rank 1: kernels B [0, 70), C [100, 110), COPY_KERNEL [300, 400) (direct_copy_kernel_cuda matches
        //   copy_kernel); nothing overlaps the copy → pure 100; span 0 → 400 (the memcpy [400, 450) is not an event
        //   CCL-Bench reads) = 400 → 25 %.
        // rank 2: no copy kernel → skipped.
        // Workload: round(100 / 400 × 100, 4) = 25.0. (The old reading, memcpy included: (90 + 150) / (260 + 450)
        // = 33.80 %, now memcpy_exposed_pct below.)
        ok(100.0 * 100 / 400, "cb_kernels", "memory_transfer_overhead", "rank", 1);
        assertFalse(has("cb_kernels", "memory_transfer_overhead", null, "rank", 0, null));
        assertFalse(has("cb_kernels", "memory_transfer_overhead", null, "rank", 2, null));
        ok(25.0, "cb_kernels", "memory_transfer_overhead", "workload", null);
    }

    @Test
    void memcpyExposedPctIsSumOfPureCopyOverSumOfSpansOverEveryGpuActivity() {
        // Our variant keeps every GPU activity, memcpy/memset included.
        // rank 0: copy [150, 250); non-copy non-comm kernels A [0, 100), B [100, 160) hide [150, 160) = 10;
        //   ALL_REDUCE [200, 260) is communication and hides nothing → pure 90. Span 0 → 260 = 260.
        // rank 1: copies COPY_KERNEL [300, 400) ∪ memcpy [400, 450) = 150, nothing overlaps → pure 150;
        //   span 0 → 450 = 450.
        // rank 2: its only copy lasts 0 ns (events with dur > 0 only): no copies → skipped.
        // (90 + 150) / (260 + 450) × 100. (Mean of ratios: (90/260 + 150/450) / 2 × 100 = 33.97 %.)
        ok(100.0 * 90 / 260, "cb_kernels", "memcpy_exposed_pct", "rank", 0);
        ok(100.0 * 150 / 450, "cb_kernels", "memcpy_exposed_pct", "rank", 1);
        assertFalse(has("cb_kernels", "memcpy_exposed_pct", null, "rank", 2, null));
        ok(100.0 * 240 / 710, "cb_kernels", "memcpy_exposed_pct", "workload", null);
        assertNotEquals(100.0 * (90.0 / 260 + 150.0 / 450) / 2, 100.0 * 240 / 710);
    }

    @Test
    void noNullValueIsOk() {
        // cb_train, cb_infer, cb_infer1, cb_kernels: every null value, at every scope, says why.
        MetricRows.of(rows).assertNoNullIsOk();
    }

    @Test
    void averageMemoryBandwidthPoolsBytesAndDuration() {
        // memcpys with bytes and dur > 0: 1,000,000 B in 100 µs (rank 0), 2,000,000 B in 50 µs (rank 1); the
        // zero-duration memcpy on rank 2 is left out (as CCL-Bench does). COPY_KERNEL has no bytes.
        // (1,000,000 + 2,000,000) / (100 + 50) / 1000 = 20 GB/s. (Mean of per-copy rates: (10 + 40) / 2 = 25.)
        ok(3_000_000.0 / 150 / 1000, "cb_kernels", "average_memory_bandwidth", "workload", null);
    }

    // ------------------------------------------------------------------------------------------ helpers

    static boolean has(String workload, String metric, String figure, String scope, Integer rank, String key) {
        return rows.stream().anyMatch(r -> matches(r, workload, metric, figure, scope, rank, key));
    }

    static boolean matches(
            Row r, String workload, String metric, String figure, String scope, Integer rank, String key) {
        return workload.equals(r.getString(0))
                && metric.equals(r.getString(1))
                && Objects.equals(figure, r.getString(2))
                && scope.equals(r.getString(5))
                && Objects.equals(rank, r.isNullAt(6) ? null : r.getInt(6))
                && r.isNullAt(7)
                && Objects.equals(key, r.getString(8));
    }

    static Row one(String workload, String metric, String figure, String scope, Integer rank, String key) {
        List<Row> hits = rows.stream()
                .filter(r -> matches(r, workload, metric, figure, scope, rank, key))
                .toList();
        if (hits.size() != 1) {
            fail(hits.size() + " rows for " + workload + " " + metric + " " + figure + " " + scope + " rank=" + rank
                    + " key=" + key + "; rows: "
                    + rows.stream()
                            .filter(r -> workload.equals(r.getString(0)) && metric.equals(r.getString(1)))
                            .toList());
        }
        return hits.get(0);
    }

    static void ok(
            double expected, String workload, String metric, String figure, String scope, Integer rank, String key) {
        Row r = one(workload, metric, figure, scope, rank, key);
        String what = workload + " " + metric + " " + figure + " " + scope + " rank=" + rank + " key=" + key;
        assertEquals("ok", r.getString(9), () -> what + ": status (reason " + r.getString(10) + ")");
        assertFalse(r.isNullAt(3), what + ": null value");
        assertEquals(expected, r.getDouble(3), Math.abs(expected) * REL, what);
    }

    /** A single-number metric (figure null, key null). */
    static void ok(double expected, String workload, String metric, String scope, Integer rank) {
        ok(expected, workload, metric, null, scope, rank, null);
    }
}
