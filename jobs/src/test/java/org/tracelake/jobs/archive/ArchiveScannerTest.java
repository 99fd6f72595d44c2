package org.tracelake.jobs.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveScannerTest {
    @TempDir
    Path archive;

    private Path write(String relative, String text) throws IOException {
        Path p = archive.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private static List<String> names(Path workload, List<WorkloadFolder.InputFile> files) {
        return files.stream()
                .map(f -> workload.toUri()
                        .relativize(Path.of(java.net.URI.create(f.path())).toUri())
                        .toString())
                .toList();
    }

    @Test
    void cardsAreTopLevelYamlEverythingElseIsInputAndHiddenEntriesAreSkippedWhole() throws IOException {
        write("w1/card.yaml", "a: 1");
        write("w1/profile_traces/iteration_2/rank1_trace.json", "{}");
        write("w1/profile_traces/iteration_2/rank0_trace.json", "{}");
        write("w1/configs/train.yml", "b: 2"); // yaml below the top: an input, not a card
        write("w1/.DS_Store", "x");
        write("w1/profile_traces/_SUCCESS", "");
        write("w1/.ipynb_checkpoints/rank0_trace-checkpoint.json", "{}");
        Files.createDirectories(archive.resolve("w1/empty"));
        write(".trash/old/card.yaml", "a: 1");
        write("_tmp/card.yaml", "a: 1");
        write("w0/w0.yml", "a: 1");

        List<WorkloadFolder> scanned = ArchiveScanner.scan(archive.toString(), new Configuration());

        assertEquals(
                List.of("w0", "w1"),
                scanned.stream().map(WorkloadFolder::name).toList(),
                "hidden folders are not workloads");
        WorkloadFolder w1 = scanned.get(1);
        Path dir = archive.resolve("w1");
        assertEquals(List.of("card.yaml"), names(dir, w1.cards()));
        assertEquals(
                List.of(
                        "configs/train.yml",
                        "profile_traces/iteration_2/rank0_trace.json",
                        "profile_traces/iteration_2/rank1_trace.json"),
                names(dir, w1.files()),
                "sorted by path");
        WorkloadFolder.InputFile trace = w1.files().get(1);
        assertEquals(2, trace.sizeBytes());
        assertEquals(
                Files.getLastModifiedTime(dir.resolve("profile_traces/iteration_2/rank0_trace.json"))
                        .toMillis(),
                trace.modifiedAtMs());
        assertEquals(
                List.of("w0.yml"), names(archive.resolve("w0"), scanned.get(0).cards()));
        assertEquals(List.of(), scanned.get(0).files());
    }
}
