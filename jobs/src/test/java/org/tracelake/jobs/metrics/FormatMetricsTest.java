package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The metrics job on one trace of each non-Kineto format, through the whole refresh (ingest, metrics, swap) of one
 * archive. Every expected number was computed outside tracelake, by the python3 / sqlite3 code quoted beside it,
 * straight from the trace files (never from the events table).
 *
 * <ul>
 *   <li>{@code clover}: ../shared/traces/nsys/perlmutter-cloverleaf-cuda.sqlite, one MPI rank of CloverLeaf (CUDA)
 *       on a 4× A100 node; not an LLM, no NCCL. Card: 4 × NVIDIA A100, phase "simulation".
 *   <li>{@code aorta}: ../shared/traces/rocprofv3/aorta-mi350 (908_results.json.gz), the AORTA training benchmark
 *       on 8× MI350X, one process. Card: 8 × AMD Instinct MI350X, training.
 *   <li>{@code tpu}: src/test/resources/xla/tpu-v6e-4chip.trace.json (written for the reader test by
 *       make_tpu_trace.py beside it): 4 TPU v6e chips, 2 steps, synchronous collectives whose all-reduces follow
 *       dur = 5 µs + S·2(n−1)/n ÷ 90 GB/s. Card: 4 × TPU v6e, training, num_params 124,000,000.
 *   <li>{@code tpu_async}: src/test/resources/metrics/tpu-async-2chip.trace.json (make_tpu_async_trace.py beside
 *       it): 2 chips, collectives as -start/-done pairs (and a send/send-done pair), plus one unpaired half at each
 *       end of the profile. Card: 2 × TPU v6e, inference, num_params 2,000,000,000.
 *   <li>{@code xplane}: ../shared/traces/xplane/jax-conv-8xmi300 (tw003.xplane.pb), a JAX run on 8× MI300.
 *       Card: 8 × AMD Instinct MI300X.
 * </ul>
 */
