package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * A refresh that finished leaves nothing in the warehouse's staging area: a run folder left there (say, written again
 * by a late step after the run dropped it) is what the next refresh takes for a killed run, and it would delete that
 * run's committed data files as the killed run's. So after a full refresh with metrics (exports, history) the staging
 * area is empty, and the next refresh, which changes nothing, keeps every row.
 */
class StagingLeftEmptyTest {
    @TempDir
    Path tmp;

    @Test
    void aFinishedRefreshLeavesNoRunFolderAndTheNextKeepsEveryRow() throws IOException {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 3, 1, 50);
        assertTrue(archive.refresh(spark).allOk());
        assertEquals(List.of(), leftInStaging(archive.warehouse));
        long events = events(spark, archive);
        long metrics = metrics(spark, archive);
        assertTrue(events > 0 && metrics > 0);

        assertTrue(archive.refresh(spark).allOk());
        assertEquals(List.of(), leftInStaging(archive.warehouse));
        assertEquals(events, events(spark, archive), "the second refresh kept every event");
        assertEquals(metrics, metrics(spark, archive), "and every metric row");
    }

    private static List<String> leftInStaging(Path warehouse) throws IOException {
        Path staging = warehouse.resolve("_staging");
        if (!Files.exists(staging)) return List.of();
        try (Stream<Path> left = Files.list(staging)) {
            return left.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static long events(SparkSession spark, TestArchive archive) {
        return spark.read().format("iceberg").load(archive.table("events")).count();
    }

    private static long metrics(SparkSession spark, TestArchive archive) {
        return spark.read().format("iceberg").load(archive.table("metrics")).count();
    }
}
