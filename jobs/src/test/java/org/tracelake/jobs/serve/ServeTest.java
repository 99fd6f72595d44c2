package org.tracelake.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.sql.PromptScript;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 30's done-when for serve: {@code tracelake serve} as a real process on a refreshed warehouse, queried with the
 * Spark Connect JVM client (in its own class loader, as {@code sql --remote} runs it): a table, a udf, the metric
 * reference, the {@code \m} prompt command; a refresh beside it, then the new rows; SIGTERM stops it and no process
 * is left. And a warehouse that does not exist is refused with exit code 2 and one line, before Spark starts.
 */
class ServeTest {

    @TempDir
    Path tmp;

    private Process serve;

    @AfterEach
    void stop() throws InterruptedException {
        if (serve != null && serve.isAlive()) {
            serve.destroyForcibly();
            serve.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void clientsSeeTablesUdfsTheMetricReferenceAndEveryRefresh() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, 1, 0);
        assertTrue(archive.refresh(spark).allOk());

        Path stdout = tmp.resolve("serve.out");
        Path stderr = tmp.resolve("serve.err");
        serve = MainProcess.startTo(
                stdout,
                stderr,
                "serve",
                "--warehouse",
                archive.warehouse.toString(),
                "--port",
                "0",
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.sql.shuffle.partitions=2",
                "--conf",
                "spark.tracelake.serve.warmupQueries=4");
        assertTrue(
                MainProcess.waitFor(
                        () -> MainProcess.serveAddress(stdout) != null || !serve.isAlive(), Duration.ofSeconds(300)),
                "serve never said where it listens");
        assertTrue(serve.isAlive(), "serve ended: " + Files.readString(stderr));
        // the warm-up asks serve its four kinds of query, as a client, with serve's token: each must answer
        assertTrue(
                MainProcess.waitFor(
                        () -> says(stdout, "tracelake serve: warmed up (4 queries in ") || !serve.isAlive(),
                        Duration.ofSeconds(300)),
                "the warm-up did not finish: " + Files.readString(stdout));
        String url = MainProcess.clientUrl(MainProcess.serveAddress(stdout), MainProcess.serveToken(archive.warehouse));

        String perWorkload = "SELECT workload, count(*) AS n FROM events GROUP BY workload ORDER BY workload";
        List<JsonNode> first = remote(
                url,
                perWorkload,
                "SELECT busbw_factor('all_reduce', 4) AS f, collective_kind(NULL, 'ncclDevKernel_AllGather_RING_LL', NULL) AS k",
                "SELECT unit, category FROM metric_reference WHERE metric = 'coll_call_num'");
        assertEquals(eventsPerWorkload(spark, archive), counts(first.subList(0, 1)), "the events table through serve");
        assertEquals(1.5, first.get(1).get("f").asDouble(), "busbw_factor(all_reduce, 4) = 2(n-1)/n = 2*3/4");
        assertEquals("all_gather", first.get(1).get("k").asText());
        assertEquals(
                MetricCatalog.of("coll_call_num").unit(),
                first.get(2).get("unit").asText());
        assertEquals(
                MetricCatalog.of("coll_call_num").category(),
                first.get(2).get("category").asText());

        // a refresh beside the server: a read again with a third rank (its partitions are swapped), b new
        archive.generated("a", 3, 2, 1, 0).generated("b", 2, 2, 1, 0);
        assertTrue(archive.refresh(spark).allOk());
        Map<String, Long> after = eventsPerWorkload(spark, archive);
        assertEquals(List.of("a", "b"), new ArrayList<>(after.keySet()));
        assertEquals(after, counts(remote(url, perWorkload)), "the new rows through serve, from a new client");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ClientLoader.runSql(
                url,
                null,
                "JSON",
                1000,
                new BufferedReader(new StringReader("\\m coll_call_num\n")),
                false,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode m =
                new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8).strip());
        assertEquals(
                org.tracelake.jobs.metrics.FigureReference.of("coll_call_num", null)
                        .meaning(),
                m.get("description").asText(),
                "\\m through serve");

        // issue 42 item 2: every prompt command and a query in every output format, through serve
        for (String format : List.of("TABLE", "JSON", "CSV")) {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            ByteArrayOutputStream e = new ByteArrayOutputStream();
            int rc = ClientLoader.runSql(
                    url,
                    null,
                    format,
                    1000,
                    new BufferedReader(new StringReader(PromptScript.INPUT)),
                    false,
                    new PrintStream(o, true, StandardCharsets.UTF_8),
                    new PrintStream(e, true, StandardCharsets.UTF_8));
            PromptScript.check(format, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8), rc == 0);
        }

        long pid = serve.pid();
        serve.destroy(); // SIGTERM
        assertTrue(serve.waitFor(120, TimeUnit.SECONDS), "serve did not stop on SIGTERM");
        String log = Files.readString(stderr);
        assertEquals(143, serve.exitValue(), "ended by SIGTERM (128 + 15), through its shutdown hook: " + log);
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "no process left");
        assertFalse(Files.exists(archive.warehouse.resolve("_serve/token")), "its token removed");
        assertTrue(Files.readString(stdout).contains("tracelake serve: stopping"), Files.readString(stdout));
        assertFalse(log.contains("Exception") || log.contains("Error"), "a clean stop, and no release noise: " + log);
    }

    @Test
    void aWarehouseThatDoesNotExistIsRefused() throws Exception {
        Path missing = tmp.resolve("no-warehouse");
        Path stderr = tmp.resolve("serve.err");
        serve = MainProcess.startTo(
                tmp.resolve("serve.out"), stderr, "serve", "--warehouse", missing.toString(), "--port", "0");
        assertTrue(serve.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, serve.exitValue());
        List<String> lines = Files.readString(stderr).lines().toList();
        assertEquals(1, lines.size(), "one line: " + lines);
        assertTrue(lines.get(0).startsWith("no warehouse at " + missing), lines.get(0));
        assertFalse(Files.exists(missing), "nothing created");
    }

    /** Runs statements through serve with the Connect JVM client; returns every JSON line printed. */
    private static List<JsonNode> remote(String url, String... statements) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ClientLoader.runSql(
                url,
                List.of(statements),
                "JSON",
                1000,
                null,
                false,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        List<JsonNode> rows = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).strip().split("\n"))
            rows.add(new ObjectMapper().readTree(line));
        return rows;
    }

    private static Map<String, Long> counts(List<JsonNode> rows) {
        Map<String, Long> m = new TreeMap<>();
        for (JsonNode r : rows) m.put(r.get("workload").asText(), r.get("n").asLong());
        return m;
    }

    /** Events per workload as a fresh read of the table's files in this JVM says. */
    private static Map<String, Long> eventsPerWorkload(SparkSession spark, TestArchive archive) {
        Map<String, Long> m = new TreeMap<>();
        for (Row r : spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .groupBy("workload")
                .count()
                .collectAsList()) {
            m.put(r.getString(0), r.getLong(1));
        }
        return m;
    }

    private static boolean says(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (java.io.IOException e) {
            return false; // not written yet
        }
    }
}
