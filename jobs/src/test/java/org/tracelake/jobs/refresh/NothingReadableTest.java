package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.export.LeaderboardExport;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 14 item 4: a workload with nothing readable is not {@code ok}. The shapes are those of archives from other
 * hands: traces left zipped or tarred, and a Chakra protobuf execution trace (FORMATS.md §0's first bytes), beside
 * the workload card. Such a workload fails ("no usable trace" with each file's reason), the refresh exits 3, a
 * workload that was good last night keeps last night's tables, and the leaderboard leaves the new one out.
 */
class NothingReadableTest {

    @Test
    void aWorkloadOfSkippedFilesFailsAndKeepsItsPreviousTables(@TempDir Path tmp) throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        archive.generated("good", 2, 2, -1, 0).generated("was_good", 2, 2, -1, 0);
        assertTrue(archive.refresh(spark).allOk());
        long wasGoodEvents = events(spark, archive, "was_good");
        assertTrue(wasGoodEvents > 0);

        // tonight: was_good's traces were replaced by a zip of them; a new workload has only a tarball and a .et
        Path traces = archive.archive.resolve("was_good/profile_traces");
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(zip);
                Stream<Path> files = Files.walk(traces)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                z.putNextEntry(new ZipEntry(f.getFileName().toString()));
                z.write(Files.readAllBytes(f));
            }
        }
        try (Stream<Path> files = Files.walk(traces)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
        }
        archive.write("was_good", "profile_traces.zip", zip.toByteArray());
        byte[] tar = new byte[1024];
        System.arraycopy("rank0_trace.json".getBytes(StandardCharsets.US_ASCII), 0, tar, 0, 16);
        System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
        archive.card("unreadable", "training", "llama3-8b", "NVIDIA H100", 8)
                .write("unreadable", "traces.tar", tar)
                .write("unreadable", "rank0.et", new byte[] {0x5e, 0x12, 0x10, 0x0a, 0x06, 's', 'c', 'h', 'e', 'm', 'a'
                });

        Refresh.Result night = archive.refresh(spark);
        assertFalse(night.allOk(), "the refresh is partial: exit " + ExitCodes.PARTIAL);
        WorkloadIngest unreadable = night.workloads().stream()
                .filter(w -> w.workload().equals("unreadable"))
                .findFirst()
                .orElseThrow();
        assertFalse(unreadable.ok());
        assertEquals(
                List.of("no usable trace; rank0.et: a Chakra protobuf execution trace (not supported; export the JSON "
                        + "execution trace instead); traces.tar: a tar archive: unpack it into the workload folder"),
                unreadable.problems().stream()
                        .map(NothingReadableTest::sortedParts)
                        .toList());
        WorkloadIngest wasGood = night.workloads().stream()
                .filter(w -> w.workload().equals("was_good"))
                .findFirst()
                .orElseThrow();
        assertFalse(wasGood.ok());
        assertTrue(
                wasGood.problems().get(0).startsWith("no usable trace; profile_traces.zip: a zip archive"),
                wasGood.problems().toString());
        // last night's tables stay: the events, and the metrics that come from them
        assertEquals(wasGoodEvents, events(spark, archive, "was_good"));
        assertTrue(spark.read()
                        .format("iceberg")
                        .load(archive.table("metrics"))
                        .where("workload = 'was_good'")
                        .count()
                > 100);
        assertEquals(
                0L,
                spark.read()
                        .format("iceberg")
                        .load(archive.table("metrics"))
                        .where("workload = 'unreadable'")
                        .count());

        Path board = tmp.resolve("leaderboard.json");
        new LeaderboardExport(new WarehouseTables(
                        spark,
                        new Warehouse(
                                archive.warehouse.toString(),
                                spark.sparkContext().hadoopConfiguration())))
                .write(board.toString(), Set.of());
        Set<String> listed = new TreeSet<>();
        new ObjectMapper()
                .readTree(board.toFile())
                .get("rows")
                .forEach(r -> listed.add(r.get("trace").asText()));
        assertEquals(Set.of("good", "was_good"), listed, "the unreadable workload is not on the leaderboard");
    }

    private static long events(SparkSession spark, TestArchive archive, String workload) {
        return spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = '" + workload + "'")
                .count();
    }

    /** The problem line with its per-file parts in name order (the file order of the listing is not the point). */
    private static String sortedParts(String problem) {
        String[] parts = problem.split("; (?=[^ ]+: )");
        List<String> files = new java.util.ArrayList<>(List.of(parts).subList(1, parts.length));
        files.sort(null);
        return parts[0] + "; " + String.join("; ", files);
    }
}
