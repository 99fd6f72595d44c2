package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.KinetoTraceBuilder.collectiveArgs;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * {@code report --compare}'s breakdown (issue 17) on two hand-built runs whose only difference is a slower all-reduce,
 * the case a person wants the breakdown to make obvious. Both have 2 ranks with identical timelines (µs after T0):
 * <pre>
 *   base                                          slow
 *   gemm "sm80_xmma_gemm_bf16"   [0, 300)          [0, 300)
 *   ncclDevKernel_AllReduce     [200, 500)        [200, 800)    all_reduce, 1,048,576 BFloat16 = 2 MiB, group 2
 *   memcpy HtoD                 [450, 550)        [450, 550)
 *   vectorized_elementwise      [600, 700)        [850, 950)
 * </pre>
 * time_breakdown per rank (= workload, both ranks alike): base: U_compute = 300 + 100 = 400, U_comm = 300, O = 100
 * → exposed comm 200; U_gpu = [0, 550) ∪ [600, 700) = 650 → exposed copies 650 − (400 + 300 − 100) = 50; span 700,
 * idle 50. slow: U_comm = 600 → exposed comm 500; U_gpu = [0, 800) ∪ [850, 950) = 900 → exposed copies
 * 900 − (400 + 600 − 100) = 0 (the copy runs under the all-reduce); span 950, idle 50.
 * GPU time per rank: gemm 0.3 ms, memory 0.1, elementwise 0.1 in both; comm 0.3 → 0.6. Bus bandwidth of the 2 MiB
 * all-reduce (bucket 2^21), n = 2 so busbw = algbw: 2,097,152 B ÷ 300 µs = 6.990506666666667 GB/s, ÷ 600 µs half that.
 */
class CompareBreakdownTest {
    static final String BASE = "base";
    static final String SLOW = "slow";
    static final String NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";

    @TempDir
    static Path tmp;

    static Reports reports;
    static Comparison comparison;

