package org.tracelake.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * {@code report --trace} (issue 30) on ../shared/traces/kineto/dlrm-8rank-v100: eight V100 ranks, one ProfilerStep#10
 * each (so step 10 is the first, and only, step every rank has), NCCL all_to_all and all_reduce. The file is read back
 * with the project's own Kineto reader, as any Kineto trace would be: every rank of the step is a process with GPU
 * activity, every flow arrow has one start and one finish on two different ranks, each sitting on a slice of that
 * instance on its rank, and the arrows are exactly the engine's k-th match — one per instance and rank after the
 * first, over the instances of collective_members and collectives.
 */
@RealTraces("kineto/dlrm-8rank-v100")
class ChromeTraceTest {
    static final String W = "dlrm";

    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Reports reports;
    static ChromeTrace.Written written;
    static List<Row> rows;

    @BeforeAll
    static void refreshAndWrite() throws Exception {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared(W, "kineto/dlrm-8rank-v100")
                .card(W, "training", "dlrm", "NVIDIA V100", 8);
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
        StepList steps = reports.steps(W);
        assertEquals(10L, steps.firstFull(), "ProfilerStep#10 on all eight ranks");
        Path file = tmp.resolve("out/dlrm-step10.pt.trace.json");
        written = reports.trace(
                W, ChromeTrace.Bounds.ofStep(steps.firstFull()), ChromeTrace.DEFAULT_MAX_EVENTS, file.toString());
        rows = ReaderTestSupport.readAll(new KinetoReader(), ReaderTestSupport.task(file, TraceFormat.KINETO))
                .rows();
    }

    private static String pid(Row r) {
        return ReaderTestSupport.col(r, "pid");
    }

    private static String ph(Row r) {
        return ReaderTestSupport.col(r, "ph");
    }

    @Test
    void everyRankOfTheStepIsAProcessWithGpuActivity() {
        Set<String> ranks = Set.of("0", "1", "2", "3", "4", "5", "6", "7");
        Set<String> withGpu = new TreeSet<>();
        Set<String> named = new TreeSet<>();
        for (Row r : rows) {
            if (ReaderTestSupport.col(r, "activity_class") != null) withGpu.add(pid(r));
            if ("M".equals(ph(r)) && "process_name".equals(ReaderTestSupport.col(r, "name"))) named.add(pid(r));
        }
        assertEquals(ranks, withGpu, "GPU activity drawn on every rank");
        assertEquals(ranks, named, "a named process per rank");
        assertEquals(8, written.ranks());
        assertEquals(written.activities(), written.inBounds(), "one step is well under the default bound");
        // every activity of step 10 in the events table was drawn (the collectives' own slices come on top)
        long inStep = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("step = 10 AND coalesce(ph, 'X') = 'X' AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL")
                .count();
        assertEquals(inStep, written.activities());
        long drawn = rows.stream()
                .filter(r -> "X".equals(ph(r)) && !ChromeTrace.FLOW_CAT.equals(ReaderTestSupport.col(r, "cat")))
                .count();
        assertEquals(inStep, drawn, "the file holds each of them once");
    }

    @Test
    void flowArrowsPairUpAcrossRanks() {
        Map<String, List<Row>> starts = new HashMap<>();
        Map<String, List<Row>> finishes = new HashMap<>();
        for (Row r : rows) {
            if ("s".equals(ph(r)))
                starts.computeIfAbsent(ReaderTestSupport.arg(r, "flow_id"), k -> new ArrayList<>())
                        .add(r);
            if ("f".equals(ph(r)))
                finishes.computeIfAbsent(ReaderTestSupport.arg(r, "flow_id"), k -> new ArrayList<>())
                        .add(r);
        }
        assertFalse(starts.isEmpty(), "arrows drawn");
        assertEquals(starts.keySet(), finishes.keySet(), "every id has a start and a finish");
        // each arrow sits on a slice of its instance on its rank: the same rank, thread and start
        Set<String> slices = new HashSet<>();
        for (Row r : rows) {
            if ("X".equals(ph(r)) && ChromeTrace.FLOW_CAT.equals(ReaderTestSupport.col(r, "cat"))) {
                slices.add(pid(r) + "/" + ReaderTestSupport.col(r, "tid") + "/" + ReaderTestSupport.col(r, "ts_ns"));
            }
        }
        Map<String, Integer> arrowsPerInstance = new HashMap<>();
        for (String id : starts.keySet()) {
            assertEquals(1, starts.get(id).size(), "one start for id " + id);
            assertEquals(1, finishes.get(id).size(), "one finish for id " + id);
            Row s = starts.get(id).get(0);
            Row f = finishes.get(id).get(0);
            assertFalse(pid(s).equals(pid(f)), "id " + id + " links two ranks");
            assertEquals(pid(f), ReaderTestSupport.arg(s, "to_rank"));
            assertEquals(pid(s), ReaderTestSupport.arg(f, "from_rank"));
            String instance = ReaderTestSupport.arg(s, "match_key") + " k=" + ReaderTestSupport.arg(s, "k");
            assertEquals(instance, ReaderTestSupport.arg(f, "match_key") + " k=" + ReaderTestSupport.arg(f, "k"));
            assertTrue(
                    (Long) ReaderTestSupport.col(s, "ts_ns") <= (Long) ReaderTestSupport.col(f, "ts_ns"),
                    "from the first to arrive");
            for (Row end : List.of(s, f)) {
                assertTrue(
                        slices.contains(pid(end) + "/" + ReaderTestSupport.col(end, "tid") + "/"
                                + ReaderTestSupport.col(end, "ts_ns")),
                        "id " + id + " binds to its instance's slice on rank " + pid(end));
            }
            arrowsPerInstance.merge(instance, 1, Integer::sum);
        }
        // the engine's instances: one arrow per rank after the first; the step holds the whole one-step trace
        Map<String, Integer> expected = new HashMap<>();
        for (Row c : spark.read()
                .format("iceberg")
                .load(archive.table("collectives"))
                .select("match_key", "k", "ranks")
                .collectAsList()) {
            if (c.getInt(2) >= 2) expected.put(c.getString(0) + " k=" + c.getLong(1), c.getInt(2) - 1);
        }
        assertEquals(expected, arrowsPerInstance);
        assertEquals(expected.size(), written.instances());
        assertEquals(starts.size(), written.flows());
    }

