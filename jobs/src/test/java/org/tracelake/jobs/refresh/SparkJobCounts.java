package org.tracelake.jobs.refresh;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;

/**
 * What a piece of work asked of Spark, counted by a listener on the session (so the figures do not depend on the
 * machine): jobs started, with their descriptions, stages submitted and SQL executions started.
 */
final class SparkJobCounts extends SparkListener {
    /** Work to count; it may throw (a refresh, an ingest). */
    interface Work {
        void run() throws Exception;
    }

    int jobs;
    int stages;
    int sql;
    private final List<String> descriptions = new ArrayList<>();

    /** Counts what {@code work} starts on the session, from an empty listener bus to an empty one. */
    static SparkJobCounts during(SparkSession spark, Work work) throws Exception {
        SparkJobCounts counts = new SparkJobCounts();
        spark.sparkContext().listenerBus().waitUntilEmpty();
        spark.sparkContext().addSparkListener(counts);
        try {
            work.run();
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.sparkContext().removeSparkListener(counts);
        }
        return counts;
    }

    /** The descriptions of the jobs started ({@code spark.job.description}) that {@code keep} accepts, in order. */
    synchronized List<String> jobsDescribed(Predicate<String> keep) {
        return descriptions.stream().filter(keep).toList();
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart job) {
        jobs++;
        String d = job.properties() == null ? null : job.properties().getProperty("spark.job.description");
        if (d != null) descriptions.add(d);
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