    @BeforeAll
    static void refreshAndCompare() throws java.io.IOException {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        for (String w : List.of(BASE, SLOW)) {
            long commEnd = w.equals(BASE) ? 500 : 800;
            long elementwise = w.equals(BASE) ? 600 : 850;
            for (int rank = 0; rank < 2; rank++) {
                KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2)
                        .step(1, t(0), us(1000))
                        .kernel(
                                "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x32",
                                7,
                                t(0),
                                us(300),
                                t(0),
                                Map.of())
                        .kernel(
                                NCCL,
                                20,
                                t(200),
                                us(commEnd - 200),
                                t(150),
                                collectiveArgs("allreduce", 1_048_576, 1_048_576, "BFloat16", 2, "0"))
                        .memcpy(7, t(450), us(100), 4096)
                        .kernel(
                                "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()",
                                7,
                                t(elementwise),
                                us(100),
                                t(elementwise) - 5_000,
                                Map.of());
                archive.write(w, "rank" + rank + "_trace.json", b.toJson());
            }
            archive.card(w, "training", "llama3-8b", "NVIDIA H100", 2);
        }
        archive.refresh(spark);
        reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
        comparison = reports.compare(BASE, SLOW);
    }

    @Test
    void theTimeSplitShowsWhereTheSpanWent() {
        Map<String, double[]> split = new java.util.LinkedHashMap<>();
        for (ComparisonBreakdown.Split s : comparison.breakdown().timeSplit()) {
            split.put(s.part(), new double[] {s.reference(), s.candidate()});
        }
        assertEquals(
                List.of("compute_ms", "exposed_comm_ms", "exposed_copy_ms", "idle_ms", "span_ms"),
                List.copyOf(split.keySet()));
        assertPair(0.4, 0.4, split.get("compute_ms"));
        assertPair(0.2, 0.5, split.get("exposed_comm_ms"));
        assertPair(0.05, 0.0, split.get("exposed_copy_ms"));
        assertPair(0.05, 0.05, split.get("idle_ms"));
        assertPair(0.7, 0.95, split.get("span_ms"));
    }

    @Test
    void kernelTimeByCategoryAndTheKernelThatMoved() {
        Map<String, ComparisonBreakdown.GpuTime> byCategory = new java.util.HashMap<>();
        for (ComparisonBreakdown.GpuTime g : comparison.breakdown().categories()) byCategory.put(g.name(), g);
        assertEquals(java.util.Set.of("gemm", "comm", "memory", "elementwise"), byCategory.keySet());
        assertEquals(0.3, byCategory.get("gemm").referenceMs(), 1e-12);
        assertEquals(0.3, byCategory.get("gemm").candidateMs(), 1e-12);
        assertEquals(0.3, byCategory.get("comm").referenceMs(), 1e-12);
        assertEquals(0.6, byCategory.get("comm").candidateMs(), 1e-12);
        assertEquals(0.1, byCategory.get("memory").candidateMs(), 1e-12);
        // the all-reduce moved (+0.3 ms per rank); every other kernel did not
        ComparisonBreakdown.GpuTime first =
                comparison.breakdown().movedKernels().get(0);
        assertEquals(NCCL, first.name());
        assertEquals("comm", first.category());
        assertEquals(0.3, first.deltaMs(), 1e-12);
        assertEquals(4, comparison.breakdown().movedKernels().size());
        for (ComparisonBreakdown.GpuTime g :
                comparison.breakdown().movedKernels().subList(1, 4)) {
            assertEquals(0.0, g.deltaMs(), 1e-12, g.name());
        }
    }

    @Test
    void collectivesByKindAndSize() {
        assertEquals(1, comparison.breakdown().collectives().size());
        ComparisonBreakdown.Collectives c = comparison.breakdown().collectives().get(0);
        assertEquals("all_reduce", c.kind());
        assertEquals(2_097_152L, c.bucket());
        assertEquals(1.0, c.referenceCalls(), 0.0);
        assertEquals(1.0, c.candidateCalls(), 0.0);
        assertEquals(2_097_152.0, c.referenceBytes(), 0.0);
        assertEquals(6.990506666666667, c.referenceBusbwGbps(), 1e-12);
        assertEquals(6.990506666666667 / 2, c.candidateBusbwGbps(), 1e-12);
    }

    /** Text, summary.json and the HTML page (drawn by headless Chromium, a screenshot kept in target/report-artifacts). */
    @Test
    void everyOutputCarriesTheBreakdown() throws Exception {
        List<String> written =
                reports.writeComparison(comparison, tmp.resolve("cmp").toString());
        assertEquals(3, written.size());
        String text = Files.readString(tmp.resolve("cmp/compare.txt"));
        assertTrue(text.contains("\nWhere the GPU time span went"), text);
        assertTrue(
                text.lines().anyMatch(l -> l.matches("\\s+exposed_comm_ms\\s+0\\.20000\\s+0\\.50000\\s+0\\.30000")),
                text);
        assertTrue(
                text.lines()
                        .anyMatch(l -> l.matches(
                                "\\s+all_reduce\\s+2 MiB\\s+1\\s+1\\s+2,097,152\\s+2,097,152\\s+6\\.991\\s+3\\.495")),
                text);
        JsonNode b = new ObjectMapper()
                .readTree(tmp.resolve("cmp/summary.json").toFile())
                .get("breakdown");
        assertEquals(0.5, b.get("time_split").get(1).get("candidate_ms").asDouble(), 1e-12);
        assertEquals(NCCL, b.get("kernels_moved_most").get(0).get("name").asText());
        assertEquals(
                3.4952533333333335,
                b.get("collectives").get(0).get("candidate_busbw_gbps").asDouble(),
                1e-12);
        if (Chromium.available()) {
            Path page = tmp.resolve("cmp/compare.html");
            String dom = Chromium.dumpDom(page, tmp.resolve("chrome-cmp"));
            // the ratio chart, the time split and the kernel categories
            // three charts, and the verdict's waterfall when both runs have steps to weigh (issue 41)
            String charts = dom.contains("chart-verdict-waterfall") ? "4" : "3";
            assertTrue(
                    dom.contains("data-charts-ready=\"" + charts + "\""),
                    "three charts drawn (and the waterfall): " + charts);
            assertTrue(dom.contains("Kernels whose time moved most"), "the moved-kernels table");
            Path png = Path.of("target", "report-artifacts", "compare-breakdown.png");
            Chromium.screenshot(page, png, tmp.resolve("shot-cmp"), 3000);
            assertTrue(Files.size(png) > 20_000, "screenshot written");
        }
    }

    private static void assertPair(double reference, double candidate, double[] actual) {
        assertEquals(reference, actual[0], 1e-12);
        assertEquals(candidate, actual[1], 1e-12);
    }
}
