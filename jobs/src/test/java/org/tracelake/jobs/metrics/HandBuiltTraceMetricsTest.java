package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.KinetoTraceBuilder.collectiveArgs;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.HashMap;
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
import org.tracelake.schemas.CollectiveSchema;

/**
 * Communication, overlap and cross-rank metrics (METRICS.md §3–§4) on traces written by hand, so every expected
 * number below is worked out from the events in this file (the arithmetic is in the comments). All times are
 * µs after T0 unless said otherwise; a kernel written "[a, b)" starts at a and ends at b. Streams: 7 and 8 are
 * compute streams, 20 and 21 NCCL streams. One archive, one refresh, seven workloads:
 * <ul>
 *   <li>{@code hb_overlap} (2 ranks): partial and nested comm/compute overlaps over two streams, a zero-duration
 *       kernel, a kernel launched in step 1 that runs into step 2, a memcpy;
 *   <li>{@code hb_straggler} (4 ranks): rank 2 starts its all_reduces 250 µs (and more) late, the others wait
 *       inside the kernel so that every instance ends at the same time;
 *   <li>{@code hb_single} (1 rank): no cross-rank join; six all_reduces whose durations follow α + β·x exactly;
 *   <li>{@code hb_busbw} (2 ranks): bus bandwidth medians (even and odd counts), size buckets, an unknown-size
 *       broadcast and a zero-duration all_gather;
 *   <li>{@code hb_mismatch} (2 ranks): 3 all_reduces on rank 0, 2 on rank 1;
 *   <li>{@code hb_seq} (2 ranks): collectives carry {@code Seq}; rank 1's profile starts one collective later;
 *   <li>{@code hb_nostep} (2 ranks): rank 1 lacks the ProfilerStep#2 annotation.
 * </ul>
 */
class HandBuiltTraceMetricsTest {

    static final String GEMM = "ampere_sgemm_128x64_nn";
    static final String ELEMENTWISE = "void at::native::vectorized_elementwise_kernel<4, float>";
    static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String ALL_GATHER = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String BROADCAST = "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String REDUCE_SCATTER =
            "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static MetricRows m;
    static List<Row> collectives;

    /** all_reduce of n Float elements (4 bytes each) on process group "0" of the given size. */
    static Map<String, Object> allReduce(long nelems, int groupSize) {
        return collectiveArgs("allreduce", nelems, nelems, "Float", groupSize, "0");
    }

    /** all_gather of n Float elements per rank: Out = In × group size. */
    static Map<String, Object> allGather(long nelems, int groupSize) {
        return collectiveArgs("_allgather_base", nelems, nelems * groupSize, "Float", groupSize, "0");
    }

    static Map<String, Object> withSeq(Map<String, Object> args, long seq) {
        Map<String, Object> a = new HashMap<>(args);
        a.put("Seq", seq);
        return a;
    }

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        overlapWorkload();
        stragglerWorkload();
        singleRankWorkload();
        meaninglessHockneyWorkloads();
        busbwWorkload();
        mismatchWorkload();
        seqWorkload();
        missingStepWorkload();
        duplicateStepWorkload();
        mixedSeqWorkload();
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
        collectives = spark.read()
                .format("iceberg")
                .load(archive.table("collectives"))
                .orderBy("workload", "match_key", "k")
                .collectAsList();
        spark.read().format("iceberg").load(archive.table("events")).createOrReplaceTempView("hb_events");
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_overlap
    // ---------------------------------------------------------------------------------------------------------

