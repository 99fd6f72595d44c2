package org.tracelake.jobs.metrics.findings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;

/**
 * Issue 40's memory rule end to end: the bundled sample memory snapshot (data/sample-memory-snapshot-a100x1), whose
 * replay peaks at 1,572,864 bytes allocated, on a card that says "NVIDIA A100". The bundled conf/device_memory.csv
 * gives a bare A100 no size (it is sold with 40 and 80 GB): no memory_pressure finding. A site's table
 * (spark.tracelake.deviceMemory) that gives the A100 0.0016 GiB = 1,717,986.9 bytes makes the peak 1,572,864 ÷
 * 1,717,986.9 = 0.91552734375 of it: a warning (≥ 0.9, < 0.97).
 */
class MemoryPressureFindingTest {
    @TempDir
    Path tmp;

    @Test
    void aPeakNearTheDevicesMemoryIsAFinding() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        TestFiles.copyTree(Path.of("..", "data", "sample-memory-snapshot-a100x1"), archive.workload("snap"));
        Files.move(
                archive.workload("snap").resolve("sample-memory-snapshot-a100x1.yaml"),
                archive.workload("snap").resolve("snap.yaml"));
        Refresh.Result bundled = archive.refresh(spark);
        assertTrue(bundled.allOk(), bundled.toString());
        assertEquals(List.of(), memoryPressure(spark, archive), "a bare A100 has no size in the bundled table");

        Path site = Files.writeString(
                tmp.resolve("site-memory.csv"), "pattern,memory_gib,note\nA100,0.0016,a site's tiny A100\n");
        spark.conf().set(Settings.DEVICE_MEMORY.name(), site.toString());
        try {
            // the snapshot touched, so the workload is read again with the site's table
            try (var files = Files.walk(archive.workload("snap"))) {
                for (Path p : files.filter(Files::isRegularFile).toList())
                    Files.setLastModifiedTime(
                            p, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
            }
            Refresh.Result withSite = archive.refresh(spark);
            assertTrue(withSite.allOk(), withSite.toString());
        } finally {
            spark.conf().unset(Settings.DEVICE_MEMORY.name());
        }
        List<Row> f = memoryPressure(spark, archive);
        assertEquals(1, f.size(), f.toString());
        assertEquals("warning", f.get(0).getAs("severity"));
        assertEquals(0.91552734375, f.get(0).<Double>getAs("value"), 1e-12);
        assertEquals(0.9, f.get(0).<Double>getAs("threshold"), 0.0);
        assertTrue(
                f.get(0).<String>getAs("message").startsWith("peak allocation 0.0 GiB is 92% of the NVIDIA A100's"),
                f.get(0).toString());
    }

    private static List<Row> memoryPressure(SparkSession spark, TestArchive archive) {
        if (!Files.isDirectory(archive.warehouse.resolve("findings"))) return List.of(); // no finding ever: no table
        return spark.read()
                .format("iceberg")
                .load(archive.table("findings"))
                .where("rule = 'memory_pressure'")
                .collectAsList();
    }
}
