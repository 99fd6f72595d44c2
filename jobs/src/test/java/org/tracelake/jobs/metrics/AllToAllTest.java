package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.report.Chromium;
import org.tracelake.jobs.report.Reports;
import org.tracelake.jobs.sql.SqlCookbookTest;
import org.tracelake.jobs.testing.DocQuestion;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * all_to_all_imbalance and the all_to_all_pairs table (METRICS.md §4) on the real DLRM run: the execution traces of
 * ../shared/traces/execution-trace/dlrm-8rank-v100 next to its Kineto traces (which carry no split args, so the
 * splits come from the ET's record_param_comms inputs).
 *
 * <p>Read off the files by hand: every rank's all_to_allv with comm seq 150 (rf_id 781, an int tensor of 3392
 * elements) has input splits [96, 224, 288, 1664, 592, 96, 192, 240]; rank j's output splits are eight times split j
 * (rank 3: [1664 × 8]). So every rank sends 4 × split j bytes to rank j: the matrix has identical rows
 * [384, 896, 1152, 6656, 2368, 384, 768, 960], each rank sends 3392 × 4 = 13568 bytes, and the imbalance is 1. The
 * other all_to_allv (seq 147 and 152: 768 floats to every rank; 149: 48 ints to every rank) are even too; seq 148 is
 * an all_to_all without splits (an empty list on every rank), so it is not an instance with sizes.
 */
