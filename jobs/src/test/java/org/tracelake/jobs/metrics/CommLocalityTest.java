package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * comm_locality (METRICS.md §4) on a generated 16-rank, 2-node workload: the card says 8 GPUs a node, so ranks 0–7
 * are node 0 and 8–15 node 1. Every rank r (node n = r div 8) runs, in one step, four collectives with float data:
 * <ul>
 *   <li>a tensor-parallel all_reduce over its node's ranks [8n .. 8n+7]: 1000 floats, S = 4000 B, 100 µs → intra;
 *   <li>a data-parallel all_reduce over [r mod 8, r mod 8 + 8]: 2000 floats, S = 8000 B, 300 µs → inter (one rank on
 *       each node);
 *   <li>a world all_gather whose kernel names no process-group ranks: 500 floats in, 8000 out, S = out = 32000 B,
 *       200 µs → taken as the world's ranks 0–15 → inter, mode=world;
 *   <li>a tensor-parallel all_gather over [8n .. 8n+7]: 250 floats in, 2000 out, S = 8000 B, 50 µs → intra.
 * </ul>
 * Summed over the 16 ranks: all_reduce intra 64000 B / 1.6 ms, inter 128000 B / 4.8 ms; all_gather intra 128000 B /
 * 0.8 ms, inter 512000 B / 3.2 ms; the workload intra 192000 B / 2.4 ms, inter 640000 B / 8.0 ms.
 */
class CommLocalityTest {
    static final String W = "tp8_dp2_two_nodes";
    static final String NO_LAYOUT = "no_count_per_node";
    static final int RANKS = 16;
    static final int PER_NODE = 8;

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static MetricRows m;

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        for (int rank = 0; rank < RANKS; rank++)
            archive.write(W, "rank" + rank + "_trace.json", rankTrace(rank, RANKS));
        archive.write(
                W,
                W + ".yaml",
                String.join(
                        "\n",
                        "workload:",
                        "  model:",
                        "    phase: training",
                        "    model_family: llama",
                        "  hardware:",
                        "    xpu_spec:",
                        "      type: GPU",
                        "      model: NVIDIA H100",
                        "      total_count: " + RANKS,
                        "      count_per_node: " + PER_NODE,
                        ""));
        // The same collectives on two ranks, but a card that does not say how many GPUs a node holds.
        for (int rank = 0; rank < 2; rank++)
            archive.write(NO_LAYOUT, "rank" + rank + "_trace.json", rankTrace(rank, 2));
        archive.card(NO_LAYOUT, "training", "llama", "NVIDIA H100", 2);
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    static String rankTrace(int rank, int world) {
        long t0 = 1_700_000_000_000_000_000L;
        int node = rank / PER_NODE;
        List<Integer> tp = range(node * PER_NODE, Math.min(world, node * PER_NODE + PER_NODE));
        List<Integer> dp = world > PER_NODE ? List.of(rank % PER_NODE, rank % PER_NODE + PER_NODE) : List.of(rank);
        Map<String, Object> worldGather = args("_allgather_base", 500, 8000, world, "0", null);
        return new KinetoTraceBuilder(rank, world)
                .step(1, t0, 2_000_000)
                .kernel(
                        ALL_REDUCE,
                        20,
                        t0 + 100_000,
                        100_000,
                        t0 + 50_000,
                        args("allreduce", 1000, 1000, tp.size(), "1", tp))
                .kernel(
                        ALL_REDUCE,
                        21,
                        t0 + 300_000,
                        300_000,
                        t0 + 60_000,
                        args("allreduce", 2000, 2000, dp.size(), "2", dp))
                .kernel(ALL_GATHER, 20, t0 + 700_000, 200_000, t0 + 70_000, worldGather)
                .kernel(
                        ALL_GATHER,
                        20,
                        t0 + 1_000_000,
                        50_000,
                        t0 + 80_000,
                        args("_allgather_base", 250, 2000, tp.size(), "1", tp))
                .toJson();
    }

    static final String ALL_REDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    static final String ALL_GATHER = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

