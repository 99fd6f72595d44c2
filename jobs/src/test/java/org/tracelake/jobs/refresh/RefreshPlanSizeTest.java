package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;

/**
 * A cold refresh is a small Spark plan whatever the archive holds (issue 27): the refresh of the bundled data/ is at
 * most 12 Spark jobs, 30 stages and 40 SQL executions (the command line adds one job for its summary, within the 12),
 * and a refresh of 48 small workloads is no larger. Counted by a listener on the session, so the figures do not depend
 * on the machine.
 */
class RefreshPlanSizeTest {
    static final int MAX_JOBS = 12;
    static final int MAX_STAGES = 30;
    static final int MAX_SQL = 40;

    @TempDir
    Path tmp;

    @Test
    void aColdRefreshIsASmallPlanWhateverTheNumberOfWorkloads() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive sample = new TestArchive(tmp.resolve("sample"));
        TestFiles.copyTree(SampleWarehouse.projectHome().resolve("data"), sample.archive);
        Counts data = refreshCounting(spark, sample);
        assertTrue(
                data.jobs <= MAX_JOBS - 1 && data.stages <= MAX_STAGES && data.sql <= MAX_SQL,
                "a cold refresh of data/ (without the command line's summary job): " + data);

        TestArchive wide = new TestArchive(tmp.resolve("wide"));
        for (int i = 0; i < 48; i++) wide.generated(String.format(Locale.ROOT, "w%02d", i), 2, 2, -1, 0);
        Counts many = refreshCounting(spark, wide);
        assertTrue(
                many.jobs <= data.jobs && many.stages <= data.stages && many.sql <= data.sql,
                "48 workloads " + many + " against data/'s 2 " + data);
    }

    private static Counts refreshCounting(SparkSession spark, TestArchive archive) throws Exception {
        Counts counts = new Counts();
        spark.sparkContext().listenerBus().waitUntilEmpty();
        spark.sparkContext().addSparkListener(counts);
        try {
            Refresh.Result result = archive.refresh(spark);
            assertTrue(result.allOk(), "the refresh failed: " + result);
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.sparkContext().removeSparkListener(counts);
        }
        return counts;
    }

    /** Jobs started, stages submitted and SQL executions started while it listened. */
    static final class Counts extends SparkListener {
        int jobs;
        int stages;
        int sql;

        @Override
        public synchronized void onJobStart(SparkListenerJobStart job) {
            jobs++;
        }

        @Override
        public synchronized void onStageSubmitted(SparkListenerStageSubmitted stage) {
            stages++;
        }

        @Override
        public synchronized void onOtherEvent(SparkListenerEvent event) {
            if (event instanceof SparkListenerSQLExecutionStart) sql++;
        }

        @Override
        public synchronized String toString() {
            return jobs + " jobs, " + stages + " stages, " + sql + " SQL executions";
        }
    }
}
