package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.export.LeaderboardExport;
import org.tracelake.jobs.report.ReportFileWriter;
import org.tracelake.jobs.report.Reports;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.sql.SqlRunner;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.udfs.UdfRegistry;

/**
 * Names are data (DESIGN.md "Inputs are untrusted"): workloads whose folder, subfolder and file names hold quotes, a
 * SQL injection attempt, runs of spaces, {@code %} and an escaped slash, unicode, a leading dash and {@code ..} are
 * ingested, queried, reported and exported exactly like a plainly named twin (same generator, same seed), and nothing
 * is written outside the warehouse and the chosen output folder.
 */
class HostileNamesTest {
    static final String PLAIN = "plain";
    static final List<String> HOSTILE = List.of(
            "it's \"quoted\" ' OR '1'='1",
            "with  two spaces",
            "100% done %2F %",
            "ünïcødé 模型 🚀",
            "-leading-dash",
            "a..b");
    /** What each workload's trace subfolder and files are renamed to ({@code rank<r>_} keeps the rank readable). */
    static final String DIR = "-dir \"q\" 100% ..";

    static final String FILE_TAIL = "_trace it's \"q\" 100%%2F ü..json";

    @TempDir
    static Path tmp;

    static TestArchive archive;
    static SparkSession spark;
    static Refresh.Result result;