@RealTraces({"execution-trace/dlrm-8rank-v100", "kineto/dlrm-8rank-v100"})
class AllToAllTest {
    static final String W = "dlrm_pair";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static MetricRows m;

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared(W, "execution-trace/dlrm-8rank-v100")
                .copyShared(W, "kineto/dlrm-8rank-v100")
                .card(W, "training", "dlrm", "NVIDIA V100", 8);
        builtUnevenPair();
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
        spark.read().format("iceberg").load(archive.table("all_to_all_pairs")).createOrReplaceTempView("a2a_pairs_t");
    }

    static final String BUILT = "a2a_uneven";

    /**
     * Two ranks, one all_to_all each in process group 0 ([0, 1]), with the kernels' 'In split size' args (float):
     * rank 0 sends [100, 300] elements, rank 1 [50, 50]. Bytes sent: 1600 and 400, mean 1000, max 1600: imbalance 1.6.
     */
    static void builtUnevenPair() {
        long t0 = 1_700_000_000_000_000_000L;
        long[][] splits = {{100, 300}, {50, 50}};
        for (int rank = 0; rank < 2; rank++) {
            java.util.Map<String, Object> args = new java.util.LinkedHashMap<>(KinetoTraceBuilder.collectiveArgs(
                    "all_to_all", splits[rank][0] + splits[rank][1], 200, "Float", 2, "0"));
            args.put("In split size", "[" + splits[rank][0] + ", " + splits[rank][1] + "]");
            args.put("Out split size", "[100, 100]");
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2)
                    .step(1, t0, 1_000_000)
                    .kernel(
                            "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
                            20,
                            t0 + 100_000 + rank * 10_000L,
                            200_000,
                            t0 + 50_000,
                            args);
            archive.write(BUILT, "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card(BUILT, "training", "moe", "NVIDIA H100", 2);
    }

    @Test
    void unevenSplitsFromKinetoArgs() {
        List<Row> pairs = spark.sql("SELECT src_rank, dst_rank, bytes, source, match_key, k FROM a2a_pairs_t "
                        + "WHERE workload = '" + BUILT + "' ORDER BY src_rank, dst_rank")
                .collectAsList();
        assertEquals(4, pairs.size());
        long[] bytes = {400, 1200, 200, 200}; // 100 and 300 floats from rank 0, 50 and 50 from rank 1
        for (int i = 0; i < 4; i++) {
            assertEquals(i / 2, pairs.get(i).getInt(0));
            assertEquals(i % 2, pairs.get(i).getInt(1));
            assertEquals(bytes[i], pairs.get(i).getLong(2));
            assertEquals("kineto", pairs.get(i).getString(3));
        }
        String key = pairs.get(0).getString(4) + " k=" + pairs.get(0).getLong(5);
        assertEquals(
                1.6,
                m.one(BUILT, "all_to_all_imbalance", "instance", "key", null, null, key)
                        .getDouble(3),
                1e-12);
        assertEquals(
                1.6,
                m.one(BUILT, "all_to_all_imbalance", "mean", "workload", null, null, null)
                        .getDouble(3),
                1e-12);
    }

    @Test
    void rankPairMatrixOfSeq150IsTheSplitsTimesFourBytes() {
        long[] toRank = {384, 896, 1152, 6656, 2368, 384, 768, 960};
        List<Row> rows = spark.sql("SELECT src_rank, dst_rank, bytes, source, match_key FROM a2a_pairs_t "
                        + "WHERE workload = '" + W + "' AND k = 150 ORDER BY src_rank, dst_rank")
                .collectAsList();
        assertEquals(64, rows.size());
        for (Row r : rows) {
            int src = r.getInt(0);
            int dst = r.getInt(1);
            assertEquals(toRank[dst], r.getLong(2), "bytes " + src + " -> " + dst);
            assertEquals("et", r.getString(3));
            assertEquals("kind=all_to_all", r.getString(4));
        }
        // What rank 3 receives is its output splits: 8 × 1664 ints.
        assertEquals(
                8 * 1664 * 4L,
                spark.sql("SELECT sum(bytes) FROM a2a_pairs_t WHERE workload = '" + W
                                + "' AND k = 150 AND dst_rank = 3")
                        .first()
                        .getLong(0));
    }

    @Test
    void onlyTheFourAllToAllvCarrySplits() {
        List<Row> ks = spark.sql("SELECT k, count(*), sum(bytes) FROM a2a_pairs_t WHERE workload = '" + W
                        + "' GROUP BY k ORDER BY k")
                .collectAsList();
        assertEquals(
                List.of(147L, 149L, 150L, 152L),
                ks.stream().map(r -> r.getLong(0)).toList());
        ks.forEach(r -> assertEquals(64L, r.getLong(1)));
        assertEquals(8 * 6144 * 4L, ks.get(0).getLong(2)); // seq 147: 6144 floats from each of 8 ranks
        assertEquals(8 * 384 * 4L, ks.get(1).getLong(2)); // seq 149: 384 ints from each rank
    }

    @Test
    void imbalanceIsOneEverywhereBecauseEveryRankSendsTheSameBytes() {
        for (long k : new long[] {147, 149, 150, 152}) {
            assertEquals(
                    1.0,
                    m.one(W, "all_to_all_imbalance", "instance", "key", null, null, "kind=all_to_all k=" + k)
                            .getDouble(3),
                    1e-12,
                    "k=" + k);
        }
        assertEquals(4, m.at(W, "all_to_all_imbalance", "instance", "key").size());
        assertEquals(
                1.0,
                m.one(W, "all_to_all_imbalance", "mean", "workload", null, null, null)
                        .getDouble(3),
                1e-12);
        assertEquals(
                1.0,
                m.one(W, "all_to_all_imbalance", "max", "workload", null, null, null)
                        .getDouble(3),
                1e-12);
    }

    @Test
    void kinetoAloneHasNoSplits() {
        // The same run without its execution traces: the metric is there, null, saying why.
        TestArchive kinetoOnly = new TestArchive(tmp.resolve("kineto_only"))
                .copyShared("dlrm_kineto", "kineto/dlrm-8rank-v100")
                .card("dlrm_kineto", "training", "dlrm", "NVIDIA V100", 8);
        assertTrue(kinetoOnly.refresh(spark).allOk());
        MetricRows k = MetricRows.load(spark, kinetoOnly.table("metrics"));
        Row mean = k.one("dlrm_kineto", "all_to_all_imbalance", "mean", "workload", null, null, null);
        assertTrue(mean.isNullAt(3));
        assertEquals("missing_input", mean.getString(9));
        assertTrue(mean.getString(10).contains("split sizes"), mean.getString(10));
    }

    static Reports reports() throws Exception {
        return new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
    }

    @Test
    void textReportListsInstancesAndTheMatrix() throws Exception {
        String text = reports().text(W, null);
        String section = text.substring(text.indexOf("\nMoE all-to-all\n"));
        String imbalance = section.lines()
                .filter(l -> l.strip().startsWith("imbalance mean / max"))
                .findFirst()
                .orElseThrow();
        assertEquals(
                List.of("imbalance mean / max", "1 / 1"),
                List.of(imbalance.strip().split("\\s{2,}")));
        assertTrue(section.contains("kind=all_to_all k=150"), section);
        // rank 0 -> rank 3, summed over the four instances: 768 floats (k=147 and k=152: 3072 bytes each), 48 ints
        // (k=149: 192 bytes), 1664 ints (k=150: 6656 bytes) = 12992 bytes; column 3 of the matrix line of src rank 0.
        String row0 = section.lines()
                .filter(l -> l.strip().startsWith("0 "))
                .findFirst()
                .orElseThrow();
        assertEquals("12.99 kB", List.of(row0.strip().split("\\s{2,}")).get(4), row0);
    }

    @Test
    void htmlPageDrawsTheHeatMapInChromium() throws Exception {
        assumeTrue(Chromium.available(), "skipped: /usr/bin/chromium is absent");
        Path dir = tmp.resolve("html");
        reports().html(List.of(W), dir.toString(), null, 4000);
        Path page = dir.resolve(W + ".html");
        String dom = Chromium.dumpDom(page, tmp.resolve("chrome-a2a"));
        Matcher chart = Pattern.compile("<div class=\"chart\" id=\"chart-a2a\"[^>]*data-rendered=\"true\"")
                .matcher(dom);
        assertTrue(chart.find(), "chart-a2a rendered");
        String rest = dom.substring(chart.end());
        int rects = 0;
        Matcher p = Pattern.compile("<(path|rect)\\b").matcher(rest.substring(0, rest.indexOf("</svg>")));
        while (p.find()) rects++;
        assertTrue(rects >= 64, "a cell per rank pair: " + rects);
        assertTrue(dom.contains("kind=all_to_all k=150"), "the instance table");
        Path png = Path.of("target", "report-artifacts", "all-to-all-" + W + ".png");
        Chromium.screenshot(page, png, tmp.resolve("shot-a2a"), 9000); // the section is near the end of the page
        assertTrue(Files.size(png) > 50_000, "screenshot written");
    }

    /** docs/SQL.md question 16 (a ```sql all-to-all block, not run on data/) gives its documented answer here. */
    @Test
    void documentedQuestionGivesItsAnswer() throws Exception {
        DocQuestion.Answer a = DocQuestion.run(spark, archive.warehouse.toString(), "all-to-all");
        assertTrue(a.ok(), a.error());
        String why = SqlCookbookTest.differs(a.documented(), a.actual());
        assertNull(why, () -> why + "\nactual:\n" + a.actual());
    }

    @Test
    void noNullValueIsOk() {
        // The DLRM execution-trace + Kineto warehouse: every null value, at every scope, says why.
        m.assertNoNullIsOk();
    }

    /** Issue 46: no metric row of the real DLRM traces with their execution traces holds an impossible value. */
    @Test
    void noImpossibleValue() {
        m.assertNoImpossibleValues(java.util.Map.of(W, "NVIDIA V100"));
    }
}
