package org.tracelake.jobs.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * A file's report reaches the ledger once even when Spark runs its task twice: every task of this job reads its
 * file to the end (its report is published) and then fails on its first attempt; Spark runs it again
 * (the test session allows one retry, {@code local[2,2]}), and the second attempt publishes again.
 */
class SourceReportsOnceTest {
    private static final Path DLRM = SampleWarehouse.projectHome().resolve("data/dlrm-ddp-v100x4-legacy");

    @Test
    void aRetriedTaskReportsItsFileOnce(@TempDir Path reports) throws Exception {
        SparkSession spark = SharedSpark.get();
        String glob = DLRM.resolve("worker*.json.gz").toString();
        long expected = spark.read().format("tracelake").load(glob).count();

        Dataset<Row> events = spark.read()
                .format("tracelake")
                .option("reportsDir", reports.toUri().toString())
                .load(glob);
        List<Long> perTask = events.mapPartitions(
                        (MapPartitionsFunction<Row, Long>) rows -> {
                            long n = 0;
                            while (rows.hasNext()) {
                                rows.next();
                                n++;
                            }
                            if (TaskContext.get().attemptNumber() == 0)
                                throw new IllegalStateException("injected: first attempt fails");
                            return List.of(n).iterator();
                        },
                        Encoders.LONG())
                .collectAsList();
        assertEquals(expected, perTask.stream().mapToLong(Long::longValue).sum(), "second attempts returned every row");

        List<FileReport> published = ReportSink.readAll(reports.toUri().toString(), new Configuration());
        Map<String, AtomicInteger> perFile = new HashMap<>();
        long read = 0;
        for (FileReport r : published) {
            perFile.computeIfAbsent(r.task.path(), k -> new AtomicInteger()).incrementAndGet();
            read += r.eventsRead;
        }
        assertEquals(4, perFile.size(), "a report for every file: " + perFile.keySet());
        perFile.forEach((path, n) -> assertEquals(1, n.get(), "reports of " + path));
        assertEquals(expected, read, "events counted once, not once per attempt");
    }
}
