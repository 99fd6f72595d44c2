package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The case a new user hit: a workload refreshed with 4 ranks, its rank-3 file removed, then {@code ingest}, then
 * {@code refresh}. Ingest (a refresh without metrics) must not leave the 4-rank metrics beside 3-rank events, and the
 * refresh after it must compute the metrics even though no file changed since the ingest.
 */
class IngestThenRefreshTest {
    @Test
    void eventsMetricsAndCollectivesDescribeTheSameRanks(@TempDir Path tmp) throws Exception {
        TestArchive a = new TestArchive(tmp).generated("w", 4, 2, -1, 0);
        SparkSession spark = SharedSpark.get();
        assertTrue(a.refresh(spark).allOk());
        assertEquals(List.of(0, 1, 2, 3), ranks(spark, a, "events"));
        assertEquals(List.of(0, 1, 2, 3), ranks(spark, a, "metrics"));

        Files.delete(a.generatedTrace("w", 3, 2));
        a.ingest(spark);
        assertEquals(List.of(0, 1, 2), ranks(spark, a, "events"));
        assertEquals(0, rows(spark, a, "metrics"), "ingest removed the metrics of the old events");
        assertEquals(0, rows(spark, a, "collectives"));
        assertEquals(0, rows(spark, a, "collective_members"));

        Refresh.Result r = a.refresh(spark);
        assertEquals(1, r.workloads().size(), "refreshed although no file changed since the ingest");
        assertEquals(List.of(0, 1, 2), ranks(spark, a, "events"));
        assertEquals(List.of(0, 1, 2), ranks(spark, a, "metrics"));
        List<Row> members = spark.read()
                .format("iceberg")
                .load(a.table("collectives"))
                .selectExpr("max(ranks) AS n")
                .collectAsList();
        assertEquals(3, members.get(0).getInt(0), "collectives span the three ranks left");
        assertEquals(List.of(0, 1, 2), ranks(spark, a, "collective_members"));
    }

    private static List<Integer> ranks(SparkSession spark, TestArchive a, String table) {
        return spark
                .read()
                .format("iceberg")
                .load(a.table(table))
                .where("rank IS NOT NULL")
                .select("rank")
                .distinct()
                .orderBy("rank")
                .collectAsList()
                .stream()
                .map(r -> r.getInt(0))
                .toList();
    }

    private static long rows(SparkSession spark, TestArchive a, String table) throws java.io.IOException {
        if (!Files.exists(Path.of(a.table(table), "metadata"))) return 0;
        return spark.read().format("iceberg").load(a.table(table)).count();
    }
}
