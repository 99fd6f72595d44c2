package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.archive.ArchiveScanner;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.ingest.IngestPhase;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.metrics.workload.Families;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 45 items 2 and 3: a file's type is decided when it is opened, not when the archive was listed. Between the scan
 * and the read, one rank's trace is replaced by a FIFO (the driver blocked forever sniffing its first bytes, and the
 * lock's heartbeat then kept every later nightly run out) and another's by a link to a file outside the archive (its
 * content landed in events, its trace_files row said ok). Here the scan runs, the files are swapped, and the ingest
 * that reads the scan's listing must end on its own with an error row for each, reading nothing of the outside file.
 */
class ReplacedAfterScanTest {
    static final String SECRET = "S3CR3T-outside-after-scan";

    @TempDir
    Path tmp;

    private static FileReport report(List<WorkloadIngest> results, String workload, String name) {
        return results.stream()
                .filter(w -> w.workload().equals(workload))
                .flatMap(w -> w.files().stream())
                .filter(f -> f.task.path().endsWith("/" + name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(workload + "/" + name + " has no report: " + results));
    }

    @Test
    void aFifoOrALinkOutPlantedAfterTheScanIsNeitherOpenedNorFollowed() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp).generated("fifo", 2, 2, -1, 0).generated("link", 2, 2, -1, 0);
        Path outside = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(
                outside.resolve("secret.json"),
                Files.readString(a.generatedTrace("link", 1, 2)).replace("ProfilerStep#1", SECRET));

        List<WorkloadFolder> scanned =
                ArchiveScanner.scan(a.archive.toString(), spark.sparkContext().hadoopConfiguration());

        Path fifo = a.generatedTrace("fifo", 1, 2);
        Files.delete(fifo);
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", fifo.toString())
                        .inheritIO()
                        .start()
                        .waitFor());
        Path link = a.generatedTrace("link", 1, 2);
        Files.delete(link);
        Files.createSymbolicLink(link, outside.resolve("secret.json"));

        Warehouse wh =
                new Warehouse(a.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        List<WorkloadIngest> results;
        try {
            results = assertTimeoutPreemptively(
                    Duration.ofSeconds(180),
                    () -> new IngestPhase(
                                    new WarehouseTables(spark, wh),
                                    RunIds.newId(),
                                    InputLimits.defaults(),
                                    Families.RANK_PARTS)
                            .ingestAll(scanned),
                    "the ingest ends on its own: a FIFO is never opened");
        } catch (AssertionError blocked) {
            release(fifo);
            throw blocked;
        }

        FileReport f = report(results, "fifo", "rank1_trace.json");
        assertEquals("error", f.status, f::toString);
        assertTrue(f.error.contains("not a regular file"), f.error);
        assertEquals(0, f.eventsRead);

        FileReport l = report(results, "link", "rank1_trace.json");
        assertEquals("error", l.status, l::toString);
        assertTrue(l.error.contains("a link to outside the archive"), l.error);
        assertTrue(
                l.error.contains("after the archive was scanned") && l.error.contains("a rank may be missing"),
                l.error);
        assertEquals(0, l.eventsRead, "nothing of the outside file is read");
        assertTrue(!l.error.contains(SECRET) && !l.error.contains("elsewhere"), l.error);

        // the other rank of each workload is read as usual
        assertTrue(report(results, "fifo", "rank0_trace.json").eventsRead > 0);
        assertTrue(report(results, "link", "rank0_trace.json").eventsRead > 0);
    }

    /** Opens the FIFO for writing and closes it, so that a reader blocked on it (before the fix) gets its end. */
    private static void release(Path fifo) {
        Thread t = new Thread(() -> {
            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                out.flush();
            } catch (IOException e) {
                // nobody was waiting
            }
        });
        t.setDaemon(true);
        t.start();
    }
}
