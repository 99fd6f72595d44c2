package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.TraceStyle;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.sql.SqlCookbookTest;
import org.tracelake.jobs.testing.DocQuestion;
import org.tracelake.jobs.testing.IndependentVerdict;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;

/**
 * The target of issue 41: a held-out sequence of four runs of one workload, written by the project's generator with
 * every GEMM ×1.00, ×1.10, ×1.01, ×1.01 and a different jitter seed each night, refreshed in order into one warehouse.
 * Each night's verdict, noise and top kernel must equal those of a small independent implementation of METRICS.md §4
 * "Run comparison verdicts" that reads the trace files themselves (below: its own JSON parsing, step windows, launch
 * correlation, trimming and nearest-rank percentiles), and the verdicts must be the ones the sequence was built for:
 * regression_likely, improvement_likely, neutral. A refresh without a previous run starts no job of the comparison;
 * one with a previous run starts one more than the threshold rule did (the kernels' write).
 */
class RunVerdictSequenceTest {
    private static final String WORKLOAD = "gemm-nightly";
    private static final double[] GEMM_SCALE = {1.00, 1.10, 1.01, 1.01};
    private static final long[] SEEDS = {101, 202, 303, 404};

    @TempDir
    Path tmp;

    @Test
    void fourNightsGetTheVerdictsOfAnIndependentImplementation() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        List<IndependentVerdict.Run> independent = new ArrayList<>();
        List<String> runIds = new ArrayList<>();
        for (int night = 0; night < 4; night++) {
            TestFiles.deleteTree(archive.archive.resolve(WORKLOAD));
            SampleArchiveGenerator.write(
                    archive.archive,
                    new WorkloadSpec(WORKLOAD, TraceStyle.MODERN, 2, 1, 6, 2, false, -1, 0, SEEDS[night])
                            .withGemmScale(GEMM_SCALE[night]));
            independent.add(IndependentVerdict.Run.read(archive.archive.resolve(WORKLOAD)));
            Refresh.Result[] result = new Refresh.Result[1];
            SparkJobCounts jobs = SparkJobCounts.during(spark, () -> result[0] = archive.refresh(spark));
            assertTrue(result[0].allOk(), "night " + (night + 1) + ": " + result[0]);
            runIds.add(result[0].runId());
            List<String> kernelJobs = jobs.jobsDescribed(d -> d.equals("history: regression kernels"));
            List<String> regressionJobs = jobs.jobsDescribed(d -> d.startsWith("history: regression"));
            if (night == 0) {
                assertEquals(List.of(), regressionJobs, "the first night has nothing to compare with");
            } else {
                // beside the threshold rule's jobs (the count, whose plan now holds the comparison too, the write
                // and the rows for the summary), one job: the kernels' write, read from the cached rows
                assertEquals(
                        List.of("history: regression kernels"),
                        kernelJobs,
                        "night " + (night + 1) + ": " + regressionJobs);
            }
        }

        List<String> expected = List.of("regression_likely", "improvement_likely", "neutral");
        for (int night = 1; night < 4; night++) {
            IndependentVerdict want = IndependentVerdict.of(independent.get(night - 1), independent.get(night));
            assertEquals(expected.get(night - 1), want.verdict(), "the independent verdict of night " + (night + 1));
            String runId = runIds.get(night);
            Row got = spark.read()
                    .format("iceberg")
                    .load(archive.table("regressions"))
                    .where("run_id = '" + runId + "' AND rule = 'step_verdict'")
                    .collectAsList()
                    .get(0);
            assertEquals(want.verdict(), got.getAs("verdict"), "night " + (night + 1));
            assertEquals(want.noise(), got.<Double>getAs("noise"), 1e-9, "noise, night " + (night + 1));
            assertEquals(want.change(), got.<Double>getAs("step_change"), 1e-9, "Δ, night " + (night + 1));
            assertEquals(want.topKernel(), got.getAs("top_kernel"), "top kernel, night " + (night + 1));
            assertEquals(want.topDeltaMs(), got.<Double>getAs("top_kernel_delta_ms"), 1e-9);
            List<Row> kernels = spark.read()
                    .format("iceberg")
                    .load(archive.table("regression_kernels"))
                    .where("run_id = '" + runId + "'")
                    .orderBy("position")
                    .collectAsList();
            assertEquals(5, kernels.size(), "night " + (night + 1));
            assertEquals(want.topKernel(), kernels.get(0).getAs("kernel"));
            assertEquals(want.topDeltaMs(), kernels.get(0).<Double>getAs("delta_ms"), 1e-9);
        }
        // on the GEMM nights the kernel that moved most is a GEMM, and the part that moved most is compute
        for (int night = 1; night < 3; night++) {
            Row got = spark.read()
                    .format("iceberg")
                    .load(archive.table("regressions"))
                    .where("run_id = '" + runIds.get(night) + "' AND rule = 'step_verdict'")
                    .first();
            assertTrue(((String) got.getAs("top_kernel")).contains("gemm"), got.toString());
            double compute = Math.abs(got.<Double>getAs("compute_delta_ms"));
            for (String part : List.of("exposed_comm", "exposed_copy", "idle")) {
                assertTrue(compute > Math.abs(got.<Double>getAs(part + "_delta_ms")), part + ": " + got);
            }
        }
        // docs/SQL.md question 20 (a ```sql verdicts block) gives its documented answer on this warehouse
        DocQuestion.Answer a = DocQuestion.run(spark, archive.warehouse.toString(), "verdicts");
        assertTrue(a.ok(), a.error());
        String why = SqlCookbookTest.differs(a.documented(), a.actual());
        assertNull(why, () -> why + "\nactual:\n" + a.actual());
    }
}
