package org.tracelake.jobs.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29 items 1, 2, 7, 8: what a shared disk holds besides files. Links are followed only inside the archive,
 * each folder is entered once, and links out, dangling links, link loops and FIFOs are refused with a reason, never
 * opened. Every scan here must end on its own (two links to '.' made the old scan walk ~2^40 paths).
 */
class ArchiveLinksTest {
    @TempDir
    Path tmp;

    private Path archive() throws IOException {
        return Files.createDirectories(tmp.resolve("archive"));
    }

    private static void write(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    static void mkfifo(Path p) throws IOException, InterruptedException {
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor(), "mkfifo " + p);
    }

    private static List<WorkloadFolder> scan(Path archive) {
        return assertTimeoutPreemptively(
                Duration.ofSeconds(20), () -> ArchiveScanner.scan(archive.toString(), new Configuration()));
    }

    /** file name (relative to the workload) → reason, for every refused entry. */
    private static Map<String, String> refused(Path workloadDir, WorkloadFolder w) {
        Map<String, String> out = new TreeMap<>();
        for (WorkloadFolder.Refused r : w.refused()) out.put(relative(workloadDir, r.path()), r.reason());
        return out;
    }

    private static String relative(Path workloadDir, String hadoopPath) {
        String r = workloadDir
                .toUri()
                .relativize(Path.of(java.net.URI.create(new org.apache.hadoop.fs.Path(hadoopPath)
                                .toUri()
                                .toString()))
                        .toUri())
                .toString();
        return r.endsWith("/") ? r.substring(0, r.length() - 1) : r; // a link to a folder: its URI ends in '/'
    }

    private static List<String> files(Path workloadDir, WorkloadFolder w) {
        return w.files().stream().map(f -> relative(workloadDir, f.path())).toList();
    }

    @Test
    void twoLinksToTheFolderItselfAreReadOnceAndReportedAsLoops() throws IOException {
        Path archive = archive();
        Path w = archive.resolve("w");
        write(w.resolve("w.yaml"), "a: 1");
        write(w.resolve("rank0_trace.json"), "{}");
        Files.createSymbolicLink(w.resolve("a"), Path.of("."));
        Files.createSymbolicLink(w.resolve("b"), Path.of("."));
        Files.createSymbolicLink(w.resolve("up"), Path.of(".."));

        WorkloadFolder scanned = scan(archive).get(0);

        assertEquals(List.of("rank0_trace.json"), files(w, scanned), "each file once, from its own folder");
        Map<String, String> refused = refused(w, scanned);
        assertEquals(List.of("a", "b", "up"), List.copyOf(refused.keySet()));
        for (String reason : refused.values()) assertTrue(reason.contains("a link to a folder already read"), reason);
    }

    @Test
    void aLinkIntoAnotherFolderOfTheArchiveIsFollowedAndTheRealFolderWins() throws IOException {
        Path archive = archive();
        Path w = archive.resolve("w");
        write(w.resolve("w.yaml"), "a: 1");
        write(w.resolve("zz/rank0_trace.json"), "{}");
        Files.createSymbolicLink(w.resolve("aa"), Path.of("zz")); // sorts first; the real folder must still be read
        write(archive.resolve("shared/rank1_trace.json"), "{}");
        Files.createSymbolicLink(w.resolve("more"), archive.resolve("shared"));

        WorkloadFolder scanned = scan(archive).stream()
                .filter(x -> x.name().equals("w"))
                .findFirst()
                .orElseThrow();

        assertEquals(List.of("more/rank1_trace.json", "zz/rank0_trace.json"), files(w, scanned));
        assertEquals(List.of("aa"), List.copyOf(refused(w, scanned).keySet()));
    }

