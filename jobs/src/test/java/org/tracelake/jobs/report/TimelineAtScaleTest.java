package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The step timeline of a 256-rank workload (the project's generator; the card puts 8 GPUs on a node, so 32 nodes),
 * where rank 37 starts every collective 300 µs late. A lane per rank and class would be 512+ lanes: the page draws
 * a lane per node instead, shaded by how busy the node's ranks were, with its slowest rank's activities on top.
 */
class TimelineAtScaleTest {
    static final String W = "wide256";
    static final int RANKS = 256;

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static Reports reports;
    static ReportModel model;

    @BeforeAll
    static void refresh() throws Exception {
        spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated(W, RANKS, 2, 37, 300);
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
        model = reports.model(W, null, ReportQueries.DEFAULT_TIMELINE_CAP);
    }

    @Test
    void ranksAreBandedByNodeWithTheStragglerOnTopOfItsNode() {
        ReportModel.Timeline t = model.timeline();
        assertEquals(32, t.bands().size(), "256 ranks ÷ count_per_node 8");
        for (int n = 0; n < 32; n++) {
            ReportModel.Band b = t.bands().get(n);
            assertEquals("node " + n, b.label());
            assertEquals(8L, b.ranks());
            assertEquals(8 * n, b.firstRank());
            assertEquals(8 * n + 7, b.lastRank());
            assertTrue(b.slowestRank() >= b.firstRank() && b.slowestRank() <= b.lastRank(), b.toString());
        }
        // Rank 37 reaches every collective 300 µs after the others: node 4's slowest.
        assertEquals(37, t.bands().get(4).slowestRank());
        // The spans are the slowest ranks' (their band's index in the rank field), within the cap.
        assertTrue(t.spans().size() <= ReportQueries.DEFAULT_TIMELINE_CAP);
        assertTrue(t.spans().stream().allMatch(s -> s.rank() >= 0 && s.rank() < 32));
        assertTrue(t.totalSpans() > t.spans().size(), "every rank's activities counted, the slowest ones shown");
    }

    @Test
    void heatIsABusyShareOfEachNodePerBin() {
        List<double[]> heat = model.timeline().heat();
        assertTrue(heat.size() <= 32 * (TimelineQuery.HEAT_BINS + 1), "bounded: " + heat.size());
        for (double[] c : heat) {
            assertTrue(c[0] >= 0 && c[0] < 32);
            assertTrue(c[3] >= 0 && c[3] <= 1, "a share: " + c[3]);
        }
        // Every node computes most of the step: some bin of each is more than half busy.
        for (int n = 0; n < 32; n++) {
            int node = n;
            assertTrue(heat.stream().anyMatch(c -> c[0] == node && c[3] > 0.5), "node " + n + " has a busy bin");
        }
    }

    @Test
    void pageStaysLightAndDrawsALanePerNodeInChromium() throws Exception {
        Path dir = tmp.resolve("html");
        reports.html(List.of(W), dir.toString(), null, ReportQueries.DEFAULT_TIMELINE_CAP);
        Path page = dir.resolve(W + ".html");
        long bytes = Files.size(page);
        assertTrue(bytes < 3_000_000, "a few MB at most: " + bytes);
        assumeTrue(Chromium.available(), "skipped: /usr/bin/chromium is absent");
        String dom = Chromium.dumpDom(page, tmp.resolve("chrome-wide"));
        Matcher chart = Pattern.compile("<div class=\"chart\" id=\"chart-timeline\"[^>]*data-rendered=\"true\"")
                .matcher(dom);
        assertTrue(chart.find(), "timeline rendered");
        String svg = dom.substring(chart.end(), dom.indexOf("</svg>", chart.end()));
        assertTrue(svg.contains("node 4 · slowest rank 37"), "the lane of the straggler's node");
        assertTrue(!svg.contains("rank 37 · compute"), "no per-rank lanes");
        Path png = Path.of("target", "report-artifacts", "timeline-" + W + ".png");
        Chromium.screenshot(page, png, tmp.resolve("shot-wide"), 2400);
        assertTrue(Files.size(png) > 50_000, "screenshot written");
    }
}
