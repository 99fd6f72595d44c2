package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.sql.SqlCookbookTest;
import org.tracelake.jobs.testing.DocQuestion;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * {@code report --history}: three nights of a generated 2-rank workload (first run with no straggler; then both
 * rank traces replaced by a run where rank 1 is 300 µs late to every collective; then rank 0's trace truncated, so
 * the run fails and records no metrics), and two nights of the real HTA sampled traces
 * (../shared/traces/kineto/hta-sampled-2rank) where the second run only re-reads a touched file.
 */
@RealTraces("kineto/hta-sampled-2rank")
class HistoryReportTest {
    static final String GEN = "nightly";
    static final String REAL = "hta_sampled";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Reports reports;
    static List<String> genRuns;
    static List<String> realRuns;

    @BeforeAll
    static void threeNights() throws Exception {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .generated(GEN, 2, 3, -1, 0)
                .copyShared(REAL, "kineto/hta-sampled-2rank")
                .card(REAL, "training", "llama", "NVIDIA A100", 2);
        Refresh.Result night1 = archive.refresh(spark);
        assertTrue(night1.allOk(), () -> "night 1: " + night1.workloads());

        // Night 2: the same run again but rank 1 starts every collective 300 µs late; both rank traces are replaced
        // (rank 0 waits for rank 1 inside its kernels), the card is not touched. The real traces: one file touched.
        TestArchive slower = new TestArchive(tmp.resolve("slower")).generated(GEN, 2, 3, 1, 300);
        for (int rank = 0; rank < 2; rank++) {
            Files.copy(
                    slower.generatedTrace(GEN, rank, 3),
                    archive.generatedTrace(GEN, rank, 3),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Path touched = archive.archive.resolve(REAL).resolve("sampled_rank-1.json.gz");
        Files.setLastModifiedTime(
                touched, FileTime.fromMillis(Files.getLastModifiedTime(touched).toMillis() + 60_000));
        Refresh.Result night2 = archive.refresh(spark);
        assertTrue(night2.allOk(), () -> "night 2: " + night2.workloads());

        // Night 3: rank 0's trace is cut to a third: the workload fails and keeps night 2's tables.
        Path rank0 = archive.generatedTrace(GEN, 0, 3);
        byte[] whole = Files.readAllBytes(rank0);
        Files.write(rank0, Arrays.copyOf(whole, whole.length / 3));
        Refresh.Result night3 = archive.refresh(spark);
        assertFalse(night3.allOk());

        reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
        genRuns = List.of(night1.runId(), night2.runId(), night3.runId());
        realRuns = List.of(night1.runId(), night2.runId());
    }

    static RunHistory.Series series(RunHistory h, String name) {
        return h.series().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no series " + name + " in "
                        + h.series().stream().map(RunHistory.Series::name).toList()));
    }

    @Test
    void generatedWorkloadHasThreeRunsTheSlowerOneFlagged() {
        RunHistory h = reports.history(GEN);
        assertEquals(genRuns, h.runs().stream().map(RunHistory.Run::runId).toList());
        assertEquals(List.of("new workload"), h.runs().get(0).changes());
        assertEquals(
                List.of("changed file rank0_trace.json", "changed file rank1_trace.json"),
                h.runs().get(1).changes());
        assertEquals(List.of("changed file rank0_trace.json"), h.runs().get(2).changes());
        assertEquals(
                List.of(true, true, false),
                h.runs().stream().map(RunHistory.Run::hasMetrics).toList());
        // straggler_lag's headline: 0 µs, then 300 µs (every collective, rank 1 late by 300 µs), none on the failed
        // night
        RunHistory.Series lag = series(h, "straggler_lag.mean_lag_us");
        assertEquals(Arrays.asList(0.0, 300.0, null), lag.values());
        assertEquals(List.of(false, true, false), lag.flagged());
        // The series are the catalog's headlines: never a second figure of a metric.
        assertTrue(h.series().stream().noneMatch(s -> s.name().equals("straggler_lag.max_lag_us")));
        // Every flag on night 2 is a regressions row of that run at workload scope, and the other way round for
        // headlines.
        long flaggedHeadlines =
                h.series().stream().filter(s -> s.flagged().get(1)).count();
        long headlineRegressions = spark
                .read()
                .format("iceberg")
                .load(archive.table("regressions"))
                .where("workload = '" + GEN + "' AND run_id = '" + genRuns.get(1) + "' AND key IS NULL AND ("
                        + HistoryQuery.MOVED + ")")
                .collectAsList()
                .stream()
                .filter(r -> h.series().stream()
                        .anyMatch(s -> s.metric().equals(r.getAs("metric"))
                                && java.util.Objects.equals(s.figure(), r.getAs("figure"))))
                .count();
        assertEquals(headlineRegressions, flaggedHeadlines);
        assertTrue(flaggedHeadlines >= 1);
    }

