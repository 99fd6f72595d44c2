package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.report.ReportModel.MetricRow;

/**
 * {@code report --compare}'s ratios (issue 30): identifiers and counts of things get none — straggler rank 1 then 3 is
 * not "3x" — and the ratio chart's log axis reaches every ratio it plots, here 1000 (1 ms → 1 s) and 0.0004
 * (2,500 → 1 GB/s), far outside the 0.01-100 the axis used to stop at. No Spark: the comparison of two lists of rows.
 */
class CompareRatiosTest {
    @TempDir
    Path tmp;

    private static MetricRow row(String metric, String figure, String unit, double value) {
        return new MetricRow(metric, figure, null, null, null, value, unit, "ok", null);
    }

    private static Comparison comparison() {
        List<MetricRow> ref = List.of(
                row("avg_step_time", null, "s", 0.001),
                row("busbw_gbps", null, "GB/s", 2500),
                row("straggler_lag", "num_collectives", "count", 52),
                row("straggler_lag", "straggler_rank", "rank", 1),
                row("collective_wait", "most_waiting_rank", "rank", 2),
                row("coll_call_num", null, "count", 12));
        List<MetricRow> cand = List.of(
                row("avg_step_time", null, "s", 1),
                row("busbw_gbps", null, "GB/s", 1),
                row("straggler_lag", "num_collectives", "count", 104),
                row("straggler_lag", "straggler_rank", "rank", 3),
                row("collective_wait", "most_waiting_rank", "rank", 6),
                row("coll_call_num", null, "count", 48));
        return Comparison.of("ref", ref, "cand", cand);
    }

    private static Comparison.Row find(Comparison c, String metric, String figure) {
        return c.rows().stream()
                .filter(r -> r.metric().equals(metric) && java.util.Objects.equals(r.figure(), figure))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void identifiersAndCountsOfThingsGetNoRatio() {
        Comparison c = comparison();
        assertNull(find(c, "straggler_lag", "straggler_rank").ratio(), "rank 1 -> 3 is no 3x");
        assertNull(find(c, "collective_wait", "most_waiting_rank").ratio());
        assertNull(find(c, "straggler_lag", "num_collectives").ratio(), "52 -> 104 instances: read side by side");
        assertEquals(
                4.0, find(c, "coll_call_num", null).ratio(), 1e-12, "calls per rank are an amount of work: 48 / 12");
        assertEquals(1000.0, find(c, "avg_step_time", null).ratio(), 1e-9);
        String text = c.text();
        String rank = text.lines()
                .filter(l -> l.contains("straggler_rank"))
                .findFirst()
                .orElseThrow();
        assertFalse(rank.contains("3x") || rank.contains("3.000x"), rank);
        assertTrue(rank.strip().matches("straggler_lag\\s+straggler_rank\\s+-\\s+rank\\s+1\\s+3\\s+-"), rank);
    }

    @Test
    void theRatioAxisCoversEveryRatio() throws Exception {
        assumeTrue(Chromium.available(), "skipped: /usr/bin/chromium is absent");
        Path page = tmp.resolve("compare.html");
        Files.writeString(page, comparison().html());
        String dom = Chromium.dumpDom(page, tmp.resolve("chrome"));
        Matcher m = Pattern.compile("id=\"chart-ratios\"[^>]*data-log-axis=\"([^\"]*)\"")
                .matcher(dom);
        assertTrue(m.find(), "the ratio chart drew and said its axis");
        JsonNode axis = new ObjectMapper().readTree(m.group(1).replace("&quot;", "\""));
        double min = axis.get(0).asDouble();
        double max = axis.get(1).asDouble();
        // the ratios plotted: 1000 (step time), 0.0004 (busbw), 4 (calls); none of the identifiers or counts of things
        for (double ratio : new double[] {1000, 0.0004, 4}) {
            assertTrue(min <= ratio && ratio <= max, ratio + " within [" + min + ", " + max + "]");
        }
        assertEquals(1e-4, min, 1e-15, "the power of 10 below the smallest ratio");
        assertEquals(1e3, max, 1e-9, "the power of 10 at or above the largest");
        assertTrue(dom.contains("data-layout-overlaps=\"0\""), "nothing overlaps on the ratio chart");
    }
}