    /**
     * Rank 0, steps #1 [0,1000) and #2 [1000,2000):
     * <pre>
     *   A  compute s7  [100,400)   launched 50   (step 1)
     *   B  compute s8  [350,500)   launched 60   (step 1)   A∪B = [100,500): partial overlap of two streams
     *   C1 all_reduce  [300,600)   launched 70   (step 1)   partial overlap with A∪B: [300,500) = 200
     *   D  compute s7  [650,900)   launched 80   (step 1)
     *   C2 all_reduce  [700,800)   launched 85   (step 1)   nested in D: 100
     *   Z  compute s7  [750,750)   launched 90   (step 1)   zero duration
     *   E  compute s7  [985,1100)  launched 980  (step 1 by launch; runs 100 µs into step 2's window)
     *   C3 all_gather  [1200,1500) launched 1010 (step 2)
     *   F  compute s8  [1400,1450) launched 1020 (step 2)   nested in C3: 50
     *   M  memcpy s7   [1600,1700) no launch     (step 2 by its own start)
     * </pre>
     * Rank 1, same steps:
     * <pre>
     *   G   compute s7  [300,700)   launched 5    (step 1)
     *   C1' all_reduce s20 [200,500) launched 10  (step 1)
     *   C2' all_reduce s21 [400,600) launched 20  (step 1)   overlaps C1' on another NCCL stream
     *   C3' all_gather s20 [1200,1300) launched 1010 (step 2)   no compute in step 2
     * </pre>
     */
    static void overlapWorkload() {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2)
                .step(1, t(0), us(1000))
                .step(2, t(1000), us(1000))
                .kernel(GEMM, 7, t(100), us(300), t(50), Map.of())
                .kernel(ELEMENTWISE, 8, t(350), us(150), t(60), Map.of())
                .kernel(ALL_REDUCE, 20, t(300), us(300), t(70), allReduce(1024, 2))
                .kernel(GEMM, 7, t(650), us(250), t(80), Map.of())
                .kernel(ALL_REDUCE, 20, t(700), us(100), t(85), allReduce(1024, 2))
                .kernel(ELEMENTWISE, 7, t(750), 0, t(90), Map.of())
                .kernel(GEMM, 7, t(985), us(115), t(980), Map.of())
                .kernel(ALL_GATHER, 20, t(1200), us(300), t(1010), allGather(1024, 2))
                .kernel(ELEMENTWISE, 8, t(1400), us(50), t(1020), Map.of())
                .memcpy(7, t(1600), us(100), 4096);
        KinetoTraceBuilder r1 = new KinetoTraceBuilder(1, 2)
                .step(1, t(0), us(1000))
                .step(2, t(1000), us(1000))
                .kernel(GEMM, 7, t(300), us(400), t(5), Map.of())
                .kernel(ALL_REDUCE, 20, t(200), us(300), t(10), allReduce(1024, 2))
                .kernel(ALL_REDUCE, 21, t(400), us(200), t(20), allReduce(1024, 2))
                .kernel(ALL_GATHER, 20, t(1200), us(100), t(1010), allGather(1024, 2));
        archive.write("hb_overlap", "rank0_trace.json", r0.toJson())
                .write("hb_overlap", "rank1_trace.json", r1.toJson())
                .card("hb_overlap", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void commCompOverlapPerRank() {
        // Rank 0: U_comm = C1 [300,600) 300 + C2 [700,800) 100 + C3 [1200,1500) 300 = 700.
        //         U_compute = A∪B [100,500) 400 + D [650,900) 250 (Z inside, adds 0) + E [985,1100) 115
        //                     + F [1400,1450) 50 = 815 (M is memcpy, not compute).
        //         O = [300,500) 200 + [700,800) 100 + [1400,1450) 50 = 350.
        String w = "hb_overlap";
        m.ok(350.0 / 700, w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 0, null, null);
        m.ok(350.0 / 815, w, "comm_comp_overlap", "overlap_ratio_of_comp", "rank", 0, null, null);
        m.ok(0.700, w, "comm_comp_overlap", "comm_time_ms", "rank", 0, null, null);
        m.ok(0.815, w, "comm_comp_overlap", "comp_time_ms", "rank", 0, null, null);
        m.ok(0.350, w, "comm_comp_overlap", "overlap_time_ms", "rank", 0, null, null);
        m.ok(0.700 - 0.350, w, "comm_comp_overlap", "exposed_comm_ms", "rank", 0, null, null);
        // Rank 1: U_comm = C1'∪C2' [200,600) 400 + C3' [1200,1300) 100 = 500; U_compute = G [300,700) 400;
        //         O = [300,600) 300; exposed = 500 − 300 = 200.
        m.ok(300.0 / 500, w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 1, null, null);
        m.ok(300.0 / 400, w, "comm_comp_overlap", "overlap_ratio_of_comp", "rank", 1, null, null);
        m.ok(0.500, w, "comm_comp_overlap", "comm_time_ms", "rank", 1, null, null);
        m.ok(0.400, w, "comm_comp_overlap", "comp_time_ms", "rank", 1, null, null);
        m.ok(0.300, w, "comm_comp_overlap", "overlap_time_ms", "rank", 1, null, null);
        m.ok(0.200, w, "comm_comp_overlap", "exposed_comm_ms", "rank", 1, null, null);
        // Workload: mean over the two ranks (both communicate).
        m.workload((350.0 / 700 + 300.0 / 500) / 2, w, "comm_comp_overlap", "overlap_ratio_of_comm");
        m.workload((350.0 / 815 + 300.0 / 400) / 2, w, "comm_comp_overlap", "overlap_ratio_of_comp");
        m.workload((0.700 + 0.500) / 2, w, "comm_comp_overlap", "comm_time_ms");
        m.workload((0.815 + 0.400) / 2, w, "comm_comp_overlap", "comp_time_ms");
        m.workload((0.350 + 0.300) / 2, w, "comm_comp_overlap", "overlap_time_ms");
        m.workload((0.350 + 0.200) / 2, w, "comm_comp_overlap", "exposed_comm_ms");
    }

    @Test
    void commCompOverlapPerStepFollowsTheLaunchingCall() {
        String w = "hb_overlap";
        // Rank 0 step 1 = every activity launched in [0,1000): A, B, C1, D, C2, Z and E (launched at 980, so all
        // 115 µs of E count here although 100 of them fall in step 2's window).
        //   comm = [300,600) + [700,800) = 400; compute = [100,500) 400 + [650,900) 250 + [985,1100) 115 = 765;
        //   O = 200 + 100 = 300.
        m.ok(300.0 / 400, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 0, 1L, null);
        m.ok(300.0 / 765, w, "comm_comp_overlap", "overlap_ratio_of_comp", "step", 0, 1L, null);
        m.ok(0.400, w, "comm_comp_overlap", "comm_time_ms", "step", 0, 1L, null);
        m.ok(0.765, w, "comm_comp_overlap", "comp_time_ms", "step", 0, 1L, null);
        m.ok(0.300, w, "comm_comp_overlap", "overlap_time_ms", "step", 0, 1L, null);
        m.ok(0.100, w, "comm_comp_overlap", "exposed_comm_ms", "step", 0, 1L, null);
        // Rank 0 step 2: C3 [1200,1500) 300, F [1400,1450) 50 (M is a memcpy): O = 50.
        m.ok(50.0 / 300, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 0, 2L, null);
        m.ok(1.0, w, "comm_comp_overlap", "overlap_ratio_of_comp", "step", 0, 2L, null);
        m.ok(0.250, w, "comm_comp_overlap", "exposed_comm_ms", "step", 0, 2L, null);
        // Rank 1 step 1: comm [200,600) 400, compute [300,700) 400, O 300.
        m.ok(0.75, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 1, 1L, null);
        m.ok(0.75, w, "comm_comp_overlap", "overlap_ratio_of_comp", "step", 1, 1L, null);
        // Rank 1 step 2: C3' only: overlap 0 of 100 µs of comm; no compute, so its ratio has no value.
        m.ok(0.0, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 1, 2L, null);
        m.ok(0.100, w, "comm_comp_overlap", "exposed_comm_ms", "step", 1, 2L, null);
        Row noCompute = m.one(w, "comm_comp_overlap", "overlap_ratio_of_comp", "step", 1, 2L, null);
        assertTrue(noCompute.isNullAt(3));
        assertEquals("not_applicable", noCompute.getString(9));
    }

    @Test
    void commTimeIsTheUnionPerRankAndThePlainSumByKind() {
        String w = "hb_overlap";
        // |U_comm|: rank 0 700 µs, rank 1 500 µs (C1' and C2' overlap: 300 + 200 − 100 = 400, plus C3' 100).
        m.ok(700e-6, w, "comm_time_s", null, "rank", 0, null, null);
        m.ok(500e-6, w, "comm_time_s", null, "rank", 1, null, null);
        m.workload((700e-6 + 500e-6) / 2, w, "comm_time_s", null);
        // By kind, Σ dur (not the union), mean over the 2 ranks:
        //   all_reduce: rank 0 300 + 100, rank 1 300 + 200 → (400 + 500) / 2 = 450 µs (the union would give 400);
        //   all_gather: rank 0 300, rank 1 100 → 200 µs.
        m.ok(450e-6, w, "comm_time_s", null, "key", null, null, "all_reduce");
        m.ok(200e-6, w, "comm_time_s", null, "key", null, null, "all_gather");
    }

    @Test
    void collCallNumPerRankKindAndStep() {
        String w = "hb_overlap";
        // Each rank: 2 all_reduce + 1 all_gather.
        m.ok(3, w, "coll_call_num", null, "rank", 0, null, null);
        m.ok(3, w, "coll_call_num", null, "rank", 1, null, null);
        m.workload(3, w, "coll_call_num", null);
        m.ok(2, w, "coll_call_num", null, "key", null, null, "all_reduce");
        m.ok(1, w, "coll_call_num", null, "key", null, null, "all_gather");
        // By step (of the launching call): both ranks launch 2 in step 1 and 1 in step 2.
        for (int rank = 0; rank < 2; rank++) {
            m.ok(2, w, "coll_call_num", null, "step", rank, 1L, null);
            m.ok(1, w, "coll_call_num", null, "step", rank, 2L, null);
        }
    }

    @Test
    void gpuUtilizationCountsMemcpyAggregateDoesNot() {
        String w = "hb_overlap";
        // Rank 0 GPU union: [100,600) 500 + [650,900) 250 + [985,1100) 115 + [1200,1500) 300 + M [1600,1700) 100
        //   = 1265 over [100,1700) = 1600 → 79.0625 %; idle 335 µs.
        // Kernels only: 1265 − 100 = 1165 over [100,1500) = 1400.
        m.ok(100.0 * 1265 / 1600, w, "gpu_utilization", null, "rank", 0, null, null);
        m.ok(0.335, w, "gpu_utilization", "idle_ms", "rank", 0, null, null);
        m.ok(100.0 * 1165 / 1400, w, "aggregate_gpu_utilization", null, "rank", 0, null, null);
        // Rank 1: [200,700) 500 + [1200,1300) 100 = 600 over [200,1300) = 1100, kernels only.
        m.ok(100.0 * 600 / 1100, w, "gpu_utilization", null, "rank", 1, null, null);
        m.ok(100.0 * 600 / 1100, w, "aggregate_gpu_utilization", null, "rank", 1, null, null);
        m.workload((100.0 * 1265 / 1600 + 100.0 * 600 / 1100) / 2, w, "gpu_utilization", null);
        m.workload((100.0 * 1165 / 1400 + 100.0 * 600 / 1100) / 2, w, "aggregate_gpu_utilization", null);
    }

    @Test
    void perStepUtilizationAndBubbleClipToTheStepWindow() {
        String w = "hb_overlap";
        // Per step the busy time is the GPU union inside the window (E is cut at 1000), so it never exceeds it:
        // rank 0 step 1 [0,1000): [100,600) 500 + [650,900) 250 + [985,1000) 15 = 765 → 76.5 %, bubble 0.235;
        // rank 0 step 2 [1000,2000): [1000,1100) 100 + [1200,1500) 300 + [1600,1700) 100 = 500 → 50 %.
        // (By launch, step 1 would hold all of E: 865 µs.)
        m.ok(76.5, w, "gpu_utilization", null, "step", 0, 1L, null);
        m.ok(50.0, w, "gpu_utilization", null, "step", 0, 2L, null);
        // pipeline_bubble is over the step's GPU span (METRICS.md §1, amended in issue 46): E, launched in step 1,
        // ends at 1100, so step 1's span is [0,1100), busy 500 + 250 + 115 = 865: bubble 1 − 865/1100, 235 µs idle.
        m.ok(1 - 865.0 / 1100, w, "pipeline_bubble", "bubble_ratio", "step", 0, 1L, "gaps");
        m.ok(0.235, w, "pipeline_bubble", "bubble_time_ms", "step", 0, 1L, "gaps");
        m.ok(1.1, w, "pipeline_bubble", "total_time_ms", "step", 0, 1L, "gaps");
        m.ok(0.5, w, "pipeline_bubble", "bubble_ratio", "step", 0, 2L, "gaps");
        // Rank 1: step 1 [200,700) 500 → 50 %; step 2 [1200,1300) 100 → 10 %, bubble 0.9.
        m.ok(50.0, w, "gpu_utilization", null, "step", 1, 1L, null);
        m.ok(10.0, w, "gpu_utilization", null, "step", 1, 2L, null);
        m.ok(0.5, w, "pipeline_bubble", "bubble_ratio", "step", 1, 1L, "gaps");
        m.ok(0.9, w, "pipeline_bubble", "bubble_ratio", "step", 1, 2L, "gaps");
        // Workload: mean over the four (rank, step) rows.
        double mean = (1 - 865.0 / 1100 + 0.5 + 0.5 + 0.9) / 4;
        m.ok(mean, w, "pipeline_bubble", "bubble_ratio", "workload", null, null, "gaps");
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_straggler
    // ---------------------------------------------------------------------------------------------------------

    /** Late start (µs) of each rank in each of the six all_reduces; every instance k ends at 1000·k + 600. */
    static final long[][] LATE = {
        //  r0 r1  r2   r3
        {0, 0, 250, 0}, // k1: lag 250, last rank 2
        {0, 0, 250, 0}, // k2: 250, rank 2
        {0, 0, 250, 0}, // k3: 250, rank 2
        {0, 0, 310, 0}, // k4: 310, rank 2
        {0, 0, 490, 0}, // k5: 490, rank 2
        {0, 0, 0, 120}, // k6: 120, rank 3
    };

    static void stragglerWorkload() {
        for (int rank = 0; rank < 4; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 4);
            for (int k = 1; k <= 6; k++) {
                long start = 1000L * k + LATE[k - 1][rank];
                long end = 1000L * k + 600; // the others wait inside the kernel for the last one
                b.kernel(ALL_REDUCE, 20, t(start), us(end - start), t(start - 5), allReduce(1024, 4));
            }
            archive.write("hb_straggler", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("hb_straggler", "training", "llama", "NVIDIA H100", 4);
    }

    @Test
    void stragglerLagFindsTheLateRank() {
        String w = "hb_straggler";
        // Lags: 250, 250, 250, 310, 490, 120 → sorted 120, 250, 250, 250, 310, 490 (n = 6).
        // mean = 1670 / 6; nearest rank: p50 = 3rd = 250, p95 = ceil(5.7) = 6th = 490; max 490.
        m.workload(1670.0 / 6, w, "straggler_lag", "mean_lag_us");
        m.workload(250, w, "straggler_lag", "p50_lag_us");
        m.workload(490, w, "straggler_lag", "p95_lag_us");
        m.workload(490, w, "straggler_lag", "max_lag_us");
        m.workload(6, w, "straggler_lag", "num_collectives");
        m.workload(2, w, "straggler_lag", "straggler_rank");
        // Rank 2 started last in k1..k5, rank 3 in k6.
        m.ok(0, w, "straggler_lag", "last_arrival_share", "rank", 0, null, null);
        m.ok(0, w, "straggler_lag", "last_arrival_share", "rank", 1, null, null);
        m.ok(5.0 / 6, w, "straggler_lag", "last_arrival_share", "rank", 2, null, null);
        m.ok(1.0 / 6, w, "straggler_lag", "last_arrival_share", "rank", 3, null, null);
    }

    @Test
    void stragglerCollectivesEndTogether() {
        List<Row> rows = collectivesOf("hb_straggler");
        assertEquals(6, rows.size());
        long[] lags = {250, 250, 250, 310, 490, 120};
        int[] last = {2, 2, 2, 2, 2, 3};
        for (int i = 0; i < 6; i++) {
            Row c = rows.get(i);
            assertEquals("pg=0 kind=all_reduce", c.getAs("match_key"));
            assertEquals("ordinal", c.getAs("match_by"));
            assertEquals(i + 1L, (long) c.getAs("k"));
            assertEquals("all_reduce", c.getAs("kind"));
            assertEquals(4, (int) c.getAs("ranks"));
            assertEquals(4, (int) c.getAs("group_size"));
            assertEquals(4096L, (long) c.getAs("bytes")); // 1024 Float
            assertEquals(t(1000L * (i + 1)), (long) c.getAs("min_start_ns"));
            assertEquals(us(lags[i]), (long) c.getAs("lag_ns"));
            assertEquals(0L, (long) c.getAs("end_skew_ns"), "ranks wait inside the kernel: ends align");
            assertEquals(last[i], (int) c.getAs("last_rank"));
        }
    }

    @Test
    void collectivesTableHasTheSchemaOfCollectiveSchema() {
        var written = spark.read()
                .format("iceberg")
                .load(archive.table("collectives"))
                .schema();
        for (var field : CollectiveSchema.SCHEMA.fields()) {
            assertEquals(field.dataType(), written.apply(field.name()).dataType(), "collectives." + field.name());
        }
    }

    @Test
    void cclStragglerComparesCommKernelTime() {
        // Σ dur of comm kernels: ranks 0 and 1 6 × 600 = 3600; rank 2 350·3 + 290 + 110 + 600 = 2050;
        // rank 3 5 × 600 + 480 = 3480. (max − min) / max = (3600 − 2050) / 3600.
        m.workload((3600.0 - 2050) / 3600, "hb_straggler", "straggler", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_single
    // ---------------------------------------------------------------------------------------------------------

    /** Hockney parameters of hb_single: α = 20 µs, β = 0.125 ns per byte of S·2(n−1)/n. */
    static final long ALPHA_NS = 20_000;

    /**
     * One rank, six all_reduces in a group of 8 (args say so): Float nelems 2^18, 2^20, 2^22 twice each, so
     * S = 1 MiB, 4 MiB, 16 MiB and x = S·2·7/8 = 1.75·S. dur = α + x/8 ns: 20000 + 229376 = 249376,
     * 20000 + 917504 = 937504, 20000 + 3670016 = 3690016 ns (all exact).
     */
    static void singleRankWorkload() {
        KinetoTraceBuilder b = new KinetoTraceBuilder(0, 1);
        long at = 100;
        for (int rep = 0; rep < 2; rep++) {
            for (long nelems : new long[] {1L << 18, 1L << 20, 1L << 22}) {
                long s = nelems * 4;
                long x = s * 7 / 4; // S · 2(n−1)/n with n = 8
                long durNs = ALPHA_NS + x / 8;
                b.kernel(ALL_REDUCE, 20, t(at), durNs, t(at - 5), allReduce(nelems, 8));
                at += 10_000;
            }
        }
        archive.write("hb_single", "rank0_trace.json", b.toJson())
                .card("hb_single", "training", "llama", "NVIDIA H100", 1);
    }

    /**
     * The shape of hb_single (one rank, six all_reduces in a group of 8, S = 1, 4, 16 MiB twice, x = 1.75·S), with
     * durations no network gives:
     * hb_hockney_negbeta: dur = 5,000,000 − x/8 ns (4,770,624, 4,082,496, 1,329,984 ns): α = 5e-3 s, β = −1.25e-10.
     * hb_hockney_negalpha: dur = x/8 − 10,000 ns (219,376, 907,504, 3,660,016 ns): α = −1e-5 s, β = 1.25e-10
     * (Spark's regr_intercept gives −9.99999999999981E-6: the least squares in doubles).
     */
    static void meaninglessHockneyWorkloads() {
        for (String w : List.of("hb_hockney_negbeta", "hb_hockney_negalpha")) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(0, 1);
            long at = 100;
            for (int rep = 0; rep < 2; rep++) {
                for (long nelems : new long[] {1L << 18, 1L << 20, 1L << 22}) {
                    long x = nelems * 4 * 7 / 4;
                    long durNs = w.equals("hb_hockney_negbeta") ? 5_000_000 - x / 8 : x / 8 - 10_000;
                    b.kernel(ALL_REDUCE, 20, t(at), durNs, t(at - 5), allReduce(nelems, 8));
                    at += 10_000;
                }
            }
            archive.write(w, "rank0_trace.json", b.toJson()).card(w, "training", "llama", "NVIDIA H100", 1);
        }
    }

    @Test
    void hockneyFitThatDescribesNoNetworkIsNotMeaningful() {
        // β ≤ 0 (or α < 0): all three null, not_meaningful, the fitted values in the reason (METRICS.md §4).
        for (String metric : List.of("hockney_alpha_s", "hockney_beta_s_per_byte", "hockney_inverse_beta_Bps")) {
            m.gap("not_meaningful", "describes no network", "hb_hockney_negbeta", metric, null);
            m.gap("not_meaningful", "describes no network", "hb_hockney_negalpha", metric, null);
        }
        String negBeta = m.one("hb_hockney_negbeta", "hockney_beta_s_per_byte", null, "workload", null, null, null)
                .getString(10);
        assertTrue(negBeta.contains("alpha = 0.005") && negBeta.contains("beta = -1.2"), negBeta);
        String negAlpha = m.one("hb_hockney_negalpha", "hockney_alpha_s", null, "workload", null, null, null)
                .getString(10);
        assertTrue(negAlpha.contains("alpha = -9.9999") && negAlpha.contains("beta = 1.2"), negAlpha);
        // And 1/β is exactly the reciprocal of the reported β when the fit is meaningful (hb_single).
        double beta = m.one("hb_single", "hockney_beta_s_per_byte", null, "workload", null, null, null)
                .getDouble(3);
        double inverse = m.one("hb_single", "hockney_inverse_beta_Bps", null, "workload", null, null, null)
                .getDouble(3);
        assertEquals(1.0 / beta, inverse);
    }

    @Test
    void singleRankHasNoCrossRankJoin() {
        String w = "hb_single";
        for (String figure :
                List.of("mean_lag_us", "p50_lag_us", "p95_lag_us", "max_lag_us", "num_collectives", "straggler_rank")) {
            m.gap("missing_input", "single rank: no cross-rank join", w, "straggler_lag", figure);
        }
        // straggler and comm_time_imbalance say it their own way (METRICS.md §4's reason).
        m.gap(
                "missing_input",
                "needs ncclDevKernel_ kernels on at least two ranks (1 rank(s) have any)",
                w,
                "straggler",
                null);
        m.gap(
                "missing_input",
                "needs communication activity on at least two ranks (1 rank(s) have any)",
                w,
                "comm_time_imbalance",
                null);
        m.gap("missing_input", "single rank: no cross-rank join", w, "load_imbalance_ratio", null);
        assertTrue(m.at(w, "straggler_lag", "last_arrival_share", "rank").isEmpty());
        assertTrue(collectivesOf(w).isEmpty());
    }

    @Test
    void hockneyFitRecoversAlphaAndBeta() {
        String w = "hb_single";
        // dur = α + β·x exactly: α = 20 µs = 2e-5 s, β = 0.125 ns/byte = 1.25e-10 s/byte, 1/β = 8e9 bytes/s.
        m.workload(2e-5, w, "hockney_alpha_s", null);
        m.workload(1.25e-10, w, "hockney_beta_s_per_byte", null);
        m.workload(8e9, w, "hockney_inverse_beta_Bps", null);
        // busbw median (even count, 6 samples): busbw = 1.75·S / dur grows with S, so the sorted samples are
        // b(1M), b(1M), b(4M), b(4M), b(16M), b(16M) and the median is (b(4M) + b(4M)) / 2.
        m.ok(7340032.0 / 937504, w, "busbw_gbps", null, "workload", null, null, "all_reduce");
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_busbw
    // ---------------------------------------------------------------------------------------------------------

    /**
     * Two ranks, group size 2 (busbw factor: all_reduce 2·1/2 = 1, all_gather 1/2):
     * <pre>
     *              rank 0                         rank 1
     *   AR1 4096 B [100,104)  4 µs              [100,108)  8 µs
     *   AR2 8192 B [200,202)  2 µs              [200,204)  4 µs
     *   AG1 in 4096 / out 8192 B [300,302) 2 µs [300,304)  4 µs
     *   AG2 in 4096 / out 8192 B [400,400) 0 µs [400,401)  1 µs
     *   BC  broadcast, no args (size unknown) [500,510) on both
     *   RS  reduce_scatter of 0 elements (a known size of 0 B) [600,605) on both
     * </pre>
     */
    static void busbwWorkload() {
        long[][] durs = {{4, 2, 2, 0}, {8, 4, 4, 1}};
        for (int rank = 0; rank < 2; rank++) {
            long[] du = durs[rank];
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2)
                    .kernel(ALL_REDUCE, 20, t(100), us(du[0]), t(95), allReduce(1024, 2))
                    .kernel(ALL_REDUCE, 20, t(200), us(du[1]), t(195), allReduce(2048, 2))
                    .kernel(ALL_GATHER, 20, t(300), us(du[2]), t(295), allGather(1024, 2))
                    .kernel(ALL_GATHER, 20, t(400), us(du[3]), t(395), allGather(1024, 2))
                    .kernel(BROADCAST, 20, t(500), us(10), t(495), Map.of())
                    .kernel(
                            REDUCE_SCATTER,
                            20,
                            t(600),
                            us(5),
                            t(595),
                            collectiveArgs("_reduce_scatter_base", 0, 0, "Float", 2, "0"));
            archive.write("hb_busbw", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("hb_busbw", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void busbwMediansOddAndEvenAndBySize() {
        String w = "hb_busbw";
        // all_reduce (S = in bytes, factor 1), bytes per ns = GB/s: 4096/4000 = 1.024, 8192/2000 = 4.096,
        // 4096/8000 = 0.512, 8192/4000 = 2.048 → sorted 0.512, 1.024, 2.048, 4.096: even count, (1.024 + 2.048)/2.
        m.ok((1.024 + 2.048) / 2, w, "busbw_gbps", null, "workload", null, null, "all_reduce");
        // all_gather (S = out bytes 8192, factor 1/2); rank 0's AG2 has dur 0 and is no sample:
        // 8192/2000·0.5 = 2.048, 8192/4000·0.5 = 1.024, 8192/1000·0.5 = 4.096 → odd count, median 2.048.
        m.ok(2.048, w, "busbw_gbps", null, "workload", null, null, "all_gather");
        // Unknown size: no broadcast sample at all.
        assertFalse(m.has(w, "busbw_gbps", null, "workload", null, null, "broadcast"));
        // Size buckets (powers of 2): all_reduce 4096 → {1.024, 0.512}, 8192 → {4.096, 2.048}; all_gather 8192.
        m.ok((1.024 + 0.512) / 2, w, "busbw_gbps", null, "key", null, null, "all_reduce bytes>=4096");
        m.ok((4.096 + 2.048) / 2, w, "busbw_gbps", null, "key", null, null, "all_reduce bytes>=8192");
        m.ok(2.048, w, "busbw_gbps", null, "key", null, null, "all_gather bytes>=8192");
        // A size of 0 is a known size: reduce_scatter's two samples are 0 GB/s, in bucket 0. CCL-Bench skips empty
        // messages, so there is no bandwidth_utilization_reducescatter.
        m.ok(0.0, w, "busbw_gbps", null, "workload", null, null, "reduce_scatter");
        m.ok(0.0, w, "busbw_gbps", null, "key", null, null, "reduce_scatter bytes>=0");
        assertEquals(
                "missing_input",
                m.one(w, "bandwidth_utilization_reducescatter", null, "workload", null, null, null)
                        .getString(9));
        // Four all_reduce samples are too few for the Hockney fit.
        m.gap("missing_input", "needs >= 5 all_reduce instances", w, "hockney_alpha_s", null);
    }

    @Test
    void commBytesTotalCountsUnknownSizes() {
        String w = "hb_busbw";
        // Per rank S: AR 4096 + 8192, AG 8192 + 8192 (the zero-duration one has a size), RS 0 = 28672; broadcast
        // unknown: 1 of 6 instances.
        for (int rank = 0; rank < 2; rank++) {
            Row r = m.one(w, "comm_bytes_total", null, "rank", rank, null, null);
            MetricRows.close(28672, r.getDouble(3), "comm_bytes_total rank " + rank);
            assertEquals("partial", r.getString(9));
            assertTrue(r.getString(10).startsWith("1 of 6 "), r.getString(10));
        }
        Row total = m.one(w, "comm_bytes_total", null, "workload", null, null, null);
        MetricRows.close(2 * 28672, total.getDouble(3), "comm_bytes_total");
        assertEquals("partial", total.getString(9));
        assertTrue(total.getString(10).startsWith("2 of 12 "), total.getString(10));
        // By kind, Σ over ranks: all_reduce 2·(4096 + 8192) = 24576; all_gather 4·8192 = 32768; broadcast unknown.
        m.ok(24576, w, "comm_bytes_total", null, "key", null, null, "all_reduce");
        m.ok(32768, w, "comm_bytes_total", null, "key", null, null, "all_gather");
        // every broadcast size unknown: no sum to give (issue 46: it was 0.0 "partial")
        Row bc = m.one(w, "comm_bytes_total", null, "key", null, null, "broadcast");
        assertEquals("missing_input", bc.getString(9));
        assertTrue(bc.isNullAt(3));
        assertTrue(bc.getString(10).startsWith("none of the 2 instances has a known size"), bc.getString(10));
        // coll_call_num counts the zero-duration kernel, the unknown-size one and the empty one: 6 per rank.
        m.workload(6, w, "coll_call_num", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_mismatch
    // ---------------------------------------------------------------------------------------------------------

    /** Rank 0: all_reduces at 100, 200, 300 (10 µs); rank 1: at 105 and 200 only. */
    static void mismatchWorkload() {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2);
        for (long at : new long[] {100, 200, 300})
            r0.kernel(ALL_REDUCE, 20, t(at), us(10), t(at - 5), allReduce(1024, 2));
        KinetoTraceBuilder r1 = new KinetoTraceBuilder(1, 2);
        for (long at : new long[] {105, 200}) r1.kernel(ALL_REDUCE, 20, t(at), us(10), t(at - 5), allReduce(1024, 2));
        archive.write("hb_mismatch", "rank0_trace.json", r0.toJson())
                .write("hb_mismatch", "rank1_trace.json", r1.toJson())
                .card("hb_mismatch", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void rankDisagreeingOnCountIsMatchedUpToTheSmallestAndReported() {
        String w = "hb_mismatch";
        // k1: 100 vs 105 → lag 5, last rank 1; k2: both 200 → lag 0, equal starts: the higher rank (1) is last.
        // Rank 0's third all_reduce has no partner. Lags sorted 0, 5: mean 2.5, p50 = 1st = 0, p95 = 2nd = 5.
        Map<String, Double> expected = Map.of(
                "mean_lag_us",
                2.5,
                "p50_lag_us",
                0.0,
                "p95_lag_us",
                5.0,
                "max_lag_us",
                5.0,
                "num_collectives",
                2.0,
                "straggler_rank",
                1.0);
        expected.forEach((figure, value) -> {
            Row r = m.one(w, "straggler_lag", figure, "workload", null, null, null);
            MetricRows.close(value, r.getDouble(3), figure);
            assertEquals("partial", r.getString(9), figure);
            assertTrue(r.getString(10).contains("ranks disagree on the number of collectives"), r.getString(10));
            assertTrue(r.getString(10).contains("pg=0 kind=all_reduce: 2..3 per rank"), r.getString(10));
        });
        List<Row> rows = collectivesOf(w);
        assertEquals(2, rows.size());
        assertEquals(us(5), (long) rows.get(0).getAs("lag_ns"));
        assertEquals(1, (int) rows.get(1).getAs("last_rank"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_seq
    // ---------------------------------------------------------------------------------------------------------

    /**
     * Rank 0 profiled Seq 1..5, rank 1 Seq 2..6 (its profile starts one collective later). Seq s starts near
     * 1000·s: Seq 2 rank 1 is 50 µs late; Seq 3 rank 0 is 30 late; Seq 4 equal starts; Seq 5 rank 0 is 20 late.
     */
    static void seqWorkload() {
        long[][] late = {{0, 0, 0, 30, 0, 20, 0}, {0, 0, 50, 0, 0, 0, 0}}; // [rank][seq]
        for (int rank = 0; rank < 2; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2);
            for (long seq = 1L + rank; seq <= 5L + rank; seq++) {
                long at = 1000L * seq + late[rank][(int) seq];
                b.kernel(ALL_REDUCE, 20, t(at), us(100), t(at - 5), withSeq(allReduce(1024, 2), seq));
            }
            archive.write("hb_seq", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("hb_seq", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void sequenceNumbersMatchProfilesThatStartAtDifferentCollectives() {
        String w = "hb_seq";
        // Matched Seq 2..5 (Seq 1 and 6 have one rank each). Lags 50, 30, 0, 20 → sorted 0, 20, 30, 50:
        // mean 25, p50 = 2nd = 20, p95 = ceil(3.8) = 4th = 50. (By ordinal, Seq 1 of rank 0 would meet Seq 2 of
        // rank 1: a lag of 1050 µs.)
        m.workload(25, w, "straggler_lag", "mean_lag_us");
        m.workload(20, w, "straggler_lag", "p50_lag_us");
        m.workload(50, w, "straggler_lag", "p95_lag_us");
        m.workload(50, w, "straggler_lag", "max_lag_us");
        m.workload(4, w, "straggler_lag", "num_collectives");
        // Last: Seq 2 rank 1, Seq 3 rank 0, Seq 4 equal starts → rank 1, Seq 5 rank 0: shares 2/4 each, and on
        // equal shares the lower rank is the straggler.
        m.ok(0.5, w, "straggler_lag", "last_arrival_share", "rank", 0, null, null);
        m.ok(0.5, w, "straggler_lag", "last_arrival_share", "rank", 1, null, null);
        m.workload(0, w, "straggler_lag", "straggler_rank");
        List<Row> rows = collectivesOf(w);
        assertEquals(4, rows.size());
        long[] lag = {50, 30, 0, 20};
        int[] last = {1, 0, 1, 0};
        for (int i = 0; i < 4; i++) {
            assertEquals("seq", rows.get(i).getAs("match_by"));
            assertEquals(i + 2L, (long) rows.get(i).getAs("k"));
            assertEquals(2, (int) rows.get(i).getAs("ranks"));
            assertEquals(us(lag[i]), (long) rows.get(i).getAs("lag_ns"));
            assertEquals(last[i], (int) rows.get(i).getAs("last_rank"));
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_nostep
    // ---------------------------------------------------------------------------------------------------------

    /**
     * Rank 0: ProfilerStep#1 [0,1000), #2 [1000,2000), #3 [2000,3000). Rank 1: #1 [0,1020), #3 [2000,3050): its
     * #2 annotation is missing. Both ranks, for s = 0, 1000, 2000: compute [s+50, s+400) launched s+30 and an
     * all_reduce [s+100, s+300) launched s+35.
     */
    static void missingStepWorkload() {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2)
                .step(1, t(0), us(1000))
                .step(2, t(1000), us(1000))
                .step(3, t(2000), us(1000));
        KinetoTraceBuilder r1 =
                new KinetoTraceBuilder(1, 2).step(1, t(0), us(1020)).step(3, t(2000), us(1050));
        for (KinetoTraceBuilder b : List.of(r0, r1)) {
            for (long s = 0; s <= 2000; s += 1000) {
                b.kernel(GEMM, 7, t(s + 50), us(350), t(s + 30), Map.of());
                b.kernel(ALL_REDUCE, 20, t(s + 100), us(200), t(s + 35), allReduce(1024, 2));
            }
        }
        archive.write("hb_nostep", "rank0_trace.json", r0.toJson())
                .write("hb_nostep", "rank1_trace.json", r1.toJson())
                .card("hb_nostep", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void missingStepAnnotationLeavesItsKernelsWithoutStep() {
        String w = "hb_nostep";
        // Rank 1's kernels launched at 1030 and 1035 fall in no window: no step.
        List<Row> unstepped = spark.sql("SELECT rank, count(*) FROM hb_events WHERE workload = 'hb_nostep' "
                        + "AND activity_class IS NOT NULL AND step IS NULL GROUP BY rank")
                .collectAsList();
        assertEquals(1, unstepped.size());
        assertEquals(1, unstepped.get(0).getInt(0));
        assertEquals(2L, unstepped.get(0).getLong(1));
        // Per step rows exist for the steps a rank has; rank 1 has none for step 2.
        for (long step = 1; step <= 3; step++) {
            m.ok(1, w, "coll_call_num", null, "step", 0, step, null);
            // Each step: comm [s+100, s+300) inside compute [s+50, s+400): O = 200, comm 200, compute 350.
            m.ok(1.0, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 0, step, null);
            m.ok(200.0 / 350, w, "comm_comp_overlap", "overlap_ratio_of_comp", "step", 0, step, null);
            m.ok(35.0, w, "gpu_utilization", null, "step", 0, step, null); // 350 of 1000 µs
        }
        for (long step : new long[] {1, 3}) {
            m.ok(1, w, "coll_call_num", null, "step", 1, step, null);
            m.ok(1.0, w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 1, step, null);
        }
        assertFalse(m.has(w, "coll_call_num", null, "step", 1, 2L, null));
        assertFalse(m.has(w, "comm_comp_overlap", "overlap_ratio_of_comm", "step", 1, 2L, null));
        assertFalse(m.has(w, "gpu_utilization", null, "step", 1, 2L, null));
        assertFalse(m.has(w, "pipeline_bubble", "bubble_ratio", "step", 1, 2L, "gaps"));
        assertTrue(m.at(w, "coll_call_num", null, "step").stream().noneMatch(r -> r.isNullAt(7)));
        // Rank 1's windows are 1020 and 1050 µs long.
        m.ok(100.0 * 350 / 1020, w, "gpu_utilization", null, "step", 1, 1L, null);
        m.ok(100.0 * 350 / 1050, w, "gpu_utilization", null, "step", 1, 3L, null);
        // Whole-rank figures still hold the unstepped kernels: 3 × 200 µs of comm on each rank.
        m.ok(3, w, "coll_call_num", null, "rank", 1, null, null);
        m.ok(600e-6, w, "comm_time_s", null, "rank", 1, null, null);
        // iter_time_skew_ms: step 1 ends 1000 vs 1020 → 0.02 ms; step 3 3000 vs 3050 → 0.05 ms; step 2 has one
        // rank only, so no row; workload = mean of the two.
        m.ok(0.02, w, "iter_time_skew_ms", null, "step", null, 1L, null);
        m.ok(0.05, w, "iter_time_skew_ms", null, "step", null, 3L, null);
        assertFalse(m.has(w, "iter_time_skew_ms", null, "step", null, 2L, null));
        m.workload(0.035, w, "iter_time_skew_ms", null);
    }

    // ---------------------------------------------------------------------------------------------------------
    // hb_dupstep, hb_mixedseq
    // ---------------------------------------------------------------------------------------------------------

    /**
     * A malformed rank: two annotations both named ProfilerStep#1, [0,1000) and [1000,2000), each with a compute
     * kernel [s+100, s+600) launched at s+10, and an all_reduce [300,400) launched at 20. The second rank is normal,
     * #1 [0,1000), #2 [1000,2000), with the same compute kernels and no communication at all.
     */
    static void duplicateStepWorkload() {
        KinetoTraceBuilder r0 = new KinetoTraceBuilder(0, 2)
                .step(1, t(0), us(1000))
                .step(1, t(1000), us(1000))
                .kernel(ALL_REDUCE, 20, t(300), us(100), t(20), allReduce(1024, 2));
        KinetoTraceBuilder r1 =
                new KinetoTraceBuilder(1, 2).step(1, t(0), us(1000)).step(2, t(1000), us(1000));
        for (KinetoTraceBuilder b : List.of(r0, r1)) {
            for (long s = 0; s <= 1000; s += 1000) b.kernel(GEMM, 7, t(s + 100), us(500), t(s + 10), Map.of());
        }
        archive.write("hb_dupstep", "rank0_trace.json", r0.toJson())
                .write("hb_dupstep", "rank1_trace.json", r1.toJson())
                .card("hb_dupstep", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void duplicateStepNumbersDoNotBreakTheRun() {
        // The refresh succeeded (@BeforeAll) and the normal rank has its figures: 500 of 1000 µs in each step.
        m.ok(50.0, "hb_dupstep", "gpu_utilization", null, "step", 1, 1L, null);
        m.ok(50.0, "hb_dupstep", "gpu_utilization", null, "step", 1, 2L, null);
        // Rank 0 keeps the first window of step 1: [0,1000) holds [100,600) → 50 %.
        m.ok(50.0, "hb_dupstep", "gpu_utilization", null, "step", 0, 1L, null);
    }

    @Test
    void overlapRatiosAverageOverTheRanksThatCommunicate() {
        String w = "hb_dupstep";
        // Rank 0: comm [300,400) 100 inside compute [100,600) ∪ [1100,1600) = 1000: ratios 1.0 and 0.1.
        // Rank 1: no communication (its ratio of comm has no value) and compute 1000, O = 0: ratio of comp 0.
        m.ok(1.0, w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 0, null, null);
        m.ok(0.1, w, "comm_comp_overlap", "overlap_ratio_of_comp", "rank", 0, null, null);
        Row silent = m.one(w, "comm_comp_overlap", "overlap_ratio_of_comm", "rank", 1, null, null);
        assertTrue(silent.isNullAt(3));
        assertEquals("not_applicable", silent.getString(9));
        m.ok(0.0, w, "comm_comp_overlap", "overlap_ratio_of_comp", "rank", 1, null, null);
        // Workload ratios: over rank 0 alone (with rank 1 the ratio of comp would be 0.05); time figures: over both.
        m.workload(1.0, w, "comm_comp_overlap", "overlap_ratio_of_comm");
        m.workload(0.1, w, "comm_comp_overlap", "overlap_ratio_of_comp");
        m.workload((0.1 + 0) / 2, w, "comm_comp_overlap", "comm_time_ms");
        m.workload((1.0 + 1.0) / 2, w, "comm_comp_overlap", "comp_time_ms");
        m.workload((0.1 + 0) / 2, w, "comm_comp_overlap", "overlap_time_ms");
        m.workload(0.0, w, "comm_comp_overlap", "exposed_comm_ms");
    }

    /**
     * Both ranks run three all_reduces at 100, 200, 300 (rank 1 5 µs later); only rank 0's first one carries a
     * Seq arg. Not every instance has a number, so the key is matched by ordinal, and the ranks agree on its count.
     */
    static void mixedSeqWorkload() {
        for (int rank = 0; rank < 2; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2);
            for (long at = 100; at <= 300; at += 100) {
                Map<String, Object> args = rank == 0 && at == 100 ? withSeq(allReduce(1024, 2), 7) : allReduce(1024, 2);
                b.kernel(ALL_REDUCE, 20, t(at + 5L * rank), us(10), t(at - 5), args);
            }
            archive.write("hb_mixedseq", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("hb_mixedseq", "training", "llama", "NVIDIA H100", 2);
    }

    @Test
    void partlyNumberedCollectivesMatchByOrdinalWithoutAMismatch() {
        String w = "hb_mixedseq";
        // Three instances, each with lag 5 µs and rank 1 last; both ranks have three: nothing to report.
        m.workload(3, w, "straggler_lag", "num_collectives");
        m.workload(5, w, "straggler_lag", "p50_lag_us");
        m.workload(1, w, "straggler_lag", "straggler_rank");
        assertTrue(collectivesOf(w).stream().allMatch(r -> "ordinal".equals(r.getAs("match_by"))));
    }

    static List<Row> collectivesOf(String workload) {
        return collectives.stream()
                .filter(r -> workload.equals(r.getAs("workload")))
                .toList();
    }

    @Test
    void noNullValueIsOk() {
        // every hand-built workload of this class: every null value, at every scope, says why.
        m.assertNoNullIsOk();
    }

    /** Issue 32: no metric row of this warehouse holds an impossible value (MetricRows.assertNoImpossibleValues). */
    @Test
    void noImpossibleValue() {
        m.assertNoImpossibleValues("NVIDIA H100");
    }
}
