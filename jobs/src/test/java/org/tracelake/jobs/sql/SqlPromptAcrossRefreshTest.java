package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.udfs.UdfRegistry;

/**
 * Issue 29 item 6: a {@code sql} prompt left open across a refresh keeps answering, with the new rows. The refresh
 * reads workload {@code a} again (a third rank) and adds workload {@code b}: the swap renames {@code a}'s partition
 * folders away, which a view holding its first file list fails on ({@code FAILED_READ_FILE.FILE_NOT_EXIST}).
 * Also {@code \m}: the metric reference at the prompt.
 */
class SqlPromptAcrossRefreshTest {
    @TempDir
    Path tmp;

    @Test
    void aPromptOpenAcrossARefreshAnswersWithTheNewRows() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, 1, 0);
        assertTrue(archive.refresh(spark).allOk());

        SparkSession own = spark.newSession(); // views of its own, as the sql job's session has
        UdfRegistry.registerAll(own);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlRunner runner = new SqlRunner(
                own,
                ResultPrinter.Format.JSON,
                1000,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        runner.register(
                new Warehouse(archive.warehouse.toString(), own.sparkContext().hadoopConfiguration()));

        PipedWriter typed = new PipedWriter();
        BufferedReader stdin = new BufferedReader(new PipedReader(typed));
        CompletableFuture<Boolean> prompt = CompletableFuture.supplyAsync(() -> {
            try {
                return runner.interactive(stdin, false);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String query = "SELECT workload, count(*) AS n FROM events GROUP BY workload ORDER BY workload;\n";

        typed.write(query);
        typed.flush();
        assertTrue(MainProcess.waitFor(() -> lines(out) == 1, Duration.ofSeconds(120)), "first answer: " + out + err);
        assertEquals(eventsPerWorkload(spark, archive), answer(out), "before the refresh");
        assertEquals(Map.of("a", 2L), ranks(spark, archive));

        archive.generated("a", 3, 2, 1, 0).generated("b", 2, 2, 1, 0);
        assertTrue(archive.refresh(spark).allOk(), "the refresh beside the open prompt");
        Map<String, Long> after = eventsPerWorkload(spark, archive);
        assertEquals(Map.of("a", 3L, "b", 2L), ranks(spark, archive), "a read again with a third rank, b new");

        out.reset();
        typed.write(query);
        typed.write("\\m coll_call_num\n");
        typed.write("\\m no_such_metric\n");
        typed.close();
        assertTrue(prompt.get(120, TimeUnit.SECONDS), "every statement of the prompt ran: " + err);
        String printed = out.toString(StandardCharsets.UTF_8);
        String[] printedLines = printed.split("\n");
        assertEquals(after, answer(printedLines[0] + "\n" + printedLines[1]), "after the refresh: " + printed);

        MetricCatalog.Entry entry = MetricCatalog.of("coll_call_num");
        JsonNode m = new ObjectMapper().readTree(printedLines[2]);
        assertEquals("coll_call_num", m.get("metric").asText());
        assertEquals(entry.unit(), m.get("unit").asText());
        // the figure's own meaning (the meaning column of metrics/catalog.csv), not the metric's line
        assertEquals(
                org.tracelake.jobs.metrics.FigureReference.of("coll_call_num", null)
                        .meaning(),
                m.get("description").asText());
        assertEquals(3, printedLines.length, "one row for coll_call_num, none for an unknown metric: " + printed);
        assertTrue(
                err.toString(StandardCharsets.UTF_8).contains("no metric no_such_metric"),
                err.toString(StandardCharsets.UTF_8));
    }

    /** Events per workload as a fresh read of the table's files says (no view involved). */
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

    private static Map<String, Long> ranks(SparkSession spark, TestArchive archive) {
        Map<String, Long> m = new TreeMap<>();
        for (Row r : spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .groupBy("workload")
                .agg(org.apache.spark.sql.functions.countDistinct("rank"))
                .collectAsList()) {
            m.put(r.getString(0), r.getLong(1));
        }
        return m;
    }

    private static long lines(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8).lines().count();
    }

    private static Map<String, Long> answer(ByteArrayOutputStream out) throws IOException {
        return answer(out.toString(StandardCharsets.UTF_8));
    }

    private static Map<String, Long> answer(String jsonLines) throws IOException {
        Map<String, Long> m = new TreeMap<>();
        for (String line : jsonLines.strip().split("\n")) {
            JsonNode row = new ObjectMapper().readTree(line);
            m.put(row.get("workload").asText(), row.get("n").asLong());
        }
        return m;
    }
}