    /** Perfetto pairs flows by the top-level id, which the Kineto reader does not keep: read the file as JSON too. */
    @Test
    void theTopLevelIdIsTheArrowsId() throws Exception {
        Path file = Path.of(written.file());
        try (var beside = Files.list(file.getParent())) {
            assertEquals(
                    List.of(file.getFileName().toString()),
                    beside.map(p -> p.getFileName().toString()).toList(),
                    "the one file, no checksum or parts left beside it");
        }
        JsonNode trace = new ObjectMapper().readTree(file.toFile());
        assertEquals("ns", trace.get("displayTimeUnit").asText());
        int flows = 0;
        for (JsonNode e : trace.get("traceEvents")) {
            String ph = e.get("ph").asText();
            if (ph.equals("s") || ph.equals("f")) {
                assertEquals(e.get("args").get("flow_id").asLong(), e.get("id").asLong());
                if (ph.equals("f")) assertEquals("e", e.get("bp").asText(), "a finish binds to its enclosing slice");
                flows++;
            }
        }
        assertEquals(2 * written.flows(), flows);
    }

    @Test
    void theStragglerIsNamed() {
        Row straggler = spark.read()
                .format("iceberg")
                .load(archive.table("metrics"))
                .where("metric = 'straggler_lag' AND figure = 'straggler_rank' AND scope = 'workload'")
                .first();
        List<String> labelled = new ArrayList<>();
        for (Row r : rows) {
            if ("M".equals(ph(r))
                    && "process_name".equals(ReaderTestSupport.col(r, "name"))
                    && ReaderTestSupport.arg(r, "name").contains("straggler")) {
                labelled.add(pid(r));
            }
        }
        if (straggler.isNullAt(straggler.fieldIndex("value"))) {
            assertEquals(List.of(), labelled, "no straggler in the tables: none named");
        } else {
            assertEquals(List.of(String.valueOf((int) straggler.getDouble(straggler.fieldIndex("value")))), labelled);
        }
    }

    /**
     * A window instead of a step: 0 to 10^6 ms after the first event holds the whole one-step trace, so every timed
     * activity of the workload is drawn, and every matched instance gets its ranks-minus-one arrows.
     */
    @Test
    void aWindowDrawsWhatOverlapsIt() throws Exception {
        Path file = tmp.resolve("window/dlrm-window.pt.trace.json");
        ChromeTrace.Written w =
                reports.trace(W, ChromeTrace.Bounds.ofWindow(0, 1e6), ChromeTrace.DEFAULT_MAX_EVENTS, file.toString());
        long timed = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("coalesce(ph, 'X') = 'X' AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL AND rank IS NOT NULL")
                .count();
        assertEquals(timed, w.activities());
        long arrows = spark.read()
                .format("iceberg")
                .load(archive.table("collectives"))
                .where("ranks >= 2")
                .selectExpr("sum(ranks - 1)")
                .first()
                .getLong(0);
        assertEquals(arrows, w.flows());
        // and a bound of 100 activities keeps the earliest (about 100: the cut is an approximate quantile of start
        // times)
        ChromeTrace.Written capped = reports.trace(
                W,
                ChromeTrace.Bounds.ofWindow(0, 1e6),
                100,
                tmp.resolve("capped.json").toString());
        assertEquals(timed, capped.inBounds());
        assertTrue(
                capped.activities() >= 95 && capped.activities() <= 200,
                "kept " + capped.activities() + " of " + timed);
    }

    @Test
    void stepsAreListedAsRanges() {
        StepList s = new StepList(List.of(1L, 2L, 3L, 5L, 7L, 8L), List.of(2L, 2L, 2L, 1L, 2L, 2L), 2);
        assertEquals("1-3, 5, 7, 8", s.describe());
        assertEquals(1L, s.firstFull());
        assertNull(new StepList(List.of(4L), List.of(1L), 2).firstFull(), "no step every rank has");
        assertEquals("none", new StepList(List.of(), List.of(), 0).describe());
    }

    @Test
    void aStepTheWorkloadLacksIsNamedWithTheStepsItHas() {
        assertNull(reports.missingStep(List.of(W), 10));
        String missing = reports.missingStep(List.of(W), 11);
        assertNotNull(missing);
        assertEquals("no step 11 in workload dlrm: its steps are 10", missing);
        assertThrows(
                IllegalArgumentException.class,
                () -> reports.trace(
                        W,
                        ChromeTrace.Bounds.ofWindow(1e9, 1e9 + 1),
                        10,
                        tmp.resolve("empty.json").toString()),
                "a window with nothing in it is said so");
        assertFalse(Files.exists(tmp.resolve("empty.json")));
    }
}