    @Test
    void textShowsRunsChangesAndTheMetricLines() {
        String text = reports.history(GEN).text();
        assertTrue(text.startsWith("tracelake history: " + GEN + "\n"), text);
        assertTrue(text.contains("\n3 runs read this workload\n"), text);
        List<String> night3 = cells(text, "3");
        assertEquals(genRuns.get(2), night3.get(1));
        assertEquals("changed file rank0_trace.json (failed: no metrics)", night3.get(night3.size() - 1));
        // metric, unit, #1, #2, #3, first -> last: 0 to 300 has no relative change
        assertEquals(
                List.of("straggler_lag.mean_lag_us", "us", "0", "300*", "-", "-"),
                cells(text, "straggler_lag.mean_lag_us"));
    }

    @Test
    void realTracesReadAgainForATouchedFileGiveTheSameNumbers() {
        RunHistory h = reports.history(REAL);
        assertEquals(realRuns, h.runs().stream().map(RunHistory.Run::runId).toList());
        assertEquals(
                List.of("changed file sampled_rank-1.json.gz"), h.runs().get(1).changes());
        assertFalse(h.series().isEmpty());
        for (RunHistory.Series s : h.series()) {
            assertEquals(s.values().get(0), s.values().get(1), s.name() + ": the same files give the same value");
            assertEquals(List.of(false, false), s.flagged(), s.name());
        }
        String text = h.text();
        assertTrue(text.contains("\n2 runs read this workload\n"), text);
        String coll = text.lines()
                .filter(l -> l.strip().startsWith("coll_call_num "))
                .findFirst()
                .orElseThrow();
        assertTrue(coll.strip().endsWith("0.0%"), coll);
    }

    @Test
    void htmlPageDrawsALinePerMetricInChromium() throws Exception {
        Path dir = tmp.resolve("history-out");
        RunHistory h = reports.history(GEN);
        List<String> written = reports.writeHistory(h, dir.toString());
        assertEquals(2, written.size());
        assertEquals(h.text(), Files.readString(dir.resolve("history.txt")));
        assumeTrue(Chromium.available(), "skipped: /usr/bin/chromium is absent");
        Path page = dir.resolve("history.html");
        String dom = Chromium.dumpDom(page, tmp.resolve("chrome-history"));
        assertTrue(dom.contains("data-charts-ready=\"" + h.series().size() + "\""), "a chart per headline metric drew");
        int lag = h.series().indexOf(series(h, "straggler_lag.mean_lag_us"));
        assertTrue(dom.contains("id=\"chart-history-" + lag + "\""), "the straggler chart");
        assertTrue(dom.contains("changed file rank0_trace.json (failed: no metrics)"), "the runs table");
        Path png = Path.of("target", "report-artifacts", "history-" + GEN + ".png");
        Chromium.screenshot(page, png, tmp.resolve("shot-history"), 5000);
        assertTrue(Files.size(png) > 50_000, "screenshot written");
    }

    @Test
    void commandLineTakesOneWorkloadAlone() {
        assertEquals(ExitCodes.USAGE, Main.run("report", "--history", GEN, "--html"));
        assertEquals(ExitCodes.USAGE, Main.run("report", "--history", GEN, "--compare", "a", "b"));
    }

    /** docs/SQL.md question 19 (a ```sql history block, not run on data/) gives its documented answer here. */
    @Test
    void documentedQuestionGivesItsAnswer() throws Exception {
        DocQuestion.Answer a = DocQuestion.run(spark, archive.warehouse.toString(), "history");
        assertTrue(a.ok(), a.error());
        String why = SqlCookbookTest.differs(a.documented(), a.actual());
        assertNull(why, () -> why + "\nactual:\n" + a.actual());
    }

    private static List<String> cells(String text, String first) {
        return text.lines()
                .map(l -> List.of(l.strip().split("\\s{2,}")))
                .filter(c -> c.get(0).equals(first))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + first + " in:\n" + text));
    }
}
