package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.allReduce;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.gpu;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.rank;
import static org.tracelake.jobs.metrics.workload.MetricFamiliesTest.workload;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.rank.RankEvent;

/** kernel_totals on events built by hand: what the reports' kernel and communication tables sum. */
class KernelTotalsFamilyTest {
    /**
     * Rank 0: two GEMMs of the same name (100 and 50 ns), one memcpy (30 ns), and two all-reduces of 1,000,000 bytes
     * in a group of 2 (100 and 120 ns) and one whose size is unknown (80 ns). Expected rows, in name order:
     * the GEMM (compute, gemm): 2 calls, 150 ns; the memcpy: 1 call, 30 ns; then communication by (name, kind, bucket):
     * the unknown-size all-reduce alone in bucket null (1 call, 80 ns, no bytes, no sample) before the sized pair in
     * bucket 2^19 = 524,288 (the largest power of 2 not above 1,000,000): 2 calls, 220 ns, 2,000,000 bytes, 2 samples.
     */
    @Test
    void groupsByNameClassCategoryKindAndBucket() {
        RankEvent unsized = allReduce(600, 80);
        unsized.inBytes = null;
        unsized.outBytes = null;
        unsized.stream = 21L; // beside allReduce(520, 120) on another NCCL stream: one stream is serial (StreamClipper)
        RankEvent memcpy = gpu("gpu_memcpy", "memcpy", "Memcpy HtoD", 300, 30, 1);
        memcpy.kernelCategory = "memory";
        Workload w = workload(rank(
                0, List.of(gemm(0, 100), gemm(200, 50), memcpy, allReduce(400, 100), allReduce(520, 120), unsized)));
        String nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
        assertEquals(
                List.of(
                        new Workload.KernelTotal(0, "Memcpy HtoD", "memcpy", "memory", null, null, 1, 30, null, 0),
                        new Workload.KernelTotal(0, "sm90_gemm", "compute", "gemm", null, null, 2, 150, null, 0),
                        new Workload.KernelTotal(0, nccl, "comm", "comm", "all_reduce", null, 1, 80, null, 0),
                        new Workload.KernelTotal(
                                0, nccl, "comm", "comm", "all_reduce", 524_288L, 2, 220, 2_000_000L, 2)),
                w.kernelTotals);
    }

    private static RankEvent gemm(long ts, long dur) {
        RankEvent e = gpu("kernel", "compute", "sm90_gemm", ts, dur, 1);
        e.kernelCategory = "gemm";
        return e;
    }
}