    @Test
    void linksOutOfTheArchiveDanglingLinksLoopsAndFifosAreRefusedNeverOpened() throws Exception {
        Path archive = archive();
        Path outside = tmp.resolve("outside");
        write(outside.resolve("secret.json"), "{\"traceEvents\": [], \"secret\": \"S3CR3T\"}");
        Path w = archive.resolve("w");
        write(w.resolve("rank1_trace.json"), "{}");
        Files.createSymbolicLink(w.resolve("rank0_trace.json"), outside.resolve("secret.json"));
        Files.createSymbolicLink(w.resolve("root"), Path.of("/"));
        Files.createSymbolicLink(w.resolve("rank2_trace.json"), w.resolve("gone.json"));
        Files.createSymbolicLink(w.resolve("loop1"), w.resolve("loop2"));
        Files.createSymbolicLink(w.resolve("loop2"), w.resolve("loop1"));
        mkfifo(w.resolve("w.yaml"));
        mkfifo(w.resolve("train_config.toml"));
        mkfifo(w.resolve("telemetry.jsonl"));

        WorkloadFolder scanned = scan(archive).get(0);

        assertEquals(List.of("rank1_trace.json"), files(w, scanned));
        assertEquals(List.of(), scanned.cards(), "a FIFO is no card");
        Map<String, String> refused = refused(w, scanned);
        assertTrue(refused.get("rank0_trace.json").contains("a link to outside the archive"), refused::toString);
        // issue 45 item 9: a trace that links out is a rank missing, which its workload must say
        assertTrue(refused.get("rank0_trace.json").contains("a rank may be missing"), refused::toString);
        assertTrue(refused.get("root").contains("a link to outside the archive"), refused::toString);
        assertTrue(!refused.get("root").contains("a rank may be missing"), "a folder link out is merely skipped");
        assertTrue(
                refused.get("rank2_trace.json").contains("dangling")
                        && refused.get("rank2_trace.json").contains("gone.json"),
                refused::toString);
        assertTrue(refused.get("loop1").contains("a link loop"), refused::toString);
        assertTrue(refused.get("loop2").contains("a link loop"), refused::toString);
        for (String fifo : List.of("w.yaml", "train_config.toml", "telemetry.jsonl")) {
            assertTrue(refused.get(fifo).contains("not a regular file"), refused::toString);
        }
        assertEquals(8, refused.size(), refused::toString);
        for (WorkloadFolder.Refused r : scanned.refused()) {
            assertEquals(
                    !r.reason().contains("outside the archive") || r.reason().contains("a rank may be missing"),
                    r.error(),
                    "a link out is skipped unless a trace is missing for it; the rest are errors");
            assertTrue(!r.reason().contains("S3CR3T") && !r.reason().contains(outside.toString()), r.reason());
        }
    }

    @Test
    void aWorkloadFolderThatLinksOutOfTheArchiveIsAWorkloadWithItsRefusal() throws IOException {
        Path archive = archive();
        write(tmp.resolve("elsewhere/x/x.yaml"), "a: 1");
        Files.createSymbolicLink(archive.resolve("x"), tmp.resolve("elsewhere/x"));
        Files.createSymbolicLink(archive.resolve("nowhere"), tmp.resolve("nothing-here"));

        List<WorkloadFolder> scanned = scan(archive);

        assertEquals(
                List.of("nowhere", "x"),
                scanned.stream().map(WorkloadFolder::name).toList());
        assertTrue(scanned.get(0).refused().get(0).reason().contains("dangling"));
        assertTrue(scanned.get(1).refused().get(0).reason().contains("a link to outside the archive"));
        assertEquals(List.of(), scanned.get(1).cards());
    }

    /** The walk names files exactly as Hadoop's own listing does: an upgraded refresh must not see every file as new. */
    @Test
    void pathsAreWhatHadoopsListingGives() throws IOException {
        Path archive = archive();
        Path w = archive.resolve("w it's 100%");
        List<String> names = List.of(
                "a b%20c.json",
                "it's.json",
                "-dash.json",
                "\u00fcber.json",
                "x:y.json",
                "a..b.json",
                "#hash.json",
                "q?.json",
                "semi;colon.json");
        for (String n : names) write(w.resolve("sub dir").resolve(n), "{}");
        write(w.resolve("w.yaml"), "a: 1");

        WorkloadFolder scanned = scan(archive).get(0);

        org.apache.hadoop.fs.Path dir =
                new org.apache.hadoop.fs.Path(w.resolve("sub dir").toUri());
        org.apache.hadoop.fs.FileSystem fs = dir.getFileSystem(new Configuration());
        List<String> hadoop = new java.util.ArrayList<>();
        for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(dir))
            hadoop.add(f.getPath().toString());
        hadoop.sort(null);
        assertEquals(
                hadoop,
                scanned.files().stream().map(WorkloadFolder.InputFile::path).toList());
        org.apache.hadoop.fs.FileStatus[] top = fs.listStatus(new org.apache.hadoop.fs.Path(archive.toString()));
        assertEquals(fs.makeQualified(top[0].getPath()).toString(), scanned.path(), "as the Hadoop scan named it");
    }
}
