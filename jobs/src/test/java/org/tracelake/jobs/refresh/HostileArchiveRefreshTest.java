package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 29's done-when, end to end through the real command: an archive holding what a shared file system really
 * holds (links to '.', to '/', out of the archive, to nothing, in a loop; FIFOs as a card, a config and a telemetry
 * file; a workload name too long for a folder; a workload whose only trace is an error; ranks no job can have; a
 * newline in a workload name) beside a good workload. The refresh ends on its own with exit 3, commits the good
 * workload, and gives each bad thing an actionable row; nothing of the file outside the archive reaches any table or
 * log.
 */
class HostileArchiveRefreshTest {
    static final String SECRET = "S3CR3T-outside-content";
    static final String CARD = "workload:\n  model:\n    phase: training\n";
    static final String LONG_NAME = "w".repeat(250);
    static final String FORGED = "evil\n[1|1] forged - read, 2 files, 0.0 MB, 1 events, 0.0 s";

    @TempDir
    static Path tmp;

    static TestArchive archive;
    static int exit;
    static String log;
    static SparkSession spark;
    static Dataset<Row> files;

    @BeforeAll
    static void refresh() throws Exception {
        archive = new TestArchive(tmp).generated("good", 2, 2, -1, 0);
        String rank0 = Files.readString(archive.generatedTrace("good", 0, 2));
        String rank1 = Files.readString(archive.generatedTrace("good", 1, 2));
        Path outside = Files.createDirectories(tmp.resolve("elsewhere-9f3"));
        Files.writeString(outside.resolve("secret.json"), rank0.replace("ProfilerStep#1", SECRET));

        // 1: two links to '.', one to '/' (the old scan walked ~2^40 paths, or the machine)
        archive.write("loops", "loops.yaml", CARD).write("loops", "rank0_trace.json", rank0);
        Files.createSymbolicLink(archive.workload("loops").resolve("a"), Path.of("."));
        Files.createSymbolicLink(archive.workload("loops").resolve("b"), Path.of("."));
        Files.createSymbolicLink(archive.workload("loops").resolve("root"), Path.of("/"));
        // 2: FIFOs as the card, as a torchtitan config and as a telemetry file (the driver blocked in open())
        archive.write("fifo-card", "rank0_trace.json", rank0);
        mkfifo(archive.workload("fifo-card").resolve("fifo-card.yaml"));
        archive.write("fifos", "fifos.yaml", CARD).write("fifos", "rank0_trace.json", rank0);
        mkfifo(archive.workload("fifos").resolve("train_config.toml"));
        mkfifo(archive.workload("fifos").resolve("rank0_metrics.jsonl"));
        // 3: a name too long for a table folder (Mkdirs failed, every night)
        archive.write(LONG_NAME, LONG_NAME + ".yaml", CARD).write(LONG_NAME, "rank0_trace.json", rank0);
        // 7: a link to a file outside the archive
        archive.write("outside", "outside.yaml", CARD).write("outside", "rank1_trace.json", rank1);
        Files.createSymbolicLink(
                archive.workload("outside").resolve("rank0_trace.json"), outside.resolve("secret.json"));
        // 8: a dangling link and a link loop
        archive.write("dangling", "dangling.yaml", CARD).write("dangling", "rank0_trace.json", rank0);
        Files.createSymbolicLink(
                archive.workload("dangling").resolve("rank1_trace.json"), Path.of("rank1_trace.json.moved"));
        Files.createSymbolicLink(archive.workload("dangling").resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(archive.workload("dangling").resolve("loop2"), Path.of("loop1"));
        // 9: a workload whose only trace file is an error: one telemetry line over the 16 MB a line may have
        byte[] line = new byte[(16 << 20) + 10];
        java.util.Arrays.fill(line, (byte) 'x');
        byte[] start = "{\"step\": 1, \"profile\": \"".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(start, 0, line, 0, start.length);
        archive.write("telemetry-only", "telemetry-only.yaml", CARD)
                .write("telemetry-only", "rank0_metrics.jsonl", line);
        // 10: ranks no job can have, and a newline in a workload name
        archive.write("bigrank-name", "bigrank-name.yaml", CARD)
                .write("bigrank-name", "rank99999999999_trace.json", rank0.replace("\"rank\":0,", "\"host_rank\":0,"));
        archive.write("bigrank", "bigrank.yaml", CARD)
                .write("bigrank", "rank1_trace.json", rank1.replace("\"rank\":1,", "\"rank\":2147483648,"));
        assertTrue(rank1.contains("\"rank\":1,"), "the generated trace names its rank in distributedInfo");
        archive.write(FORGED, "card.yaml", CARD).write(FORGED, "rank0_trace.json", rank0);

        Path stdout = tmp.resolve("stdout.txt");
        Process p = MainProcess.startTo(
                stdout,
                "refresh",
                "--archive",
                archive.archive.toString(),
                "--warehouse",
                archive.warehouse.toString(),
                "--master",
                "local[2]",
                "--conf",
                "spark.ui.enabled=false");
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), "the refresh ends on its own");
        exit = p.exitValue();
        log = Files.readString(stdout) + "\n" + stderr;
        spark = SharedSpark.get();
        files = spark.read().format("iceberg").load(archive.table("trace_files"));
    }

    private static void mkfifo(Path p) throws IOException, InterruptedException {
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor(),
                "mkfifo " + p);
    }

    /** The error or skip reason of one file of a workload (by its name in the folder). */
    private static Row file(String workload, String name) {
        List<Row> rows = files.where(files.col("workload")
                        .equalTo(workload)
                        .and(files.col("path").endsWith("/" + name)))
                .select("status", "error")
                .collectAsList();
        assertEquals(1, rows.size(), () -> workload + "/" + name + ": one row, got " + rows);
        return rows.get(0);
    }

    private static void assertRow(String workload, String name, String status, String... fragments) {
        Row r = file(workload, name);
        assertEquals(status, r.getString(0), () -> workload + "/" + name + ": " + r);
        for (String f : fragments)
            assertTrue(
                    r.getString(1).contains(f),
                    () -> workload + "/" + name + ": '" + r.getString(1) + "' lacks '" + f + "'");
    }

    private static boolean committed(String workload) {
        Dataset<Row> events = spark.read().format("iceberg").load(archive.table("events"));
        return events.where(events.col("workload").equalTo(workload)).limit(1).count() > 0;
    }

    @Test
    void endsWithExit3AndTheGoodWorkloadCommitted() {
        assertEquals(ExitCodes.PARTIAL, exit, log);
        assertTrue(committed("good"), log);
        assertEquals(
                1, spark.read().format("iceberg").load(archive.table("runs")).count());
    }

    @Test
    void linksAreReportedAndNeverFollowedOutOfTheArchive() {
        assertRow("loops", "a", "error", "a link to a folder already read");
        assertRow("loops", "b", "error", "a link to a folder already read");
        assertRow("loops", "root", "skipped", "a link to outside the archive");
        assertTrue(committed("loops"), "its own trace is read once");
        // a trace that links out leaves a rank missing: an error row, and its workload's summary line says so
        assertRow("outside", "rank0_trace.json", "error", "a link to outside the archive", "a rank may be missing");
        assertTrue(log.lines().anyMatch(l -> l.startsWith("outside ") && l.contains("a rank may be missing")), log);
        assertRow("dangling", "rank1_trace.json", "error", "dangling", "a rank may be missing");
        assertRow("dangling", "loop1", "error", "a link loop");
        assertRow("dangling", "loop2", "error", "a link loop");
        assertTrue(committed("outside") && committed("dangling"), "the rest of each workload is read");
    }

    @Test
    void fifosAreNeverOpened() {
        assertRow("fifo-card", "fifo-card.yaml", "error", "not a regular file");
        assertFalse(committed("fifo-card"), "no card, no commit");
        assertRow("fifos", "train_config.toml", "error", "not a regular file");
        assertRow("fifos", "rank0_metrics.jsonl", "error", "not a regular file");
    }

    @Test
    void aNameTooLongForAFolderFailsAloneAndIsReported() {
        assertTrue(log.contains("too long for a table folder"), log);
        Row run = spark.read()
                .format("iceberg")
                .load(archive.table("runs"))
                .select("errors")
                .first();
        assertTrue(run.getList(0).toString().contains("too long for a table folder"), run.toString());
        assertFalse(committed(LONG_NAME));

        // and a trace_files row of its own: the folder's path, status error, the reason; its workload value a stand-in
        // that fits a folder (workload=<name> of 250 'w' is 259 bytes): the first 229 'w', '~', 16 hex digits
        List<Row> rows = files.where(files.col("path").endsWith("/" + LONG_NAME))
                .select("workload", "status", "error", "events_read")
                .collectAsList();
        assertEquals(1, rows.size(), rows::toString);
        Row row = rows.get(0);
        assertEquals("error", row.getString(1));
        assertTrue(
                row.getString(2).contains("too long for a table folder")
                        && row.getString(2).contains("259 bytes"),
                row.getString(2));
        assertEquals(0L, row.getLong(3));
        String standIn = row.getString(0);
        assertTrue(standIn.matches("w{229}~[0-9a-f]{16}"), standIn);
        assertEquals(255, ("workload=" + standIn).length(), "as long as a folder name may be");
        assertEquals(standIn, org.tracelake.jobs.ingest.PartitionNames.ledgerName(LONG_NAME));
    }

    @Test
    void theNextRunRetriesTheLongNameAndRemovesNothing() throws IOException {
        // the stand-in partition is the long-named folder's ledger, not a workload whose folder is gone
        org.tracelake.jobs.warehouse.Warehouse wh = new org.tracelake.jobs.warehouse.Warehouse(
                archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        ChangePlan plan = ChangePlan.of(
                new WarehouseTables(spark, wh),
                org.tracelake.jobs.archive.ArchiveScanner.scan(
                        archive.archive.toString(), spark.sparkContext().hadoopConfiguration()),
                false,
                false,
                true);
        assertEquals(List.of(), plan.vanished);
        assertTrue(plan.redo.stream().anyMatch(r -> r.folder().name().equals(LONG_NAME)), "still reported every night");
    }

    @Test
    void aWorkloadWhoseOnlyTraceIsAnErrorIsNotCommitted() {
        assertRow("telemetry-only", "rank0_metrics.jsonl", "error", "line longer than");
        assertFalse(committed("telemetry-only"));
        assertTrue(log.lines().anyMatch(l -> l.startsWith("telemetry-only") && l.contains("FAILED")), log);
    }

    @Test
    void ranksNoJobCanHaveAreFlagged() {
        assertRow("bigrank-name", "rank99999999999_trace.json", "error", "rank 99999999999", "file order");
        assertTrue(committed("bigrank-name") && committed("bigrank"), "their events are kept");
        assertRow("bigrank", "rank1_trace.json", "error", "distributedInfo.rank is 2147483648");
    }

    @Test
    void aNewlineInANameCannotForgeALogLine() {
        assertTrue(log.contains("evil\\n[1|1] forged"), log);
        for (String l : log.split("\n")) assertFalse(l.startsWith("[1|1] forged"), l);
        assertTrue(committed(FORGED));
    }

    @Test
    void nothingOfTheFileOutsideTheArchiveIsAnywhere() throws IOException {
        assertFalse(log.contains(SECRET) || log.contains("elsewhere-9f3"), log);
        try (Stream<Path> tables = Files.list(archive.warehouse)) {
            for (Path t : tables.filter(Files::isDirectory).toList()) {
                if (t.getFileName().toString().startsWith("_")) continue;
                if (t.getFileName().toString().equals("exports")) {
                    try (Stream<Path> f = Files.walk(t)) {
                        for (Path e : f.filter(Files::isRegularFile).toList()) {
                            assertFalse(
                                    Files.readString(e, StandardCharsets.ISO_8859_1)
                                            .contains(SECRET),
                                    e.toString());
                        }
                    }
                    continue;
                }
                long hits = spark.read()
                        .format("iceberg")
                        .load(t.toString())
                        .toJSON()
                        .filter((org.apache.spark.api.java.function.FilterFunction<String>)
                                s -> s.contains(SECRET) || s.contains("elsewhere-9f3"))
                        .count();
                assertEquals(0, hits, t + File.separator + " holds something of the file outside the archive");
            }
        }
    }
}
