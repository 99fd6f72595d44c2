package org.tracelake.jobs.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.archive.ArchiveScanner;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 30: the data source names workloads as the refresh does — the first folder below the loaded folder, not the
 * folder holding each file. Two torchtitan-shaped workloads built from the real 2-rank HTA sample
 * (../shared/traces/kineto/hta-sampled-2rank), both with their traces under {@code profile_traces/iteration_13/}:
 * read by the old rule they were one workload {@code iteration_13} with every rank twice.
 */
class SourceWorkloadNamesTest {
    private final SparkSession spark = SharedSpark.get();

    /** Workloads a (with its card) and b (without), each rank0/rank1 of the real sample under iteration_13. */
    private static TestArchive twoTorchtitanWorkloads(Path dir) throws IOException {
        TestArchive a = new TestArchive(dir);
        Path src = TestArchive.shared("kineto/hta-sampled-2rank");
        for (String w : List.of("llama-a", "llama-b")) {
            Path iteration = a.workload(w).resolve("profile_traces/iteration_13");
            Files.createDirectories(iteration);
            Files.copy(src.resolve("sampled_rank-0.json.gz"), iteration.resolve("rank0_trace.json.gz"));
            Files.copy(src.resolve("sampled_rank-1.json.gz"), iteration.resolve("rank1_trace.json.gz"));
        }
        a.card("llama-a", "training", "llama3", "NVIDIA A100", 128);
        return a;
    }

    /** workload -> "files:ranks:events" of the events read from {@code path}. */
    private Map<String, String> perWorkload(String path) {
        Map<String, String> out = new TreeMap<>();
        for (Row r : spark.read()
                .format("tracelake")
                .load(path)
                .groupBy("workload")
                .agg(
                        org.apache.spark.sql.functions.countDistinct("source_file"),
                        org.apache.spark.sql.functions.countDistinct("rank"),
                        org.apache.spark.sql.functions.count("*"))
                .collectAsList()) {
            out.put(r.getString(0), r.getLong(1) + ":" + r.getLong(2) + ":" + r.getLong(3));
        }
        return out;
    }

    @Test
    void anArchiveReadsAsTheRefreshListsIt(@TempDir Path dir) throws IOException {
        TestArchive a = twoTorchtitanWorkloads(dir);
        long rank0 = spark.read()
                .format("tracelake")
                .load(TestArchive.shared("kineto/hta-sampled-2rank/sampled_rank-0.json.gz")
                        .toString())
                .count();
        long rank1 = spark.read()
                .format("tracelake")
                .load(TestArchive.shared("kineto/hta-sampled-2rank/sampled_rank-1.json.gz")
                        .toString())
                .count();
        String each = "2:2:" + (rank0 + rank1); // two files, two ranks, the events of the two real files
        Map<String, String> expected = Map.of("llama-a", each, "llama-b", each);

        assertEquals(expected, perWorkload(a.archive.toString()), "the archive: one workload per folder below it");
        // the names the refresh's own listing gives the same folders
        List<String> scanned =
                ArchiveScanner.scan(a.archive.toString(), spark.sparkContext().hadoopConfiguration()).stream()
                        .map(WorkloadFolder::name)
                        .toList();
        assertEquals(List.copyOf(expected.keySet()).stream().sorted().toList(), scanned);

        // a glob is read below its folder before the first wildcard: the same names
        assertEquals(expected, perWorkload(a.archive + "/*/profile_traces/*/rank*_trace.json.gz"));
        // a workload folder loaded on its own (its card at the top says it is one) keeps its name ...
        assertEquals(
                Map.of("llama-a", each),
                perWorkload(a.archive.resolve("llama-a").toString()));
        // ... and a folder of loose traces is named after itself, as before
        assertEquals(
                Map.of("iteration_13", each),
                perWorkload(
                        a.archive.resolve("llama-b/profile_traces/iteration_13").toString()));
    }

    @Test
    void theCardIsListedAsTheCard(@TempDir Path dir) throws IOException {
        TestArchive a = twoTorchtitanWorkloads(dir);
        List<Row> files = spark.read()
                .format("tracelake")
                .option("table", "trace_files")
                .load(a.archive.toString())
                .orderBy("path")
                .collectAsList();
        assertEquals(5, files.size(), "four traces and one card: " + files);
        Row card = files.stream()
                .filter(r -> r.getString(r.fieldIndex("path")).endsWith("llama-a.yaml"))
                .findFirst()
                .orElseThrow();
        assertEquals("llama-a", card.getString(card.fieldIndex("workload")));
        assertEquals("workload_card", card.getString(card.fieldIndex("format")));
        assertEquals("skipped", card.getString(card.fieldIndex("status")));
        String why = card.getString(card.fieldIndex("error"));
        assertTrue(why.startsWith("the workload card of llama-a") && !why.contains("not a recognised"), why);
        for (Row r : files) {
            if (r == card) continue;
            assertEquals("ok", r.getString(r.fieldIndex("status")), r.toString());
            assertTrue(List.of("llama-a", "llama-b").contains(r.getString(r.fieldIndex("workload"))), r.toString());
        }
    }
}