    @BeforeAll
    static void refresh() throws IOException {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        archive.generated(PLAIN, 2, 2, -1, 0);
        for (String name : HOSTILE) {
            archive.generated(name, 2, 2, -1, 0);
            Path traces = archive.archive.resolve(name).resolve("profile_traces");
            Path renamed = Files.move(traces, traces.resolveSibling(DIR));
            try (Stream<Path> files = Files.walk(renamed)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    String rank = f.getFileName().toString().replaceAll("^rank(\\d+)_trace\\.json$", "$1");
                    Files.move(f, f.resolveSibling("rank" + rank + FILE_TAIL));
                }
            }
        }
        result = archive.refresh(spark);
    }

    static Set<String> all() {
        Set<String> out = new TreeSet<>(HOSTILE);
        out.add(PLAIN);
        return out;
    }

    @Test
    void everyWorkloadIsIngestedLikeItsPlainTwin() {
        assertTrue(result.allOk(), () -> result.workloads().toString());
        assertEquals(all(), counts("workloads").keySet());
        Map<String, Long> events = counts("events");
        Map<String, Long> metrics = counts("metrics");
        Map<String, Long> files = counts("trace_files");
        for (String name : all()) {
            assertEquals(events.get(PLAIN), events.get(name), name);
            assertEquals(metrics.get(PLAIN), metrics.get(name), name);
            assertEquals(files.get(PLAIN), files.get(name), name); // the card and two traces
        }
        // trace_files names each hostile file as it is on disk, with its rank
        List<Row> rows = spark.read()
                .format("iceberg")
                .load(archive.table("trace_files"))
                .where("workload = 'a..b' AND rank IS NOT NULL")
                .select("path", "rank", "status")
                .orderBy("rank")
                .collectAsList();
        for (int r = 0; r < 2; r++) {
            assertEquals(r, rows.get(r).getInt(1));
            assertEquals("ok", rows.get(r).getString(2));
            Path onDisk = archive.archive
                    .resolve("a..b")
                    .resolve(DIR)
                    .resolve("iteration_2")
                    .resolve("rank" + r + FILE_TAIL);
            assertTrue(Files.isRegularFile(onDisk));
            assertTrue(
                    rows.get(r).getString(0).endsWith(onDisk.getFileName().toString())
                            || rows.get(r).getString(0).equals(onDisk.toUri().toString()),
                    rows.get(r).getString(0));
        }
    }

    @Test
    void aSecondRefreshFindsEveryHostilePathUnchanged() {
        // the ledger's paths compare equal to the archive listing's: no name is re-read for its spelling
        Refresh.Result again = archive.refresh(spark);
        assertEquals(
                List.of(), again.workloads().stream().map(w -> w.workload()).toList());
        assertEquals(all().size(), again.unchanged().size());
    }

    @Test
    void eachWorkloadHasItsOwnPartitionAndMetricsExportInsideTheWarehouse() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String name : all()) {
            // the run's data files of it, in a folder of the events table the name could not escape
            try (Stream<Path> runs =
                    Files.list(archive.warehouse.resolve("events").resolve(Warehouse.DATA))) {
                assertTrue(
                        runs.anyMatch(r -> Files.isDirectory(r.resolve(Warehouse.partitionDir(name)))),
                        Warehouse.partitionDir(name));
            }
            Path export = archive.warehouse.resolve("exports/metrics").resolve(name + ".json");
            assertEquals(name, json.readTree(export.toFile()).get("workload").asText());
        }
        try (Stream<Path> top = Files.list(tmp)) {
            assertEquals(
                    Set.of("archive", "warehouse"),
                    top.map(p -> p.getFileName().toString())
                            .filter(n -> !n.startsWith("out"))
                            .collect(java.util.stream.Collectors.toSet()));
        }
    }

    @Test
    void sqlReturnsTheNamesAsTheyAre() throws IOException {
        SparkSession own = spark.newSession(); // its own views, so other test classes keep theirs
        UdfRegistry.registerAll(own);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SqlRunner runner = new SqlRunner(
                own,
                ResultPrinter.Format.JSON,
                1000,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        runner.register(
                new Warehouse(archive.warehouse.toString(), own.sparkContext().hadoopConfiguration()));
        assertTrue(runner.runAll(List.of(
                "SELECT workload, count(*) AS n FROM events GROUP BY workload ORDER BY workload",
                "SELECT count(*) AS n FROM events WHERE workload = 'it''s \"quoted\" '' OR ''1''=''1'")));
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n"))
            lines.add(new ObjectMapper().readTree(line));
        Set<String> seen = new TreeSet<>();
        for (JsonNode l : lines.subList(0, lines.size() - 1))
            seen.add(l.get("workload").asText());
        assertEquals(all(), seen);
        assertEquals(
                counts("events").get(HOSTILE.get(0)).longValue(),
                lines.get(lines.size() - 1).get("n").asLong());
    }

    @Test
    void reportsAndTheLeaderboardNameEveryWorkload() throws IOException {
        Warehouse warehouse =
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        Reports reports = new Reports(new WarehouseTables(spark, warehouse));
        assertEquals(all(), new TreeSet<>(reports.workloads()));
        for (String name : HOSTILE) assertTrue(reports.text(name, null).contains(name), name);
        Path pages = tmp.resolve("out-pages");
        List<String> written = reports.html(new ArrayList<>(all()), pages.toString(), null, 200);
        assertEquals(
                all().size(), new TreeSet<>(written).size(), "one page per workload, none overwritten: " + written);
        // names that differ only in characters a file name cannot keep still get pages of their own
        assertNotEquals(ReportFileWriter.fileName("a b", ".html"), ReportFileWriter.fileName("a_b", ".html"));
        assertNotEquals(ReportFileWriter.fileName("it's", ".html"), ReportFileWriter.fileName("it\"s", ".html"));
        for (String f : written) assertTrue(Path.of(f).normalize().startsWith(pages), f);
        try (Stream<Path> files = Files.list(pages)) {
            assertEquals(all().size(), files.count());
        }

        Path board = tmp.resolve("out-leaderboard.json");
        new LeaderboardExport(new WarehouseTables(spark, warehouse)).write(board.toString(), Set.of());
        Set<String> traces = new TreeSet<>();
        new ObjectMapper()
                .readTree(board.toFile())
                .get("rows")
                .forEach(r -> traces.add(r.get("trace").asText()));
        assertEquals(all(), traces);
    }

    @Test
    void theCommandLineTakesALeadingDashNameAsAWorkload() throws Exception {
        Path text = tmp.resolve("out-dash.txt");
        Process report = MainProcess.startTo(
                text,
                "report",
                "--workload",
                "-leading-dash",
                "--warehouse",
                archive.warehouse.toString(),
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false");
        assertTrue(report.waitFor(300, TimeUnit.SECONDS));
        String stderr = new String(report.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(ExitCodes.OK, report.exitValue(), stderr);
        assertTrue(Files.readString(text).contains("-leading-dash"));
    }

    private static Map<String, Long> counts(String table) {
        Map<String, Long> out = new TreeMap<>();
        for (Row r : spark.read()
                .format("iceberg")
                .load(archive.table(table))
                .groupBy("workload")
                .count()
                .collectAsList()) {
            out.put(r.getString(0), r.getLong(1));
        }
        return out;
    }
}
