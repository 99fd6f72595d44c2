package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Every kind of bad input of issue 4, each in its own workload next to a good one, in one refresh: each becomes a
 * trace_files row with status error and a message that says what to do, and every other workload is refreshed.
 * Unusable files fail their workload; files with a few bad events keep their good events.
 */
class BadInputRefreshTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Refresh.Result result;
    static Map<String, String> good;

    static final String CARD = "workload:\n  model:\n    phase: training\n";

    @BeforeAll
    static void refresh() throws IOException {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp).generated("good", 2, 2, -1, 0);
        String rank0 = Files.readString(archive.generatedTrace("good", 0, 2));
        String rank1 = Files.readString(archive.generatedTrace("good", 1, 2));

        fatal("truncated", rank0.substring(0, rank0.length() / 2).getBytes(StandardCharsets.UTF_8));
        byte[] gz = gzip(rank0.getBytes(StandardCharsets.UTF_8));
        for (int i = 30; i < gz.length - 8; i += 7) gz[i] ^= 0x5a; // keep the gzip header, break the deflate stream
        fatal("corrupt-gzip", gz, "rank0_trace.json.gz");
        fatal("empty", new byte[0]);
        byte[] latin1 = rank0.replace("\"ProfilerStep#1\"", "\"ProfilerStep#1 Gr\u00fc\u00dfe\"")
                .getBytes(StandardCharsets.ISO_8859_1);
        fatal("non-utf8", latin1);
        fatal("not-a-trace", "hello, this is not a trace\n".getBytes(StandardCharsets.UTF_8));
        archive.write("not-a-trace", "notes.txt", "a note beside the traces");
        StringBuilder bomb = new StringBuilder("{\"traceEvents\": [], \"pad\": \"");
        bomb.append(" ".repeat(8 << 20)).append("\"}");
        fatal("gzip-bomb", gzip(bomb.toString().getBytes(StandardCharsets.UTF_8)), "rank0_trace.json.gz");

        // A few bad events among good ones: the events go, the file is reported, the workload is refreshed.
        withBadEvent(
                "ts-abc",
                rank0,
                "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"bad\",\"pid\":1,\"tid\":1,\"ts\":\"abc\",\"dur\":1}");
        withBadEvent(
                "no-ts-dur",
                rank0,
                "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"no ts\",\"pid\":1,\"tid\":1,\"dur\":1},"
                        + "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"no dur\",\"pid\":1,\"tid\":1,\"ts\":5}");
        withBadEvent(
                "negative-dur",
                rank0,
                "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"neg\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":-3}");
        withBadEvent(
                "nan",
                rank0,
                "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nan\",\"pid\":1,\"tid\":1,\"ts\":NaN,\"dur\":1},"
                        + "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"inf\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":Infinity}");

        archive.write("duplicate-rank", "duplicate-rank.yaml", CARD)
                .write("duplicate-rank", "a/rank0_trace.json", rank0)
                .write("duplicate-rank", "b/rank0_trace.json", rank0.replace("ProfilerStep#1", "ProfilerStep#7"));
        archive.write("no-card", "rank0_trace.json", rank0);
        archive.write("two-cards", "one.yaml", CARD)
                .write("two-cards", "two.yaml", CARD)
                .write("two-cards", "rank0_trace.json", rank0);
        archive.write("bad-yaml", "bad-yaml.yaml", "workload:\n  model:\n    phase: [training\n")
                .write("bad-yaml", "rank0_trace.json", rank0);
        archive.write(
                        "type-tag",
                        "type-tag.yaml",
                        "workload: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://127.0.0.1/x\"]]]]\n")
                .write("type-tag", "rank0_trace.json", rank0);
        StringBuilder laughs =
                new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            laughs.append(c).append(": &").append(c).append(" [");
            for (int i = 0; i < 9; i++)
                laughs.append(i == 0 ? "" : ",").append('*').append((char) (c - 1));
            laughs.append("]\n");
        }
        archive.write("alias-bomb", "alias-bomb.yaml", laughs.toString())
                .write("alias-bomb", "rank0_trace.json", rank0);
        assertTrue(rank1.length() > 0);

        // gzip limit low enough that the 8 MB bomb (≈ 8 KB compressed, ratio ≈ 1000) is refused quickly
        result = archive.refresh(spark, new InputLimits(200, 1 << 20));
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("bad_files");
        good = new HashMap<>();
    }

    private static void fatal(String workload, byte[] content) {
        fatal(workload, content, "rank0_trace.json");
    }

    private static void fatal(String workload, byte[] content, String name) {
        archive.write(workload, workload + ".yaml", CARD).write(workload, name, content);
    }

    private static void withBadEvent(String workload, String trace, String badEvents) {
        String edited = trace.replaceFirst(
                "\"traceEvents\":\\[",
                "\"traceEvents\":[" + badEvents.replace("\\", "\\\\").replace("$", "\\$") + ",");
        archive.write(workload, workload + ".yaml", CARD).write(workload, "rank0_trace.json", edited);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            g.write(bytes);
        }
        return out.toByteArray();
    }

    private static WorkloadIngest workload(String name) {
        return result.workloads().stream()
                .filter(w -> w.workload().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The error of the (one) errored file of a workload. */
    private static String error(String workload) {
        List<Row> rows = spark.sql(
                        "SELECT error FROM bad_files WHERE status = 'error' AND workload = '" + workload + "'")
                .collectAsList();
        assertEquals(1, rows.size(), () -> workload + " should have one errored file, has " + rows);
        return rows.get(0).getString(0);
    }

    private static void assertFailedWith(String workload, String... fragments) {
        assertFalse(workload(workload).ok(), workload + " must fail");
        String message = workload.equals("duplicate-rank")
                ? workload(workload).problems().toString()
                : error(workload);
        for (String f : fragments)
            assertTrue(message.contains(f), () -> workload + ": '" + message + "' lacks '" + f + "'");
    }

    private static void assertKeptWithDrops(String workload, String... fragments) {
        WorkloadIngest w = workload(workload);
        assertTrue(w.ok(), () -> workload + " must be refreshed: " + w.problems());
        String message = error(workload);
        for (String f : fragments)
            assertTrue(message.contains(f), () -> workload + ": '" + message + "' lacks '" + f + "'");
        long events = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = '" + workload + "'")
                .count();
        assertTrue(events > 100, workload + " keeps its good events");
    }

    @Test
    void theGoodWorkloadIsRefreshedWithMetrics() {
        assertTrue(workload("good").clean());
        long rows = spark.read()
                .format("iceberg")
                .load(archive.table("metrics"))
                .where("workload = 'good' AND scope = 'workload'")
                .count();
        assertTrue(rows > 50);
    }

    @Test
    void unusableFilesFailTheirWorkloadWithAnActionableMessage() {
        assertFailedWith("truncated", "truncated JSON", "line");
        assertFailedWith("corrupt-gzip", "corrupt gzip", "re-copy");
        assertFailedWith("empty", "empty file");
        assertFailedWith("non-utf8", "not UTF-8");
        assertFailedWith("not-a-trace", "named like a kineto file", "hello");
        assertFailedWith("gzip-bomb", "gzip bomb", "spark.tracelake.gzip.maxExpansionRatio");
        assertFailedWith("duplicate-rank", "two files claim rank 0", "rank0_trace.json");
    }

    @Test
    void aFileThatIsNoTraceIsListedAsSkipped() {
        Row r = spark.sql("SELECT status, error FROM bad_files WHERE path LIKE '%notes.txt'")
                .first();
        assertEquals("skipped", r.getString(0));
        assertTrue(r.getString(1).contains("not a recognised trace format"));
    }

    @Test
    void cardProblemsFailTheirWorkload() {
        assertFailedWith("no-card", "no workload card", "exactly one");
        assertFailedWith("two-cards", "two or more workload cards", "one.yaml", "two.yaml");
        assertFailedWith("bad-yaml", "line");
        assertFailedWith("type-tag", "type tag");
        assertFailedWith("alias-bomb", "alias");
    }

    @Test
    void badEventsAreDroppedAndCountedGoodOnesKept() {
        assertKeptWithDrops("ts-abc", "1 × non-numeric ts");
        assertKeptWithDrops("no-ts-dur", "event without ts", "without dur");
        assertKeptWithDrops("negative-dur", "1 × negative dur");
        assertKeptWithDrops("nan", "non-finite ts (NaN)", "non-finite dur (Infinity)");
        Row r = spark.sql(
                        "SELECT events_dropped, drop_reasons['negative dur'] FROM bad_files WHERE workload = 'negative-dur' AND status = 'error'")
                .first();
        assertEquals(1L, r.getLong(0));
        assertEquals(1L, r.getLong(1));
    }

    @Test
    void failedWorkloadsHaveNoTablesButTheirLedger() {
        long events = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = 'truncated'")
                .count();
        assertEquals(0, events);
        long ledger = spark.sql("SELECT count(*) FROM bad_files WHERE workload = 'truncated'")
                .first()
                .getLong(0);
        assertEquals(2, ledger); // the card and the broken trace
    }
}
