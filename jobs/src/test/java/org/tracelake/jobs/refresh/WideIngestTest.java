package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * A refresh reads the files of all its changed workloads in one Spark job: three generated workloads of 2, 3 and 4
 * ranks (9 trace files) are read by one "ingest" job whose stage has a task per file, not three jobs of 2, 3, 4 tasks.
 */
class WideIngestTest {
    @Test
    void oneJobReadsEveryWorkloadsFiles(@TempDir Path tmp) throws Exception {
        TestArchive a = new TestArchive(tmp)
                .generated("w2", 2, 2, -1, 0)
                .generated("w3", 3, 2, -1, 0)
                .generated("w4", 4, 2, -1, 0);
        SparkSession spark = SharedSpark.get();
        JobsSeen jobs = new JobsSeen();
        spark.sparkContext().addSparkListener(jobs);
        try {
            Refresh.Result r = a.refresh(spark);
            assertTrue(r.allOk(), r.toString());
        } finally {
            spark.sparkContext().listenerBus().waitUntilEmpty();
            spark.sparkContext().removeSparkListener(jobs);
        }
        List<String> ingest = new ArrayList<>();
        for (String d : jobs.descriptions.values()) if (d.startsWith("ingest")) ingest.add(d);
        assertEquals(List.of("ingest: 9 files into events"), ingest, "every ingest job: " + jobs.descriptions);
        int readTasks = jobs.tasksOfFirstStage.get(jobs.jobOf("ingest: 9 files into events"));
        assertEquals(9, readTasks, "one task per file of all three workloads");
    }

    /** Job descriptions and the task count of each job's first stage, as Spark's scheduler announced them. */
    private static final class JobsSeen extends SparkListener {
        final Map<Integer, String> descriptions = new ConcurrentHashMap<>();
        final Map<Integer, Integer> tasksOfFirstStage = new ConcurrentHashMap<>();
        private final Map<Integer, Integer> jobOfStage = new ConcurrentHashMap<>();

        @Override
        public void onJobStart(SparkListenerJobStart job) {
            String d = job.properties() == null ? null : job.properties().getProperty("spark.job.description");
            descriptions.put(job.jobId(), d == null ? "" : d);
            scala.collection.Iterator<Object> stages = job.stageIds().iterator();
            int first = Integer.MAX_VALUE;
            while (stages.hasNext()) first = Math.min(first, (Integer) stages.next());
            jobOfStage.put(first, job.jobId());
        }

        @Override
        public void onStageSubmitted(SparkListenerStageSubmitted stage) {
            Integer job = jobOfStage.get(stage.stageInfo().stageId());
            if (job != null)
                tasksOfFirstStage.putIfAbsent(job, stage.stageInfo().numTasks());
        }

        int jobOf(String description) {
            for (Map.Entry<Integer, String> e : descriptions.entrySet())
                if (e.getValue().equals(description)) return e.getKey();
            throw new AssertionError("no job " + description + " in " + descriptions);
        }
    }
}