    /** Kineto's collective args; {@code members} null leaves out 'Process Group Ranks', as older PyTorch does. */
    static Map<String, Object> args(
            String name, long inNelems, long outNelems, int groupSize, String pg, List<Integer> members) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("Collective name", name);
        a.put("In msg nelems", inNelems);
        a.put("Out msg nelems", outNelems);
        a.put("dtype", "Float");
        a.put("Group size", groupSize);
        a.put("Process Group Name", pg);
        if (members != null) a.put("Process Group Ranks", members.toString());
        return a;
    }

    static List<Integer> range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).boxed().toList();
    }

    static void figure(double expected, String figure, String scope, String key, String status) {
        Row r = m.one(W, "comm_locality", figure, scope, null, null, key);
        assertEquals(expected, r.getDouble(3), 1e-9, figure + " " + key);
        assertEquals(status, r.getString(9), figure + " " + key);
    }

    @Test
    void allReduceSplitsIntoTheNodeGroupAndTheCrossNodePairs() {
        figure(128_000, "inter_node_bytes", "key", "all_reduce", "ok");
        figure(64_000, "intra_node_bytes", "key", "all_reduce", "ok");
        figure(4.8, "inter_node_time_ms", "key", "all_reduce", "ok");
        figure(1.6, "intra_node_time_ms", "key", "all_reduce", "ok");
        assertEquals(
                "mode=pg_ranks",
                m.one(W, "comm_locality", "inter_node_bytes", "key", null, null, "all_reduce")
                        .getString(10));
    }

    @Test
    void allGatherWithoutGroupRanksSpansTheWorld() {
        figure(512_000, "inter_node_bytes", "key", "all_gather", "ok");
        figure(128_000, "intra_node_bytes", "key", "all_gather", "ok");
        figure(3.2, "inter_node_time_ms", "key", "all_gather", "ok");
        figure(0.8, "intra_node_time_ms", "key", "all_gather", "ok");
        assertEquals(
                "mode=world (16 of 32 instances name no process-group ranks)",
                m.one(W, "comm_locality", "intra_node_bytes", "key", null, null, "all_gather")
                        .getString(10));
    }

    @Test
    void workloadSumsEveryKindAndItsHeadlineIsInterNodeBytes() {
        figure(640_000, "inter_node_bytes", "workload", null, "ok");
        figure(192_000, "intra_node_bytes", "workload", null, "ok");
        figure(8.0, "inter_node_time_ms", "workload", null, "ok");
        figure(2.4, "intra_node_time_ms", "workload", null, "ok");
        // intra + inter is all the communication: comm_bytes_total.
        assertEquals(
                832_000,
                m.one(W, "comm_bytes_total", null, "workload", null, null, null).getDouble(3),
                1e-9);
        assertEquals(2, m.at(W, "comm_locality", "inter_node_bytes", "key").size());
    }

    @Test
    void withoutCountPerNodeEveryFigureIsMissingInput() {
        for (String f : List.of("inter_node_bytes", "intra_node_bytes", "inter_node_time_ms", "intra_node_time_ms")) {
            Row r = m.one(NO_LAYOUT, "comm_locality", f, "workload", null, null, null);
            assertTrue(r.isNullAt(3), f);
            assertEquals("missing_input", r.getString(9));
            assertEquals("the card gives no hardware.xpu_spec.count_per_node", r.getString(10));
        }
        assertTrue(m.at(NO_LAYOUT, "comm_locality", "inter_node_bytes", "key").isEmpty());
    }

    static Reports reports() throws Exception {
        return new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
    }

    @Test
    void textReportShowsTheSplitPerKind() throws Exception {
        String text = reports().text(W, null);
        String section = text.substring(text.indexOf("\nNode locality\n"), text.indexOf("\nStragglers\n"));
        // kind, intra-node bytes, inter-node bytes, inter share, intra ms, inter ms, mode
        assertEquals(
                List.of(
                        "all_gather",
                        "128.00 kB",
                        "512.00 kB",
                        "80.0%",
                        "0.80000",
                        "3.200",
                        "mode=world (16 of 32 instances name no process-group ranks)"),
                cells(section, "all_gather"));
        assertEquals(
                List.of("all_reduce", "64.00 kB", "128.00 kB", "66.7%", "1.600", "4.800", "mode=pg_ranks"),
                cells(section, "all_reduce"));
        assertEquals(
                List.of(
                        "all kinds",
                        "192.00 kB",
                        "640.00 kB",
                        "76.9%",
                        "2.400",
                        "8",
                        "mode=world (16 of 64 instances name no process-group ranks)"),
                cells(section, "all kinds"));
        String other = reports().text(NO_LAYOUT, null);
        assertTrue(
                other.contains(
                        "\nNode locality\n-------------\n  the card gives no hardware.xpu_spec.count_per_node\n"),
                other);
    }

    private static List<String> cells(String text, String first) {
        return text.lines()
                .map(l -> List.of(l.strip().split("\\s{2,}")))
                .filter(c -> c.get(0).equals(first))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + first + " in:\n" + text));
    }

    @Test
    void htmlPageDrawsTheSplitInChromium() throws Exception {
        assumeTrue(Chromium.available(), "skipped: /usr/bin/chromium is absent");
        Path dir = tmp.resolve("html");
        reports().html(List.of(W), dir.toString(), null, 4000);
        Path page = dir.resolve(W + ".html");
        String dom = Chromium.dumpDom(page, tmp.resolve("chrome-locality"));
        assertTrue(
                java.util.regex.Pattern.compile("<div class=\"chart\" id=\"chart-locality\"[^>]*data-rendered=\"true\"")
                        .matcher(dom)
                        .find(),
                "chart-locality rendered");
        assertTrue(dom.contains("<td>all kinds</td>"), "the table's workload line");
        assertTrue(dom.contains("mode=world (16 of 64 instances name no process-group ranks)"), "the mode is shown");
        Path png = Path.of("target", "report-artifacts", "node-locality-" + W + ".png");
        Chromium.screenshot(page, png, tmp.resolve("shot-locality"), 9000);
        assertTrue(Files.size(png) > 50_000, "screenshot written");
    }

    /** docs/SQL.md question 18 (a ```sql locality block, not run on data/) gives its documented answer here. */
    @Test
    void documentedQuestionGivesItsAnswer() throws Exception {
        DocQuestion.Answer a = DocQuestion.run(spark, archive.warehouse.toString(), "locality");
        assertTrue(a.ok(), a.error());
        String why = SqlCookbookTest.differs(a.documented(), a.actual());
        assertNull(why, () -> why + "\nactual:\n" + a.actual());
    }
}
