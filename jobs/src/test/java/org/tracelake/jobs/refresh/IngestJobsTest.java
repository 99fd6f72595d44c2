package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.schemas.Tables;

/**
 * Ingest is one Spark job for every table its files fill, whatever their formats (issue 28: each task writes its
 * file's rows into the staged tables itself), plus one before it for execution traces, whose nodes the Kineto readers
 * take message sizes from. Before, it was a job per table: nine for an archive of every format. Counted by the jobs'
 * descriptions, so the figures do not depend on the machine.
 */
class IngestJobsTest {
    @TempDir
    Path tmp;

    @Test
    void anArchiveOfEveryFormatIsIngestedInTwoJobs() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        assertEquals(ExitCodes.OK, Main.run("generate", "--formats", "all", "-o", archive.archive.toString()));

        List<String> jobs = ingestJobs(spark, archive);
        assertEquals(2, jobs.size(), jobs::toString);
        assertTrue(jobs.get(0).contains(Tables.ET_NODES), "the execution traces first: " + jobs);
        for (String table :
                List.of(Tables.EVENTS, Tables.MEMORY_EVENTS, Tables.ITERATION_TELEMETRY, Tables.FLIGHT_RECORDER)) {
            assertTrue(jobs.get(1).contains(table), "one job for " + table + " and every other table: " + jobs);
        }
        // and every table those jobs fill is there: a row count per table, read back from the warehouse
        for (String table : List.of(
                Tables.EVENTS,
                Tables.MEMORY_EVENTS,
                Tables.MEMORY_SEGMENTS,
                Tables.ITERATION_TELEMETRY,
                Tables.ET_NODES,
                Tables.FLIGHT_RECORDER,
                Tables.PROCESS_GROUP_STATUS)) {
            long rows =
                    spark.read().format("iceberg").load(archive.table(table)).count();
            assertTrue(rows > 0, table + " is empty");
        }
    }

    @Test
    void kinetoAloneIsOneJob() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        for (int i = 0; i < 3; i++) archive.generated(String.format(Locale.ROOT, "w%d", i), 2, 2, -1, 0);
        List<String> jobs = ingestJobs(spark, archive);
        assertEquals(1, jobs.size(), jobs::toString);
    }

    /** The descriptions of the ingest jobs of an ingest of the archive (ingest names its jobs "ingest: ..."). */
    private static List<String> ingestJobs(SparkSession spark, TestArchive archive) throws Exception {
        return SparkJobCounts.during(spark, () -> {
                    for (WorkloadIngest w : archive.ingest(spark)) assertTrue(w.ok(), w.workload() + ": " + w);
                })
                .jobsDescribed(d -> d.startsWith("ingest"));
    }
}
