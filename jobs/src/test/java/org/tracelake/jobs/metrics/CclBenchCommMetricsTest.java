package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.KinetoTraceBuilder.collectiveArgs;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The CCL-Bench metrics of CommunicationFamily, OverlapFamily and CrossRankFamily, each checked against its METRICS.md
 * definition on hand-built traces where CCL-Bench's quirks change the answer: five steps (so trimming drops the
 * first and last), kernels that straddle step windows (full durations in communication_fraction, clipped ones in
 * compute_comm_overlap), GiB against GB, In against Out bytes (an all_gather whose In ≠ Out), rank 0 only, kernels
 * only (a memcpy). Times are µs after T0; "[a, b)" is a kernel from a to b. Float = 4 bytes.
 *
 * <p>{@code ccl_steps}, 2 ranks, ProfilerStep#n = [1000(n−1), 1000n) for n = 1..5; trimmed: #2, #3, #4 = [1000, 4000).
 * <pre>
 *   rank 0                                          rank 1
 *   C0   compute [100,900)                          AR0 all_reduce in 2048 [200,500)
 *   AR0  all_reduce in 1024 [200,500)               K1  compute [1100,1900)
 *   K1   compute [1100,1600)                        AR1 all_reduce in 2048 [1500,1700)   (inside K1)
 *   AR1  all_reduce in 1024 [1400,1800)             AG1 all_gather in 1024 out 2048 [2100,2500)
 *   AG1  all_gather in 1024 out 2048 [1900,2300)    RS1 reduce_scatter in 2048 out 1024 [2600,2900)
 *        (straddles #2/#3)                          A2A all_to_all in 1024 [3100,3300)
 *   K2   compute [2100,2400)                        K2  compute [3200,3500)
 *   RS1  reduce_scatter in 2048 out 1024 [2500,2700) AR2 all_reduce in 2048 [4200,4600)
 *   K3   compute [2600,3100) (straddles #3/#4)
 *   A2A  all_to_all in 1024 [3200,3600)
 *   C4   compute [4100,4900)
 *   AR2  all_reduce in 1024 [4200,4800)
 *   M    memcpy [4900,5000)
 * </pre>
 * {@code ccl_nosteps}, 2 ranks, no step annotations: rank 0 all_reduce [0,300) on stream 20, all_gather [200,500)
 * on stream 21 and an all_reduce without args (size unknown) [600,650); rank 1 all_reduce [0,200) and all_gather
 * [300,400).
 * <p>{@code ccl_twosteps}, 1 rank, #1 [0,1000), #2 [1000,2000) (two steps: nothing is trimmed): compute [100,400)
 * and [600,700), all_reduce [500,1500), all_reduce [2500,2600) launched in #2 but run after it.
 */
class CclBenchCommMetricsTest {
    static final double GIB = 1024.0 * 1024 * 1024;

    static final String GEMM = "ampere_sgemm_128x64_nn";
    static final String AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String RS = "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String SR = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static MetricRows m;

    static Map<String, Object> ar(long in) {
        return collectiveArgs("allreduce", in, in, "Float", 2, "0");
    }

    static Map<String, Object> ag(long in) {
        return collectiveArgs("_allgather_base", in, in * 2, "Float", 2, "0");
    }

    static Map<String, Object> rs(long in) {
        return collectiveArgs("_reduce_scatter_base", in, in / 2, "Float", 2, "0");
    }

    static Map<String, Object> a2a(long in) {
        return collectiveArgs("all_to_all", in, in, "Float", 2, "0");
    }

    static KinetoTraceBuilder fiveSteps(int rank) {
        KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2);
        for (int n = 1; n <= 5; n++) b.step(n, t(1000L * (n - 1)), us(1000));
        return b;
    }

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        KinetoTraceBuilder r0 = fiveSteps(0)
                .kernel(GEMM, 7, t(100), us(800), t(10), Map.of())
                .kernel(AR, 20, t(200), us(300), t(20), ar(1024))
                .kernel(GEMM, 7, t(1100), us(500), t(1010), Map.of())
                .kernel(AR, 20, t(1400), us(400), t(1020), ar(1024))
                .kernel(AG, 20, t(1900), us(400), t(1030), ag(1024))
                .kernel(GEMM, 7, t(2100), us(300), t(2010), Map.of())
                .kernel(RS, 20, t(2500), us(200), t(2020), rs(2048))
                .kernel(GEMM, 7, t(2600), us(500), t(2030), Map.of())
                .kernel(SR, 20, t(3200), us(400), t(3010), a2a(1024))
                .kernel(GEMM, 7, t(4100), us(800), t(4010), Map.of())
                .kernel(AR, 20, t(4200), us(600), t(4020), ar(1024))
                .memcpy(7, t(4900), us(100), 1 << 20);
        KinetoTraceBuilder r1 = fiveSteps(1)
                .kernel(AR, 20, t(200), us(300), t(20), ar(2048))
                .kernel(GEMM, 7, t(1100), us(800), t(1010), Map.of())
                .kernel(AR, 20, t(1500), us(200), t(1020), ar(2048))
                .kernel(AG, 20, t(2100), us(400), t(2010), ag(1024))
                .kernel(RS, 20, t(2600), us(300), t(2020), rs(2048))
                .kernel(SR, 20, t(3100), us(200), t(3010), a2a(1024))
                .kernel(GEMM, 7, t(3200), us(300), t(3020), Map.of())
                .kernel(AR, 20, t(4200), us(400), t(4020), ar(2048));
        archive.write("ccl_steps", "rank0_trace.json", r0.toJson())
                .write("ccl_steps", "rank1_trace.json", r1.toJson())
                .card("ccl_steps", "training", "llama", "NVIDIA H100", 2);

        KinetoTraceBuilder n0 = new KinetoTraceBuilder(0, 2)
                .kernel(AR, 20, t(0), us(300), t(-5), ar(1024))
                .kernel(AG, 21, t(200), us(300), t(-4), ag(1024))
                .kernel(AR, 20, t(600), us(50), t(-3), Map.of());
        KinetoTraceBuilder n1 = new KinetoTraceBuilder(1, 2)
                .kernel(AR, 20, t(0), us(200), t(-5), ar(1024))
                .kernel(AG, 20, t(300), us(100), t(-4), ag(1024));
        archive.write("ccl_nosteps", "rank0_trace.json", n0.toJson())
                .write("ccl_nosteps", "rank1_trace.json", n1.toJson())
                .card("ccl_nosteps", "training", "llama", "NVIDIA H100", 2);

        KinetoTraceBuilder s0 = new KinetoTraceBuilder(0, 1)
                .step(1, t(0), us(1000))
                .step(2, t(1000), us(1000))
                .kernel(GEMM, 7, t(100), us(300), t(10), Map.of())
                .kernel(GEMM, 7, t(600), us(100), t(15), Map.of())
                .kernel(AR, 20, t(500), us(1000), t(20), ar(1024))
                .kernel(AR, 20, t(2500), us(100), t(1900), ar(1024));
        archive.write("ccl_twosteps", "rank0_trace.json", s0.toJson())
                .card("ccl_twosteps", "training", "llama", "NVIDIA H100", 1);

        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    @Test
    void collectiveVolumeIsRankZeroInBytesInGB() {
        String w = "ccl_steps";
        // Rank 0 only, Σ in_bytes / 1e9: all_reduce 3 × 1024 × 4 = 12288 B; all_gather In 1024 × 4 = 4096 B
        // (not its Out, 8192); reduce_scatter In 2048 × 4 = 8192 B; all_to_all 4096 B. (Rank 1's all_reduces,
        // 3 × 8192 B, do not count.)
        m.workload(12288 / 1e9, w, "collective_vol_allreduce_gb", null);
        m.workload(4096 / 1e9, w, "collective_vol_allgather_gb", null);
        m.workload(8192 / 1e9, w, "collective_vol_reducescatter_gb", null);
        m.workload(4096 / 1e9, w, "collective_vol_alltoall_gb", null);
        m.workload((12288 + 4096 + 8192 + 4096) / 1e9, w, "collective_vol_total_gb", null);
        // The same number on rank 0's rank row; no other rank has one.
        m.ok(12288 / 1e9, w, "collective_vol_allreduce_gb", null, "rank", 0, null, null);
        assertEquals(1, m.at(w, "collective_vol_allreduce_gb", null, "rank").size());
        // ccl_nosteps: rank 0's second all_reduce has no size: the known 4096 B, partial, and the reason counts it.
        for (String metric : List.of("collective_vol_allreduce_gb", "collective_vol_total_gb")) {
            Row r = m.one("ccl_nosteps", metric, null, "workload", null, null, null);
            MetricRows.close(4096 / 1e9 + (metric.endsWith("total_gb") ? 4096 / 1e9 : 0), r.getDouble(3), metric);
            assertEquals("partial", r.getString(9), metric);
            assertTrue(r.getString(10).startsWith("1 of rank 0's instances"), r.getString(10));
        }
        m.workload(4096 / 1e9, "ccl_nosteps", "collective_vol_allgather_gb", null);
    }

    @Test
    void totalCommunicationTimeIsMergedCommInTheTrimmedSpanPerTrimmedStep() {
        String w = "ccl_steps";
        // Trimmed span [1000, 4000), 3 steps. Rank 0: AR1 400 + AG1 400 + RS1 200 + A2A 400 = 1400 µs → 1400/3.
        // Rank 1: AR1 200 + AG1 400 + RS1 300 + A2A 200 = 1100 µs → 1100/3. (Untrimmed, rank 0 would be
        // 2300/5 = 460 µs.)
        m.ok(1400e-6 / 3, w, "total_communication_time", null, "rank", 0, null, null);
        m.ok(1100e-6 / 3, w, "total_communication_time", null, "rank", 1, null, null);
        m.workload((1400e-6 / 3 + 1100e-6 / 3) / 2, w, "total_communication_time", null);
        // No steps: the merged total. Rank 0 [0,300) ∪ [200,500) = 500 µs (Σ dur would be 600) + [600,650) 50;
        // rank 1 200 + 100.
        m.ok(550e-6, "ccl_nosteps", "total_communication_time", null, "rank", 0, null, null);
        m.workload((550e-6 + 300e-6) / 2, "ccl_nosteps", "total_communication_time", null);
        // Two steps: nothing trimmed, and CCL-Bench clips only when it trimmed (> 2 steps): the whole-trace union
        // [500,1500) ∪ [2500,2600) = 1100 µs, the all_reduce that runs after step 2 included → 1100 / 2. (Clipped
        // to [0, 2000) it would be 1000 / 2.)
        m.workload(1100e-6 / 2, "ccl_twosteps", "total_communication_time", null);
    }

    @Test
    void communicationFractionUsesFullDurationsOfKernelsOverlappingTheWindow() {
        String w = "ccl_steps";
        // Rank 0: #2 [1000,2000) overlaps K1 500, AR1 400, AG1 400 (full, though 300 of it lie in #3): 800/1300;
        //         #3 [2000,3000) overlaps AG1 400, K2 300, RS1 200, K3 500 (full): 600/1400;
        //         #4 [3000,4000) overlaps K3 500, A2A 400: 400/900.
        // Rank 1: #2 K1 800, AR1 200: 200/1000; #3 AG1 400, RS1 300: 700/700; #4 A2A 200, K2 300: 200/500.
        double r0 = (100.0 * 800 / 1300 + 100.0 * 600 / 1400 + 100.0 * 400 / 900) / 3;
        double r1 = (100.0 * 200 / 1000 + 100.0 * 700 / 700 + 100.0 * 200 / 500) / 3;
        m.ok(100.0 * 800 / 1300, w, "communication_fraction", null, "step", 0, 2L, null);
        m.ok(100.0 * 600 / 1400, w, "communication_fraction", null, "step", 0, 3L, null);
        m.ok(100.0 * 400 / 900, w, "communication_fraction", null, "step", 0, 4L, null);
        m.ok(r0, w, "communication_fraction", null, "rank", 0, null, null);
        m.ok(r1, w, "communication_fraction", null, "rank", 1, null, null);
        m.workload((r0 + r1) / 2, w, "communication_fraction", null);
        // Two steps, none trimmed: #1 [0,1000) AR 1000 of 300 + 100 + 1000; #2 [1000,2000) AR 1000 of 1000.
        m.workload((100.0 * 1000 / 1400 + 100.0) / 2, "ccl_twosteps", "communication_fraction", null);
        // No steps: nothing to compute, and the row says why.
        m.gap("missing_input", "no ProfilerStep annotations", "ccl_nosteps", "communication_fraction", null);
    }

    @Test
    void computeCommOverlapClipsKernelsToTrimmedWindows() {
        String w = "ccl_steps";
        // Rank 0, clipped to each trimmed window:
        //   #2: comm [1400,1800) + AG1 [1900,2000) = 500; compute K1 [1100,1600); overlap [1400,1600) = 200.
        //   #3: comm AG1 [2000,2300) + RS1 [2500,2700) = 500; compute K2 [2100,2400), K3 [2600,3000);
        //       overlap [2100,2300) 200 + [2600,2700) 100 = 300.
        //   #4: comm A2A [3200,3600) 400; compute K3 [3000,3100); overlap 0.
        //   Σ overlap / Σ comm = 500 / 1400.
        // Rank 1: #2 comm 200 inside K1: 200; #3 comm 700, no compute: 0; #4 A2A [3100,3300) ∩ K2 [3200,3500) 100.
        //   300 / 1100.
        m.ok(100.0 * 500 / 1400, w, "compute_comm_overlap", null, "rank", 0, null, null);
        m.ok(100.0 * 300 / 1100, w, "compute_comm_overlap", null, "rank", 1, null, null);
        m.workload((100.0 * 500 / 1400 + 100.0 * 300 / 1100) / 2, w, "compute_comm_overlap", null);
        // Two steps: #1 comm [500,1000) ∩ compute [600,700) = 100 of 500; #2 comm [1000,1500), no compute.
        m.workload(100.0 * 100 / 1000, "ccl_twosteps", "compute_comm_overlap", null);
    }

    @Test
    void bandwidthUtilizationIsInBytesInGiB() {
        String w = "ccl_steps";
        // busbw factor with n = 2: all_reduce 2·1/2 = 1, the others 1/2. Sample = In bytes / dur(s) · f / 2^30.
        // all_reduce: rank 0 4096 B over 300, 400, 600 µs; rank 1 8192 B over 300, 200, 400 µs → B/s
        //   13.65e6, 10.24e6, 6.83e6, 27.31e6, 40.96e6, 20.48e6; sorted, the middle two: 4096/300µs, 8192/400µs.
        m.workload(
                (4096 / (300_000 / 1e9) + 8192 / (400_000 / 1e9)) / 2 / GIB,
                w,
                "bandwidth_utilization_allreduce",
                null);
        // all_gather: In 4096 B (Out is 8192) over 400 µs on both ranks, f = 1/2 → 5.12e6 B/s.
        m.workload(4096 / (400_000 / 1e9) * 0.5 / GIB, w, "bandwidth_utilization_allgather", null);
        // reduce_scatter: In 8192 B over 200 and 300 µs, f = 1/2 → mean of the two.
        m.workload(
                (8192 / (200_000 / 1e9) * 0.5 + 8192 / (300_000 / 1e9) * 0.5) / 2 / GIB,
                w,
                "bandwidth_utilization_reducescatter",
                null);
        // all_to_all: In 4096 B over 400 and 200 µs, f = 1/2.
        m.workload(
                (4096 / (400_000 / 1e9) * 0.5 + 4096 / (200_000 / 1e9) * 0.5) / 2 / GIB,
                w,
                "bandwidth_utilization_alltoall",
                null);
        // The GB/s busbw of all_gather uses S = Out = 8192 B: 8192 / 400000 ns · 1/2 = 0.01024 GB/s, which is not
        // bandwidth_utilization_allgather · 2^30 / 1e9 (= 0.00512).
        m.ok(8192.0 / 400_000 * 0.5, w, "busbw_gbps", null, "workload", null, null, "all_gather");
    }

    @Test
    void aggregateGpuUtilizationCountsKernelsOnly() {
        String w = "ccl_steps";
        // Rank 0 kernel union: [100,900) 800 + [1100,1800) 700 + [1900,2400) 500 + [2500,3100) 600 + [3200,3600) 400
        //   + [4100,4900) 800 = 3800 over [100,4900) = 4800. The memcpy [4900,5000) is left out.
        // Rank 1: [200,500) 300 + [1100,1900) 800 + [2100,2500) 400 + [2600,2900) 300 + [3100,3500) 400
        //   + [4200,4600) 400 = 2600 over [200,4600) = 4400.
        m.ok(100.0 * 3800 / 4800, w, "aggregate_gpu_utilization", null, "rank", 0, null, null);
        m.ok(100.0 * 2600 / 4400, w, "aggregate_gpu_utilization", null, "rank", 1, null, null);
        m.workload((100.0 * 3800 / 4800 + 100.0 * 2600 / 4400) / 2, w, "aggregate_gpu_utilization", null);
        // gpu_utilization keeps the memcpy: 3900 over [100,5000) = 4900 on rank 0.
        m.ok(100.0 * 3900 / 4900, w, "gpu_utilization", null, "rank", 0, null, null);
    }

    @Test
    void stragglerIsTheSpreadOfNcclDevKernelTime() {
        // Σ dur of ncclDevKernel_ kernels: rank 0 300 + 400 + 400 + 200 + 400 + 600 = 2300; rank 1 300 + 200 + 400
        // + 300 + 200 + 400 = 1800. (max − min) / max = 500 / 2300.
        m.workload(500.0 / 2300, "ccl_steps", "straggler", null);
        // ccl_nosteps: rank 0 300 + 300 + 50 = 650, rank 1 200 + 100 = 300 → 350 / 650.
        m.workload(350.0 / 650, "ccl_nosteps", "straggler", null);
        // One rank: null, with a status and a reason (CCL-Bench's tool returns 0.0 for "fewer than two ranks").
        m.gap(
                "missing_input",
                "needs ncclDevKernel_ kernels on at least two ranks (1 rank(s) have any)",
                "ccl_twosteps",
                "straggler",
                null);
        // The legacy ncclKernel_* case (CCL-Bench counts none) is DlrmMetricsTest's.
    }

    @Test
    void commTimeImbalanceIsTheSameSpreadOverEveryCommActivity() {
        // Every comm kernel here is an ncclDevKernel_, so the same numbers as straggler: 500 / 2300, 350 / 650.
        m.workload(500.0 / 2300, "ccl_steps", "comm_time_imbalance", null);
        m.workload(350.0 / 650, "ccl_nosteps", "comm_time_imbalance", null);
        m.gap(
                "missing_input",
                "needs communication activity on at least two ranks (1 rank(s) have any)",
                "ccl_twosteps",
                "comm_time_imbalance",
                null);
    }

    @Test
    void memcpyExposedPctPerRankAndStepWhileMemoryTransferOverheadSeesNoCopyKernel() {
        String w = "ccl_steps";
        // Rank 0's only copy is the Kineto memcpy M [4900,5000): CCL-Bench reads kernels only, so
        // memory_transfer_overhead has no copy kernel on any rank (its tool prints -1.0) → null with the reason.
        m.gap("missing_input", "no copy kernel", w, "memory_transfer_overhead", null);
        // memcpy_exposed_pct keeps it: no compute overlaps [4900,5000) (C4 ends at 4900) → pure 100 µs over rank 0's
        // GPU span [100, 5000) = 4900 µs. Rank 1 has no copy: skipped, so the workload value is rank 0's.
        m.ok(100.0 * 100 / 4900, w, "memcpy_exposed_pct", null, "rank", 0, null, null);
        m.workload(100.0 * 100 / 4900, w, "memcpy_exposed_pct", null);
        // Per step, over the step's activities: step 5 holds C4 [4100,4900), AR2 [4200,4800) and M → pure 100 over
        // [4100, 5000) = 900 µs.
        m.ok(100.0 * 100 / 900, w, "memcpy_exposed_pct", null, "step", 0, 5L, null);
        assertTrue(
                m.at(w, "memcpy_exposed_pct", null, "step").size() == 1,
                () -> "only rank 0's step 5 has a copy: " + m.at(w, "memcpy_exposed_pct", null, "step"));
    }

    @Test
    void noNullValueIsOk() {
        // ccl_steps, ccl_nosteps, ccl_twosteps: every null value, at every scope, says why.
        m.assertNoNullIsOk();
    }

    @Test
    void loadImbalanceIsTheRatioOfKernelUnions() {
        // |kernel union|: rank 0 3800, rank 1 2600 (above); max / min.
        m.workload(3800.0 / 2600, "ccl_steps", "load_imbalance_ratio", null);
    }

    /** Issue 32: no metric row of this warehouse holds an impossible value (MetricRows.assertNoImpossibleValues). */
    @Test
    void noImpossibleValue() {
        m.assertNoImpossibleValues("NVIDIA H100");
    }
}
