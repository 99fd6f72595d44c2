package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The metrics phase of a refresh (its Spark jobs carry descriptions starting "metrics") is a fixed number of Spark
 * jobs, whatever the number of workloads, and brings no metric row to the driver: what a task returns to the driver
 * (a write's commit message, and the accumulator updates of Spark's SQL metrics of its stages, which for the one job of
 * the metric families are a few hundred KB) does not grow with the number of workloads, as collected rows would.
 */
class MetricsPhaseJobsTest {
    /** How much larger a task's result may be with three workloads than with one (accumulator values, not rows). */
    static final double RESULT_GROWTH = 1.10;

    @TempDir
    Path tmp;

    @Test
    void jobsDoNotGrowWithWorkloadsAndNoRowComesBack() throws Exception {
        SparkSession spark = SharedSpark.get();
        PhaseListener one = refreshWith(spark, new TestArchive(tmp.resolve("one")).generated("w1", 4, 12, -1, 0));
        PhaseListener three = refreshWith(
                spark,
                new TestArchive(tmp.resolve("three"))
                        .generated("w1", 4, 12, -1, 0)
                        .generated("w2", 4, 12, 1, 200)
                        .generated("w3", 4, 12, -1, 0));

        assertTrue(one.jobs() > 0, "no job of the metrics phase was seen");
        assertEquals(
                one.jobs(),
                three.jobs(),
                "jobs of the metrics phase, 1 workload " + one.jobDescriptions + " vs 3 " + three.jobDescriptions);
        // Three workloads have three times the metric rows of one: collected, they would show here.
        assertTrue(
                three.largestResult <= one.largestResult * RESULT_GROWTH + 4096,
                "the largest result a task of the metrics phase sent the driver grew from " + one.largestResult
                        + " bytes with 1 workload to " + three.largestResult + " with 3");
    }

    private static PhaseListener refreshWith(SparkSession spark, TestArchive archive) throws Exception {
        PhaseListener listener = new PhaseListener();
        spark.sparkContext().addSparkListener(listener);
        try {
            Refresh.Result result = archive.refresh(spark);
            assertTrue(result.allOk());
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.sparkContext().removeSparkListener(listener);
        }
        return listener;
    }

    /** Jobs whose description starts with "metrics", and the largest result one of their tasks returned. */
    static final class PhaseListener extends SparkListener {
        final List<String> jobDescriptions = new ArrayList<>();
        final Map<Integer, Boolean> metricsStage = new HashMap<>();
        long largestResult;

        int jobs() {
            synchronized (this) {
                return jobDescriptions.size();
            }
        }

        @Override
        public synchronized void onJobStart(SparkListenerJobStart job) {
            String description =
                    job.properties() == null ? null : job.properties().getProperty("spark.job.description");
            if (description == null || !description.startsWith("metrics")) return;
            jobDescriptions.add(description);
            scala.jdk.javaapi.CollectionConverters.asJava(job.stageIds())
                    .forEach(id -> metricsStage.put((Integer) id, true));
        }

        @Override
        public synchronized void onTaskEnd(SparkListenerTaskEnd task) {
            if (!metricsStage.containsKey(task.stageId())) return;
            if (task.taskMetrics() == null) return;
            long size = task.taskMetrics().resultSize();
            largestResult = Math.max(largestResult, size);
        }
    }
}
