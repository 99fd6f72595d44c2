package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.physical.HashPartitioning;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.side.CollectiveHangs.Entry;
import org.tracelake.jobs.metrics.side.CollectiveHangs.GroupStatus;
import org.tracelake.jobs.metrics.side.DeviceReplay.Event;
import org.tracelake.jobs.metrics.side.DeviceReplay.SegmentRow;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.schemas.TelemetrySchema;

/**
 * The Spark entry points give what the pure functions give on the same hand-built rows (the unit tests' inputs, as
 * rows of the side tables, spread over several partitions and workloads), and each family is one shuffle: its plan
 * has no exchange below another.
 */
class SideFamiliesSparkTest {
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SharedSpark.get();
    }

    /** A row of the schema with the given columns set, the others null. */
    static Row row(StructType schema, Map<String, Object> values) {
        Object[] cells = new Object[schema.size()];
        values.forEach((name, v) -> cells[schema.fieldIndex(name)] = v);
        return RowFactory.create(cells);
    }

    static Dataset<Row> frame(List<Row> rows, StructType schema) {
        return spark.createDataFrame(rows, schema).repartition(3); // rows of a device / group in several partitions
    }

    static Map<String, Object> cells(Object... kv) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    static Row event(String workload, Integer rank, int device, Event e) {
        return row(
                MemorySchema.EVENTS,
                cells(
                        "workload",
                        workload,
                        "rank",
                        rank,
                        "source_file",
                        "f",
                        "device",
                        device,
                        "ordinal",
                        e.ordinal(),
                        "action",
                        e.action(),
                        "address",
                        e.address(),
                        "size",
                        e.size(),
                        "time_us",
                        e.timeUs()));
    }

    static Row segment(String workload, Integer rank, int device, long ordinal, SegmentRow s) {
        return row(
                MemorySchema.SEGMENTS,
                cells(
                        "workload",
                        workload,
                        "rank",
                        rank,
                        "source_file",
                        "f",
                        "device",
                        device,
                        "row_kind",
                        s.rowKind(),
                        "segment_ordinal",
                        ordinal,
                        "address",
                        s.address(),
                        "size",
                        s.size(),
                        "requested_size",
                        s.requestedSize(),
                        "state",
                        s.state()));
    }

    /** The hand-built side tables of the tests below (and of the SQL equivalence test's edge cases). */
    record Inputs(
            Dataset<Row> memoryEvents,
            Dataset<Row> memorySegments,
            Dataset<Row> telemetry,
            Dataset<Row> flightRecorder,
            Dataset<Row> groups) {}

    static Inputs inputs() {
        // memory, w1: rank 0 has cuda:0 (trace and segments) and cuda:1 (segments only: no trace at all); rank null has
        // cuda:0 with a trace and no segments. w2: MemoryMetricsTest's second device alone.
        List<Row> events = new ArrayList<>();
        List<Row> segments = new ArrayList<>();
        MemoryMetricsTest.TRACE_0.forEach(e -> events.add(event("w1", 0, 0, e)));
        MemoryMetricsTest.TRACE_1.forEach(e -> events.add(event("w1", null, 0, e)));
        MemoryMetricsTest.TRACE_1.forEach(e -> events.add(event("w2", 3, 1, e)));
        for (SegmentRow s : MemoryMetricsTest.SEGMENTS_0) segments.add(segment("w1", 0, 0, segments.size(), s));
        for (SegmentRow s : MemoryMetricsTest.SEGMENTS_1) segments.add(segment("w1", 0, 1, segments.size(), s));
        for (SegmentRow s : MemoryMetricsTest.SEGMENTS_1) segments.add(segment("w2", 3, 1, segments.size(), s));
        // telemetry, ref: TelemetryMetricsTest's lines, each with a range row beside it (not an iteration, not a
        // sample)
        List<Row> telemetry = new ArrayList<>();
        List<TelemetryMetrics.Line> lines = TelemetryMetricsTest.ref();
        for (int i = 0; i < lines.size(); i++) {
            TelemetryMetrics.Line l = lines.get(i);
            telemetry.add(row(
                    TelemetrySchema.SCHEMA,
                    cells(
                            "workload",
                            "ref",
                            "rank",
                            l.rank(),
                            "source_file",
                            "rank" + l.rank(),
                            "line",
                            (long) i,
                            "ordinal",
                            (long) i,
                            "row_kind",
                            "iteration",
                            "overlap_compute_comm_ms",
                            l.overlapMs(),
                            "compute_ms",
                            l.computeMs(),
                            "overlap_compute_allreduce_ms",
                            l.allreduceOverlapMs(),
                            "overlap_compute_reducescatter_ms",
                            l.reducescatterOverlapMs(),
                            "per_stream_ms",
                            scala.jdk.javaapi.CollectionConverters.asScala(l.perStreamMs()))));
            telemetry.add(row(
                    TelemetrySchema.SCHEMA,
                    cells(
                            "workload",
                            "ref",
                            "rank",
                            l.rank(),
                            "source_file",
                            "rank" + l.rank(),
                            "line",
                            (long) i,
                            "ordinal",
                            100L + i,
                            "row_kind",
                            "range",
                            "compute_ms",
                            1000.0)));
        }
        // hangs, w: CollectiveHangsTest's hang, plus an entry without a group name (ignored); quiet: one rank's dump
        List<Row> entries = new ArrayList<>();
        List<Row> groups = new ArrayList<>();
        CollectiveHangsTest.ENTRIES.forEach(e -> entries.add(frEntry("w", e)));
        entries.add(frEntry("w", new Entry(2, 9, 5L, null, 7L, "nccl:all_reduce", false, null, null, 1L)));
        CollectiveHangsTest.GROUPS.forEach(g -> groups.add(frGroup("w", g)));
        groups.add(frGroup("quiet", new GroupStatus(0, 0L, "0", "default_pg", List.of(0), 4L, 4L)));
        return new Inputs(
                frame(events, MemorySchema.EVENTS),
                frame(segments, MemorySchema.SEGMENTS),
                frame(telemetry, TelemetrySchema.SCHEMA),
                frame(entries, FlightRecorderSchema.ENTRIES),
                frame(groups, FlightRecorderSchema.GROUPS));
    }

    @Test
    void memoryRowsAreTheReplayOfEachDevice() {
        Inputs in = inputs();
        Dataset<Row> rows = MemoryMetrics.rows(in.memoryEvents(), in.memorySegments());
        List<MetricRow> expected = new ArrayList<>(MemoryMetrics.workload(
                "w1",
                List.of(
                        MemoryMetrics.Device.replayed(0, 0, MemoryMetricsTest.TRACE_0, MemoryMetricsTest.SEGMENTS_0),
                        MemoryMetrics.Device.replayed(0, 1, List.of(), MemoryMetricsTest.SEGMENTS_1),
                        MemoryMetrics.Device.replayed(null, 0, MemoryMetricsTest.TRACE_1, List.of()))));
        expected.addAll(MemoryMetrics.workload(
                "w2",
                List.of(MemoryMetrics.Device.replayed(3, 1, MemoryMetricsTest.TRACE_1, MemoryMetricsTest.SEGMENTS_1))));
        assertEquals(40 + 20, expected.size());
        assertSameRows(expected, collected(rows), MetricRow::toString);
        assertOneShuffle(rows);
    }

    @Test
    void telemetryRowsAreTheMeansOfTheLinesInRankFileLineOrder() {
        Dataset<Row> out = TelemetryMetrics.rows(inputs().telemetry());
        assertSameRows(
                TelemetryMetrics.workload("ref", TelemetryMetricsTest.ref()), collected(out), MetricRow::toString);
        assertOneShuffle(out);
    }

    static Row frEntry(String workload, Entry e) {
        scala.collection.Seq<Long> dims = scala.jdk.javaapi.CollectionConverters.asScala(List.of(1024L, 8L))
                .toSeq();
        return row(
                FlightRecorderSchema.ENTRIES,
                cells(
                        "workload",
                        workload,
                        "rank",
                        e.rank(),
                        "source_file",
                        "f",
                        "ordinal",
                        e.ordinal(),
                        "pg_id",
                        e.pgId(),
                        "pg_name",
                        e.pgName(),
                        "collective_seq_id",
                        e.collectiveSeqId(),
                        "op",
                        e.op(),
                        "is_p2p",
                        e.isP2p(),
                        "time_created_ns",
                        e.createdNs(),
                        "input_sizes",
                        scala.jdk.javaapi.CollectionConverters.asScala(List.of(dims))
                                .toSeq(),
                        "input_dtypes",
                        scala.jdk.javaapi.CollectionConverters.asScala(List.of("Float"))
                                .toSeq()));
    }

    static Row frGroup(String workload, GroupStatus g) {
        return row(
                FlightRecorderSchema.GROUPS,
                cells(
                        "workload",
                        workload,
                        "rank",
                        g.rank(),
                        "source_file",
                        "f",
                        "pg_id",
                        g.pgId(),
                        "pg_name",
                        g.pgName(),
                        "pg_desc",
                        g.pgDesc(),
                        "pg_ranks",
                        g.pgRanks() == null
                                ? null
                                : scala.jdk.javaapi.CollectionConverters.asScala(g.pgRanks())
                                        .toSeq(),
                        "last_enqueued_collective",
                        g.lastEnqueued(),
                        "last_completed_collective",
                        g.lastCompleted()));
    }

    @Test
    void collectiveHangsAndTheirMetricRows() {
        Inputs in = inputs();
        Dataset<Row> fr = in.flightRecorder();
        Dataset<Row> pgs = in.groups();
        Dataset<Row> hangs = CollectiveHangs.table(fr, pgs);
        List<CollectiveHangs.Hang> got = hangs.collectAsList().stream()
                .map(CollectiveHangs.Hang::fromRow)
                .toList();
        assertEquals(
                new HashSet<>(List.of(CollectiveHangsTest.ROOT, CollectiveHangsTest.NOT_ROOT)), new HashSet<>(got));
        assertEquals(2, got.size());
        assertOneShuffle(hangs);

        Dataset<Row> metrics = HangMetrics.rows(hangs.repartition(2), fr, pgs);
        List<MetricRow> expected = new ArrayList<>(HangMetrics.workload("w", got));
        expected.addAll(HangMetrics.workload("quiet", List.of()));
        assertSameRows(expected, collected(metrics), MetricRow::toString);
        assertOneShuffle(HangMetrics.rows(frame(new ArrayList<>(), FlightRecorderSchema.HANGS), fr, pgs));
        // the check sees two stages where there are two: the metrics over hangs computed in the same plan
        assertThrows(AssertionFailedError.class, () -> assertOneShuffle(metrics));
    }

    static List<MetricRow> collected(Dataset<Row> rows) {
        return rows.collectAsList().stream().map(MetricRow::fromRow).toList();
    }

    /**
     * The family's own work is one shuffle stage: no exchange that partitions by the workload key has another such
     * exchange below it (the tests' own round-robin repartition of the inputs aside), no window, no sort-merge join.
     */
    static void assertOneShuffle(Dataset<Row> rows) {
        SparkPlan plan = rows.queryExecution().executedPlan();
        if (plan instanceof AdaptiveSparkPlanExec adaptive) plan = adaptive.initialPlan();
        List<SparkPlan> keyed = new ArrayList<>();
        collect(plan, keyed);
        assertFalse(keyed.isEmpty(), plan.treeString());
        for (SparkPlan exchange : keyed) {
            List<SparkPlan> below = new ArrayList<>();
            for (SparkPlan child : children(exchange)) collect(child, below);
            assertEquals(List.of(), below, plan.treeString());
        }
        String text = plan.treeString();
        assertFalse(text.contains("Window") || text.contains("SortMergeJoin"), text);
    }

    private static void collect(SparkPlan node, List<SparkPlan> keyed) {
        if (node instanceof ShuffleExchangeExec e && e.outputPartitioning() instanceof HashPartitioning)
            keyed.add(node);
        for (SparkPlan child : children(node)) collect(child, keyed);
    }

    private static List<SparkPlan> children(SparkPlan node) {
        return scala.jdk.javaapi.CollectionConverters.asJava(node.children());
    }

    /** The same multiset of rows, or a failure listing what only one side has. */
    static <T> void assertSameRows(List<T> expected, List<T> actual, java.util.function.Function<T, String> show) {
        java.util.Map<T, Integer> counts = new java.util.HashMap<>();
        for (T e : expected) counts.merge(e, 1, Integer::sum);
        for (T a : actual) counts.merge(a, -1, Integer::sum);
        StringBuilder diff = new StringBuilder();
        counts.forEach((row, n) -> {
            if (n != 0)
                diff.append(n > 0 ? "only expected (" + n + "): " : "only computed (" + -n + "): ")
                        .append(show.apply(row))
                        .append('\n');
        });
        if (diff.length() > 0)
            org.junit.jupiter.api.Assertions.fail(
                    expected.size() + " expected rows, " + actual.size() + " computed:\n" + diff);
        org.junit.jupiter.api.Assertions.assertTrue(expected.size() > 0);
    }
}
