package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.TraceStyle;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.metrics.verdict.StepSample;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.IndependentVerdict;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 41: {@code report --compare} and {@code report --workload W --against-run RUN} open with the verdict of
 * METRICS.md §4 "Run comparison verdicts". Two nights of one workload written by the project's generator: night 1
 * with every GEMM ×1.00 (seed 101), night 2 with every GEMM ×1.10 (seed 202); on night 2 the archive also holds {@code
 * before}, a second workload written as night 1 was. Each comparison's verdict, Δ, noise and top kernel must equal
 * those of the independent implementation ({@link IndependentVerdict}, which reads the trace files itself), and the
 * comparison against the earlier run must say what the nightly refresh wrote in {@code regressions}.
 */
class CompareVerdictTest {
    private static final String WORKLOAD = "gemm-nightly";
    private static final String BEFORE = "before";
    private static final double EPS = 1e-9;

    @TempDir
    static Path tmp;

    static Reports reports;
    static SparkSession spark;
    static TestArchive archive;
    static String firstRun;
    static String secondRun;
    static IndependentVerdict nightly;
    static IndependentVerdict compared;

    @BeforeAll
    static void twoNights() throws Exception {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        SampleArchiveGenerator.write(archive.archive, spec(WORKLOAD, 1.00, 101));
        IndependentVerdict.Run night1 = IndependentVerdict.Run.read(archive.archive.resolve(WORKLOAD));
        Refresh.Result first = archive.refresh(spark);
        assertTrue(first.allOk(), first.toString());
        firstRun = first.runId();

        TestFiles.deleteTree(archive.archive.resolve(WORKLOAD));
        SampleArchiveGenerator.write(archive.archive, spec(WORKLOAD, 1.10, 202));
        SampleArchiveGenerator.write(archive.archive, spec(BEFORE, 1.00, 101));
        IndependentVerdict.Run night2 = IndependentVerdict.Run.read(archive.archive.resolve(WORKLOAD));
        IndependentVerdict.Run before = IndependentVerdict.Run.read(archive.archive.resolve(BEFORE));
        Refresh.Result second = archive.refresh(spark);
        assertTrue(second.allOk(), second.toString());
        secondRun = second.runId();

        nightly = IndependentVerdict.of(night1, night2);
        compared = IndependentVerdict.of(before, night2);
        reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
    }

    private static WorkloadSpec spec(String name, double gemmScale, long seed) {
        return new WorkloadSpec(name, TraceStyle.MODERN, 2, 1, 6, 2, false, -1, 0, seed).withGemmScale(gemmScale);
    }

    @Test
    void compareOpensWithTheVerdictOfTheIndependentImplementation() {
        Comparison c = reports.compare(BEFORE, WORKLOAD);
        Comparison.Verdict v = c.verdict();
        assertNotNull(v, "both workloads have steps: the comparison has a verdict");
        assertEquals("regression_likely", compared.verdict(), "GEMMs 10 % slower: the independent verdict");
        assertSame(compared, v);
        assertFalse(v.byCategory(), "one device model: kernels compared by name");
        assertPartsAddUp(v);

        // the text opens with the verdict, before the table of ratios
        String text = c.text();
        int verdictLine = text.indexOf("verdict    regression_likely: median trimmed step +");
        assertTrue(verdictLine > 0, text);
        assertTrue(verdictLine < text.indexOf("metric "), "the verdict comes before the ratios:\n" + text);
        assertTrue(text.contains("Kernels that moved most"), text);
        assertTrue(text.contains(compared.topKernel().substring(0, 40)), text);
        for (String part : StepSample.PARTS) assertTrue(text.contains("\n  " + part + " "), part + ":\n" + text);

        // summary.json (and the HTML page, which draws the waterfall from it) carries the verdict and its split
        @SuppressWarnings("unchecked")
        Map<String, Object> summary = (Map<String, Object>) c.summary().get("verdict");
        assertEquals("regression_likely", summary.get("verdict"));
        @SuppressWarnings("unchecked")
        Map<String, Double> parts = (Map<String, Double>) summary.get("parts");
        List<String> expected = new java.util.ArrayList<>(StepSample.PARTS);
        expected.add("other");
        assertEquals(expected, List.copyOf(parts.keySet()));
    }

    @Test
    void againstRunSaysWhatTheNightlyRefreshWrote() {
        Comparison c = reports.compareAgainstRun(WORKLOAD, firstRun);
        Comparison.Verdict v = c.verdict();
        assertNotNull(v);
        assertEquals("regression_likely", nightly.verdict());
        assertSame(nightly, v);
        assertPartsAddUp(v);
        assertTrue(c.text().contains("reference  " + WORKLOAD + " @ " + firstRun), c.text());

        Row row = spark.read()
                .format("iceberg")
                .load(archive.table("regressions"))
                .where("run_id = '" + secondRun + "' AND workload = '" + WORKLOAD + "' AND rule = 'step_verdict'")
                .first();
        assertEquals(firstRun, row.getAs("previous_run_id"));
        assertEquals(v.verdict(), row.getAs("verdict"));
        assertEquals(v.change(), row.<Double>getAs("step_change"), EPS);
        assertEquals(v.noise(), row.<Double>getAs("noise"), EPS);
        assertEquals(v.deltaMs(), row.<Double>getAs("delta_ms"), EPS);
        double idle = 0;
        for (String part : StepSample.PARTS) {
            assertEquals(v.parts().get(part), row.<Double>getAs(part + "_delta_ms"), EPS, part);
            if (StepSample.IDLE_PARTS.contains(part)) idle += v.parts().get(part);
        }
        assertEquals(idle, row.<Double>getAs("idle_delta_ms"), EPS, "idle as a whole is its three parts");
        assertEquals(v.kernels().get(0).kernel(), row.getAs("top_kernel"));
    }

    @Test
    void aRunTheHistoryDoesNotHaveIsNamed() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> reports.compareAgainstRun(WORKLOAD, "20000101T000000Z-0000"));
        assertEquals(
                "no run 20000101T000000Z-0000 of workload " + WORKLOAD + " in metrics_history (report --history "
                        + WORKLOAD + " lists its runs)",
                e.getMessage());
    }

    /** The comparison's verdict, Δ, noise and top kernel are the independent implementation's. */
    private static void assertSame(IndependentVerdict want, Comparison.Verdict got) {
        assertEquals(want.verdict(), got.verdict());
        assertEquals(want.change(), got.change(), EPS, "Δ");
        assertEquals(want.noise(), got.noise(), EPS, "noise");
        assertEquals(want.topKernel(), got.kernels().get(0).kernel(), "top kernel");
        assertEquals(want.topDeltaMs(), got.kernels().get(0).deltaMs(), EPS, "top kernel's change");
    }

    /** The parts and other add up to the step's change, and on GEMM-scaled runs compute moved most. */
    private static void assertPartsAddUp(Comparison.Verdict v) {
        double sum = 0;
        for (Double d : v.parts().values()) sum += d;
        assertEquals(v.deltaMs(), sum, EPS, v.parts().toString());
        double compute = Math.abs(v.parts().get("compute"));
        v.parts().forEach((part, d) -> {
            if (!part.equals("compute")) assertTrue(compute > Math.abs(d), part + ": " + v.parts());
        });
    }
}
