package org.tracelake.jobs.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 4: one folder tree deeper than the system's path limit (4,096 bytes) failed the whole scan ("File
 * name too long": exit 1, nothing committed), and so did any I/O error in the walk (permission denied, a folder
 * deleted mid-scan). Such a folder is now an error entry of its workload (a {@code trace_files} row), and every other
 * file and workload is listed.
 */
class UnreadableFoldersTest {
    @TempDir
    Path tmp;

    private static List<WorkloadFolder> scan(Path archive) {
        return assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> ArchiveScanner.scan(archive.toString(), new Configuration()));
    }

    private static Path workload(Path archive, String name) throws IOException {
        Path w = Files.createDirectories(archive.resolve(name));
        Files.writeString(w.resolve(name + ".yaml"), "a: 1");
        Files.writeString(w.resolve("rank0_trace.json"), "{}");
        return w;
    }

    @Test
    void aFolderTreeDeeperThanThePathLimitIsAnErrorEntryNotAFailedScan() throws Exception {
        Path archive = Files.createDirectories(tmp.resolve("archive"));
        Path deep = workload(archive, "deep");
        workload(archive, "plain");
        // 25 folders of 200 bytes: 5,025 bytes below the workload, made from inside it as a user's tool makes them
        String chain = ("d".repeat(200) + "/").repeat(25);
        Process mk = new ProcessBuilder("mkdir", "-p", chain)
                .directory(deep.toFile())
                .inheritIO()
                .start();
        assertEquals(0, mk.waitFor(), "mkdir -p of a 5 KB chain");

        List<WorkloadFolder> scanned;
        try {
            scanned = scan(archive);
        } finally { // JUnit cannot delete a path that long; rm works from inside, as mkdir did
            Process rm = new ProcessBuilder("rm", "-rf", "d".repeat(200))
                    .directory(deep.toFile())
                    .inheritIO()
                    .start();
            assertEquals(0, rm.waitFor(), "rm -rf of the chain");
        }

        assertEquals(
                List.of("deep", "plain"),
                scanned.stream().map(WorkloadFolder::name).toList());
        WorkloadFolder d = scanned.get(0);
        assertEquals(1, d.files().size(), d::toString);
        assertTrue(d.files().get(0).path().endsWith("/deep/rank0_trace.json"), d::toString);
        assertEquals(1, d.cards().size());
        assertEquals(1, d.refused().size(), d::toString);
        WorkloadFolder.Refused r = d.refused().get(0);
        assertTrue(r.error(), r::toString);
        assertTrue(r.reason().contains("longer than the file system allows"), r::toString);
        assertTrue(r.path().contains("/deep/" + "d".repeat(200) + "/"), r::toString);
        assertEquals(1, scanned.get(1).files().size(), "the other workload is listed whole");
    }

    @Test
    void aFolderWithoutReadPermissionIsAnErrorEntryNotAFailedScan() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads every folder: nothing to refuse");
        Path archive = Files.createDirectories(tmp.resolve("archive"));
        Path w = workload(archive, "w");
        Path locked = Files.createDirectories(w.resolve("ranks"));
        Files.writeString(locked.resolve("rank1_trace.json"), "{}");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        try {
            WorkloadFolder scanned = scan(archive).get(0);
            assertEquals(1, scanned.files().size(), scanned::toString);
            assertEquals(1, scanned.refused().size(), scanned::toString);
            assertTrue(scanned.refused().get(0).reason().contains("permission denied"), scanned::toString);
            assertTrue(scanned.refused().get(0).reason().contains("a rank may be missing"), scanned::toString);
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