@RealTraces({"nsys/perlmutter-cloverleaf-cuda.sqlite", "rocprofv3/aorta-mi350", "xplane/jax-conv-8xmi300"})
class FormatMetricsTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static MetricRows m;

    /** The seed-002 TPU family (METRICS.md §4 "TPU / XLA"). */
    static final List<String> TPU_FAMILY = List.of(
            "wall_time_s",
            "total_compute_time_s",
            "total_comm_time_s",
            "avg_comm_kernel_time_s",
            "compute_utilization_proxy",
            "communication_fraction",
            "num_comm_kernels",
            "num_comm_kernels_w_size_and_time",
            "avg_comm_bandwidth_GBps",
            "allreduce_comm_time_s",
            "achieved_flops_from_trace_json",
            "total_model_flops_from_args",
            "flops_per_token_used",
            "estimated_total_tokens",
            "estimated_throughput_tokens_per_s");

    @BeforeAll
    static void refreshOnce() throws IOException, URISyntaxException {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        archive.copyShared("clover", "nsys/perlmutter-cloverleaf-cuda.sqlite")
                .card("clover", "simulation", "cloverleaf", "NVIDIA A100", 4);
        archive.copyShared("aorta", "rocprofv3/aorta-mi350")
                .card("aorta", "training", "aorta", "AMD Instinct MI350X", 8);
        archive.copyShared("xplane", "xplane/jax-conv-8xmi300")
                .card("xplane", "training", "jax-conv", "AMD Instinct MI300X", 8);
        archive.write("tpu", "tpu-v6e-4chip.trace.json", resource("/xla/tpu-v6e-4chip.trace.json"))
                .write("tpu", "tpu.yaml", tpuCard("training", 124_000_000L, 4));
        archive.write("tpu_async", "tpu-async-2chip.trace.json", resource("/metrics/tpu-async-2chip.trace.json"))
                .write("tpu_async", "tpu_async.yaml", tpuCard("inference", 2_000_000_000L, 2));
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    static byte[] resource(String name) throws IOException, URISyntaxException {
        return Files.readAllBytes(
                Path.of(FormatMetricsTest.class.getResource(name).toURI()));
    }

    /** |actual − expected| within rel × |expected|. */
    static void close(double expected, double actual, String what, double rel) {
        assertTrue(
                Math.abs(actual - expected) <= rel * Math.abs(expected),
                () -> what + ": expected " + expected + " but was " + actual);
    }

    static String tpuCard(String phase, long params, int chips) {
        return String.join(
                "\n",
                "workload:",
                "  model:",
                "    phase: " + phase,
                "    model_family: test-model",
                "    model_arch:",
                "      num_params: " + params,
                "  hardware:",
                "    xpu_spec:",
                "      type: TPU",
                "      model: TPU v6e",
                "      total_count: " + chips,
                "");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Nsight Systems: CloverLeaf

    /**
     * GPU activity is the file's kernels (1,312) and memcpys (279) on deviceId 0 (no MEMSET table; the
     * SYNCHRONIZATION rows are not activity), so one rank, 0. Computed with python3 + sqlite3:
     * <pre>
     * rows = kernels: select k.start, k.end, s.value from CUPTI_ACTIVITY_KIND_KERNEL k
     *                 join StringIds s on s.id = coalesce(k.demangledName, k.shortName)
     *      + memcpys: select start, end from CUPTI_ACTIVITY_KIND_MEMCPY                        → 1,591 intervals
     * sort by start; merge while start <= current end   → busy = 303,795,463 ns
     * span = max(end) − min(start) = 875,746,050 − 533,338,240 = 342,407,810 ns
     * 100 · busy / span = 88.72328671475104 %; idle = span − busy = 38.612347 ms
     * </pre>
     */
    @Test
    void nsysGpuUtilizationIsTheUnionOfKernelsAndCopiesOverTheSpan() {
        m.ok(88.72328671475104, "clover", "gpu_utilization", null, "rank", 0, null, null);
        m.workload(88.72328671475104, "clover", "gpu_utilization", null);
        m.ok(38.612347, "clover", "gpu_utilization", "idle_ms", "rank", 0, null, null);
    }

    /**
     * Kernel categories by METRICS.md §2 (python re, first match): memcpys are "memory"; the 10 + 3
     * {@code clover::par_reduce_kernel<…>} launches match {@code reduce(?!_?scatter)} ("reduction"); everything
     * else matches no rule ("other"). Σ dur: other 271,750,230 ns, reduction 22,654,310, memory 9,390,923 (kernels
     * Σ 294,404,540 + memcpys Σ 9,390,923 = 303,795,463 ns, which equals the union: nothing overlaps).
     * Shares: 89.45170784199631 %, 7.457092932293067 %, 3.0911992257106222 %.
     */
    @Test
    void nsysKernelBreakdownByCategory() {
        String w = "clover";
        m.ok(89.45170784199631, w, "kernel_breakdown", null, "workload", null, null, "other");
        m.ok(89.45170784199631, w, "kernel_breakdown", null, "key", null, null, "other");
        m.ok(7.457092932293067, w, "kernel_breakdown", null, "key", null, null, "reduction");
        m.ok(3.0911992257106222, w, "kernel_breakdown", null, "key", null, null, "memory");
        // kernel_time_s per category: the same sums in s over the one rank
        m.ok(0.27175023, w, "kernel_time_s", null, "key", null, null, "other");
        m.ok(0.02265431, w, "kernel_time_s", null, "key", null, null, "reduction");
    }

    /** No kernel name matches the §2 communication regex (python: 0 of 1,591), so 0 collectives, status ok. */
    @Test
    void nsysWithoutNcclCountsZeroCollectives() {
        m.ok(0, "clover", "coll_call_num", null, "rank", 0, null, null);
        m.workload(0, "clover", "coll_call_num", null);
        // not an XLA workload: the TPU family is not applicable, and the shared communication_fraction has its one
        // CCL-Bench gap row (no steps)
        for (String metric : TPU_FAMILY) {
            if (metric.equals("communication_fraction")) continue;
            m.gap("not_applicable", "no XLA/TPU device ops", "clover", metric, null);
        }
        m.gap("missing_input", "no ProfilerStep annotations", "clover", "communication_fraction", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // rocprofv3: AORTA on MI350X

    /**
     * python3 over 908_results.json.gz: {@code buffer_records.kernel_dispatch} has 43,915 records, all on the one GPU
     * agent (gpu_index 0, so rank 0); names from {@code kernel_symbols[kernel_id]} (formatted, else demangled,
     * truncated, kernel_name; ".kd" dropped). Classed by the §2 rules: 1,310 match the communication regex (all
     * {@code ncclDevKernel_Generic_1}), the runtime's 3,153 {@code __amd_rocclr_copyBuffer} are memcpy and its 3,213
     * {@code __amd_rocclr_fillBufferAligned} memset (§2's ROCm blit kernels), the other 36,239 are compute.
     */
    @Test
    void rocprofDispatchesAndCollectives() {
        Row counts = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = 'aorta'")
                .selectExpr(
                        "count_if(cat = 'kernel')",
                        "count_if(activity_class = 'comm')",
                        "count_if(activity_class = 'compute')",
                        "count(DISTINCT rank)",
                        "count_if(activity_class = 'memcpy')",
                        "count_if(activity_class = 'memset')")
                .first();
        assertEquals(43_915L, counts.getLong(0));
        assertEquals(1_310L, counts.getLong(1));
        assertEquals(36_239L, counts.getLong(2));
        assertEquals(1L, counts.getLong(3));
        assertEquals(3_153L, counts.getLong(4));
        assertEquals(3_213L, counts.getLong(5));
        m.ok(1_310, "aorta", "coll_call_num", null, "rank", 0, null, null);
        m.workload(1_310, "aorta", "coll_call_num", null);
    }

    /**
     * python3, METRICS.md §3 on the dispatches above (start_timestamp, end_timestamp in ns), each first clipped where it
     * runs past the start of the next dispatch on its (agent, stream_id), sorted by start (docs/METRICS.md §3; issue
     * 46, TraceLens #669): 1,275 dispatches lose 195,321 ns, 19,025 ns of it compute time that ran into a
     * communication kernel on the same stream. U_comm = union of the 1,310 comm intervals = 4,158,756,678 ns (as
     * unclipped); U_comp = union of the 36,239 compute ones = 258,644,791 ns (258,663,816 unclipped); O = |U_comm ∩
     * U_comp| by the two-pointer walk = 196,028,255 ns (196,046,994 unclipped). Ratios O/U_comm =
     * 0.04713626455642327, O/U_comp = 0.7579052887247205; exposed = U_comm − O = 3,962.728423 ms. One rank, so
     * workload = rank. gpu_utilization: union of all 43,915 = 4,233,112,334 ns (no clip moves it) over the span
     * 15,122,023,494 ns = 27.993028417655758 %.
     */
    @Test
    void rocprofCommComputeOverlap() {
        String w = "aorta";
        String metric = "comm_comp_overlap";
        m.ok(0.04713626455642327, w, metric, "overlap_ratio_of_comm", "rank", 0, null, null);
        m.ok(0.7579052887247205, w, metric, "overlap_ratio_of_comp", "rank", 0, null, null);
        m.workload(0.04713626455642327, w, metric, "overlap_ratio_of_comm");
        m.workload(0.7579052887247205, w, metric, "overlap_ratio_of_comp");
        m.workload(4_158.756678, w, metric, "comm_time_ms");
        m.workload(258.644791, w, metric, "comp_time_ms");
        m.workload(196.028255, w, metric, "overlap_time_ms");
        m.workload(3_962.728423, w, metric, "exposed_comm_ms");
        m.workload(27.993028417655758, w, "gpu_utilization", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // XLA trace JSON: the hand-written 4-chip TPU trace

    /*
     * Every value below by hand from make_tpu_trace.py, and checked with a python3 script (exact fractions) that
     * reads the JSON itself: per chip and step the XLA Ops are
     *   fusion.1 120,456,789 ps (model_flops 12,582,912) · convolution.2 851,234,567 ps (1,099,511,627,776)
     *   · all-reduce.3/.4/.5 74,905,067 / 284,620,267 / 1,123,481,067 ps (S = 4, 16, 64 MiB; model_flops 0)
     *   · all-gather.6 190,321,000 ps (S = out = 8 MiB raw × 4 = 32 MiB) · collective-permute.7 41,500,250 ps (2 MiB)
     *   · copy-start.8 / copy-done.8 (memcpy: neither compute nor comm) · fusion.9 64,000,000 ps (16,777,216)
     * T = device_duration_ps / 1e12. 4 chips × 2 steps = 8 chip-steps.
     */

    @Test
    void tpuTimesAndUtilization() {
        String w = "tpu";
        // wall: every complete event, host too: the host's "$train.py:88 train_step" of step 10 starts first, at
        // ts 201.234567 µs (→ 201,235 ns); the Steps span of step 11 ends last, 13,001.234567 µs (→ 13,001,235 ns)
        // + 11,998 µs = 24,999,235 ns. 24,999,235 − 201,235 = 24,798,000 ns.
        m.workload(0.024798, w, "wall_time_s", null);
        // per chip: its Steps line, 1,001,235 → 24,999,235 ns
        m.ok(0.023998, w, "wall_time_s", null, "rank", 2, null, null);
        // compute: 8 × (120,456,789 + 851,234,567 + 64,000,000) ps = 8 × 1,035,691,356 ps
        m.workload(8 * 1_035_691_356e-12, w, "total_compute_time_s", null);
        m.ok(2 * 1_035_691_356e-12, w, "total_compute_time_s", null, "rank", 0, null, null);
        // comm: 8 × (74,905,067 + 284,620,267 + 1,123,481,067 + 190,321,000 + 41,500,250) = 8 × 1,714,827,651 ps
        m.workload(8 * 1_714_827_651e-12, w, "total_comm_time_s", null);
        m.ok(2 * 1_714_827_651e-12, w, "total_comm_time_s", null, "rank", 3, null, null);
        m.workload(1_714_827_651e-12 / 5, w, "avg_comm_kernel_time_s", null);
        // pooled over the 4 chips, as the seed: 0.008285530848 / 0.024798
        m.workload(0.33412093104282603, w, "compute_utilization_proxy", null);
        m.ok(2 * 1_035_691_356e-12 / 0.023998, w, "compute_utilization_proxy", null, "rank", 1, null, null);
        // steps: each chip's Steps line (METRICS.md §1 via step_priority, as the reader assigns events): step 10 at
        // 1,001.234567 µs and step 11 at 13,001.234567 µs, both 11,998 µs long, on every chip
        m.ok(11.998, w, "iter_time", null, "step", 2, 11L, null);
        m.workload(11.998, w, "iter_time", "avg_ms");
        m.workload(0, w, "iter_time", "std_ms");
        m.workload(0.011998, w, "avg_step_time", null); // two steps: none trimmed
        // so communication_fraction is the CCL-Bench one (per chip-step, Σ dur_ns of comm kernels over Σ dur_ns of
        // all kernels overlapping the step, XLA Ops rows incl. the copy-start/-done pair): python over the JSON,
        // 1,714,827 / 2,848,619 ns on each of the 8 chip-steps
        m.workload(100.0 * 1_714_827 / 2_848_619, w, "communication_fraction", null);
        m.ok(2 * 1_714_827_651e-12 / 10, w, "avg_comm_kernel_time_s", null, "rank", 0, null, null); // 10 per chip
    }

    @Test
    void tpuCommunicationCountsBandwidthAndAllReduceTime() {
        String w = "tpu";
        // 5 collectives × 8 chip-steps, all with a size and a duration
        m.workload(40, w, "num_comm_kernels", null);
        m.workload(40, w, "num_comm_kernels_w_size_and_time", null);
        m.ok(10, w, "num_comm_kernels", null, "rank", 0, null, null);
        // mean over the 40 of (4 − 1) · S / T / 1e9: per chip-step (3 · S / T GB/s) 167.99..., 176.83..., 179.19...,
        // 528.96... (all-gather, 32 MiB), 151.60... → mean 240.90705461929147 GB/s (python, exact fractions)
        m.workload(240.90705461929147, w, "avg_comm_bandwidth_GBps", null);
        // 8 × (74,905,067 + 284,620,267 + 1,123,481,067) ps
        m.workload(8 * 1_483_006_401e-12, w, "allreduce_comm_time_s", null);
    }

    @Test
    void tpuFlopsAndTokenEstimates() {
        String w = "tpu";
        long flopsPerChipStep = 12_582_912L + 1_099_511_627_776L + 16_777_216L; // 1,099,540,987,904
        // Σ model_flops ÷ Σ T over ops with model_flops > 0: per chip-step 1,099,540,987,904 / 1,035,691,356 ps
        m.workload(flopsPerChipStep / 1_035_691_356e-12, w, "achieved_flops_from_trace_json", null);
        m.workload(8.0 * flopsPerChipStep, w, "total_model_flops_from_args", null); // 8,796,327,903,232
        m.workload(6.0 * 124_000_000, w, "flops_per_token_used", null); // training: 6 · params
        m.workload(8.0 * flopsPerChipStep / 744_000_000, w, "estimated_total_tokens", null); // 11,823.0213...
        m.workload(8.0 * flopsPerChipStep / 744_000_000 / 0.024798, w, "estimated_throughput_tokens_per_s", null);
        m.ok(2.0 * flopsPerChipStep, w, "total_model_flops_from_args", null, "rank", 1, null, null);
    }

    /** Every seed metric has exactly one ok workload row (communication_fraction included: one definition wins). */
    @Test
    void tpuEverySeedMetricOnceAtWorkloadScope() {
        for (String w : List.of("tpu", "tpu_async")) {
            for (String metric : TPU_FAMILY) {
                Row r = m.one(w, metric, null, "workload", null, null, null);
                assertEquals("ok", r.getString(9), () -> w + "/" + metric + ": " + r);
            }
        }
    }

    /**
     * CommunicationFamily's Hockney fit on the TPU all-reduces: 24 instances (3 sizes × 4 chips × 2 steps), S =
     * raw_bytes_accessed, n = 4 from replica_groups=[1,4]<=[4], dur = the reader's ns (device_duration_ps rounded:
     * 74,905 / 284,620 / 1,123,481 ns). python3 least squares of dur_s on x = S·2(n−1)/n over exact fractions:
     * α = 4.999833333333333e-06 s, β = 1.1111111867995488e-11 s/B, 1/β = 89,999,993,869.23695 B/s — the generator's
     * 5 µs and 1/(90 GB/s) but for the ns rounding.
     */
    @Test
    void tpuHockneyFitRecoversAlphaAndBeta() {
        Row alpha = m.one("tpu", "hockney_alpha_s", null, "workload", null, null, null);
        Row beta = m.one("tpu", "hockney_beta_s_per_byte", null, "workload", null, null, null);
        Row inverse = m.one("tpu", "hockney_inverse_beta_Bps", null, "workload", null, null, null);
        close(5e-6, alpha.getDouble(3), "alpha vs the generator's 5 µs", 1e-4);
        close(1 / 90e9, beta.getDouble(3), "beta vs 1/(90 GB/s)", 1e-6);
        close(90e9, inverse.getDouble(3), "1/beta vs 90 GB/s", 1e-6);
        close(4.999833333333333e-06, alpha.getDouble(3), "alpha, least squares", 1e-9);
        close(1.1111111867995488e-11, beta.getDouble(3), "beta, least squares", 1e-9);
        close(89_999_993_869.23695, inverse.getDouble(3), "1/beta, least squares", 1e-9);
    }

    // ---------------------------------------------------------------------------------------------------------
    // XLA trace JSON: async collectives (-start/-done pairs)

    /*
     * make_tpu_async_trace.py, by hand (µs after each step's base B; chip 1 runs 2 µs later). Per chip and step:
     * compute fusion.1 100 + fusion.3 200; collective instances: all-reduce pair [100, 353) = 253 µs (8 MiB),
     * all-gather pair [353, 420) = 67 µs (S = out = 4 MiB × 2 = 8 MiB), all-reduce.5 50 µs (8 MiB). Unpaired:
     * chip 1's collective-permute-done.0, 5 µs, no size; chip 0's all-gather-start.7, 2 µs, S = 1 MiB × 2 = 2 MiB.
     * Chip 1, step 2: send.8 + send-done.8, [470, 480) = 10 µs, S = 1 MiB (send/recv pairs have no -start).
     * Counting ops instead would give 4 × 5 + 2 + 2 = 24 "kernels" and a 3 µs all-reduce-start moving 8 MiB.
     */

    @Test
    void asyncCollectivesCountOncePerStartDonePair() {
        String w = "tpu_async";
        m.workload(15, w, "num_comm_kernels", null); // 4 chip-steps × 3 + 2 unpaired halves + the send pair
        m.workload(14, w, "num_comm_kernels_w_size_and_time", null); // the permute half has no size
        m.ok(7, w, "num_comm_kernels", null, "rank", 0, null, null);
        m.ok(8, w, "num_comm_kernels", null, "rank", 1, null, null);
        m.ok(7, w, "num_comm_kernels_w_size_and_time", null, "rank", 0, null, null);
        m.ok(7, w, "num_comm_kernels_w_size_and_time", null, "rank", 1, null, null);
        // 4 × (253 + 67 + 50) + 5 + 2 + 10 = 1,497 µs; rank 0: 2 × 370 + 2 = 742; rank 1: 740 + 5 + 10 = 755
        m.workload(1_497e-6, w, "total_comm_time_s", null);
        m.ok(742e-6, w, "total_comm_time_s", null, "rank", 0, null, null);
        m.ok(755e-6, w, "total_comm_time_s", null, "rank", 1, null, null);
        m.workload(1_497e-6 / 15, w, "avg_comm_kernel_time_s", null);
        m.workload(4 * (253 + 50) * 1e-6, w, "allreduce_comm_time_s", null); // 1,212 µs
        // n_chips − 1 = 1; mean of S/T over the 14 sized instances:
        // (4 × (8 MiB/253 µs + 8 MiB/67 µs + 8 MiB/50 µs) + 2 MiB/2 µs + 1 MiB/10 µs) / 14 / 1e9
        double mib8 = 8 * 1_048_576.0;
        double sumBytesPerS =
                4 * (mib8 / 253e-6 + mib8 / 67e-6 + mib8 / 50e-6) + 2 * 1_048_576.0 / 2e-6 + 1_048_576.0 / 10e-6;
        m.workload(sumBytesPerS / 14 / 1e9, w, "avg_comm_bandwidth_GBps", null); // 175.5686336677988
    }

    /**
     * Issue 14 item 8: the pairing is the metrics' one rule (CommInstances), so CommunicationFamily counts the same 15
     * instances as the seed-002 metrics above, not 24 ops. Per rank: chip 0 has 3 per step + the unpaired
     * all-gather-start.7 = 7 (3 in step 1, 4 in step 2); chip 1 has 3 per step + the orphan permute-done.0 (before
     * step 1's window: no step) + the send pair = 8. By kind (mean over the 2 ranks): all_reduce 4 + 4, all_gather
     * 3 + 2, send_recv (collective-permute, send) 0 + 2. Bytes (S: all-reduce in, all-gather out = in × 2):
     * 8 + 8 + 8 MiB per chip-step; chip 0 adds 2 MiB (all-gather.7), chip 1 1 MiB (send.8) and one instance of
     * unknown size (the permute): 50 + 49 = 99 MiB, partial. collective_vol (rank 0, in bytes): all-reduce 4 × 8 MiB,
     * all-gather 2 × 4 + 1 = 9 MiB.
     */
    @Test
    void asyncPairsAreOneCollectiveInEveryMetric() {
        String w = "tpu_async";
        m.ok(7, w, "coll_call_num", null, "rank", 0, null, null);
        m.ok(8, w, "coll_call_num", null, "rank", 1, null, null);
        m.workload(7.5, w, "coll_call_num", null);
        m.ok(4, w, "coll_call_num", null, "key", null, null, "all_reduce");
        m.ok(2.5, w, "coll_call_num", null, "key", null, null, "all_gather");
        m.ok(1, w, "coll_call_num", null, "key", null, null, "send_recv");
        m.ok(3, w, "coll_call_num", null, "step", 0, 1L, null);
        m.ok(4, w, "coll_call_num", null, "step", 0, 2L, null);
        m.ok(3, w, "coll_call_num", null, "step", 1, 1L, null);
        m.ok(4, w, "coll_call_num", null, "step", 1, 2L, null);
        m.ok(50.0 * 1_048_576, w, "comm_bytes_total", null, "rank", 0, null, null);
        Row bytes = m.one(w, "comm_bytes_total", null, "workload", null, null, null);
        MetricRows.close(99.0 * 1_048_576, bytes.getAs("value"), "tpu_async comm_bytes_total");
        assertEquals("partial", bytes.getAs("status"));
        assertEquals("1 of 15 collective instances have no known size", bytes.getAs("reason"));
        m.workload(32.0 * 1_048_576 / 1e9, w, "collective_vol_allreduce_gb", null);
        m.workload(9.0 * 1_048_576 / 1e9, w, "collective_vol_allgather_gb", null);
        m.workload(41.0 * 1_048_576 / 1e9, w, "collective_vol_total_gb", null);
    }

    @Test
    void asyncTraceTimesFlopsAndTokens() {
        String w = "tpu_async";
        // host span [0, 2000) µs covers everything; chip 0 [10, 1910), chip 1 [4, 1912) (its orphan at 4 µs)
        m.workload(0.002, w, "wall_time_s", null);
        m.ok(0.0019, w, "wall_time_s", null, "rank", 0, null, null);
        m.ok(0.001908, w, "wall_time_s", null, "rank", 1, null, null);
        m.workload(4 * 300e-6, w, "total_compute_time_s", null);
        m.workload(0.6, w, "compute_utilization_proxy", null); // 1,200 / 2,000
        // the chips' Steps lines make communication_fraction the CCL-Bench one (per chip-step, Σ dur of comm ops over
        // Σ dur of all ops overlapping the step, each async half by its own dur; python over the JSON):
        // chip 0: 170/470 and 172/472, chip 1: 170/470 and 180/480 (µs); mean of the chips' means
        m.workload(
                (100.0 * 170 / 470 + 100.0 * 172 / 472) / 2 / 2 + (100.0 * 170 / 470 + 100.0 * 180 / 480) / 2 / 2,
                w,
                "communication_fraction",
                null);
        // flops: 4 × (2e12 + 6e12) over 4 × 300 µs
        m.workload(8e12 / 300e-6, w, "achieved_flops_from_trace_json", null);
        m.workload(3.2e13, w, "total_model_flops_from_args", null);
        m.workload(2.0 * 2e9, w, "flops_per_token_used", null); // inference: 2 · params
        m.workload(3.2e13 / 4e9, w, "estimated_total_tokens", null); // 8,000
        m.workload(8_000 / 0.002, w, "estimated_throughput_tokens_per_s", null);
        // the all-reduces are all 8 MiB: one distinct size, so no Hockney fit
        m.gap("missing_input", "needs >= 5 all_reduce instances", w, "hockney_alpha_s", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // XSpace: JAX on 8× MI300

    /**
     * A python3 protobuf wire-format walk of tw003.xplane.pb (XSpace.planes = 1; XPlane name 2, lines 3,
     * event_metadata 4; XLine timestamp_ns 3, events 4, name 2, display_name 11; XEvent metadata_id 1, offset_ps 2,
     * duration_ps 3): on each /device:GPU:N plane every event of its "Stream #k(Kernel)" lines is GPU activity
     * (start = timestamp_ns·1000 + offset_ps, ps). Union / (last end − first start) × 100 per device, in ps (all
     * values are whole ns, so the reader's rounding changes nothing):
     * <pre>
     * GPU:0 3,995,965,000 / 138,470,832,000 = 2.8857810285995824    GPU:4 3,493,365,000 / 91,596,080,000 = 3.813880463006714
     * GPU:1 3,345,845,000 / 112,106,106,000 = 2.9845341341175473    GPU:5 3,464,884,000 / 92,938,503,000 = 3.72814698769142
     * GPU:2 3,524,285,000 / 106,992,671,000 = 3.2939499192425994    GPU:6 3,403,004,000 / 104,221,477,000 = 3.2651657776832312
     * GPU:3 3,403,364,000 / 95,261,145,000 = 3.5726675340717353     GPU:7 3,502,165,000 / 90,563,059,000 = 3.8671010439256475
     * </pre>
     */
    @Test
    void xplaneGpuUtilizationPerDevice() {
        double[] expected = {
            2.8857810285995824,
            2.9845341341175473,
            3.2939499192425994,
            3.5726675340717353,
            3.813880463006714,
            3.72814698769142,
            3.2651657776832312,
            3.8671010439256475
        };
        double sum = 0;
        for (int rank = 0; rank < 8; rank++) {
            m.ok(expected[rank], "xplane", "gpu_utilization", null, "rank", rank, null, null);
            sum += expected[rank];
        }
        m.workload(sum / 8, "xplane", "gpu_utilization", null);
    }

    /**
     * The XSpace holds XLA device ops, so the TPU family applies. The same wire walk: 235 device events, none
     * communication: 5 kernels × 40 (compute, Σ duration_ps = 27,573,556,000 ps) and 35 {@code __amd_rocclr_copyBuffer}
     * (memcpy by §2's ROCm rule, 563,521,000 ps); every event of every plane (host included) spans 164,909,849,000 ps. No op carries
     * model_flops; the card has no num_params.
     */
    @Test
    void xplaneTpuFamilyWhereItApplies() {
        String w = "xplane";
        m.workload(0.164909849, w, "wall_time_s", null);
        m.workload(0.027573556, w, "total_compute_time_s", null);
        m.workload(0.027573556 / 0.164909849, w, "compute_utilization_proxy", null);
        m.workload(0, w, "num_comm_kernels", null);
        m.workload(0, w, "total_comm_time_s", null);
        m.gap("missing_input", "no communication ops", w, "avg_comm_kernel_time_s", null);
        m.gap("missing_input", "no communication op with a known size", w, "avg_comm_bandwidth_GBps", null);
        m.gap("missing_input", "no XLA op carries model_flops", w, "total_model_flops_from_args", null);
        m.gap("missing_input", "no XLA op with model_flops", w, "achieved_flops_from_trace_json", null);
        m.gap("missing_input", "card lacks model_arch.num_params", w, "flops_per_token_used", null);
    }

    @Test
    void noNullValueIsOk() {
        // nsys, rocprofv3 and XSpace workloads: every null value, at every scope, says why.
        m.assertNoNullIsOk();
    }

    /** Issue 32: no metric row of this warehouse holds an impossible value (MetricRows.assertNoImpossibleValues). */
    @Test
    void noImpossibleValue() {
        m.assertNoImpossibleValues(java.util.Map.of(
                "clover", "NVIDIA A100", "aorta", "AMD Instinct MI350X", "xplane", "AMD Instinct MI300X"));
    }
}
