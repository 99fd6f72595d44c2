package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.engine.MetricEngine;
import org.tracelake.jobs.metrics.side.CollectiveHangs.Entry;
import org.tracelake.jobs.metrics.side.CollectiveHangs.GroupStatus;
import org.tracelake.jobs.metrics.side.DeviceReplay.Event;
import org.tracelake.jobs.metrics.side.DeviceReplay.SegmentRow;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.schemas.MetricSchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TelemetrySchema;
import org.tracelake.schemas.WorkloadSchema;

/**
 * The Spark path gives what the pure functions give on the same hand-built rows (the unit tests' inputs, as rows of the
 * side tables, spread over several partitions and workloads): the side tables enter the metric engine's workload task,
 * whose staged tables are read back here, and the families add no Spark job to the engine's one job.
 */
class SideFamiliesSparkTest {
    static SparkSession spark;

    @TempDir
    static Path staging;

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

    /** The hand-built side tables of the tests below, edge cases included. */
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

    /**
     * The memory family's rows of {@link #inputs()}, from the pure function: w1's three devices (rank 0 devices 0 and
     * 1, an unranked device 0) and w2's one, each replayed from its trace and segments.
     */
    private static List<MetricRow> memoryRows() {
        List<MetricRow> rows = new ArrayList<>(MemoryMetrics.workload(
                "w1",
                List.of(
                        MemoryMetrics.Device.replayed(0, 0, MemoryMetricsTest.TRACE_0, MemoryMetricsTest.SEGMENTS_0),
                        MemoryMetrics.Device.replayed(0, 1, List.of(), MemoryMetricsTest.SEGMENTS_1),
                        MemoryMetrics.Device.replayed(null, 0, MemoryMetricsTest.TRACE_1, List.of()))));
        rows.addAll(MemoryMetrics.workload(
                "w2",
                List.of(MemoryMetrics.Device.replayed(3, 1, MemoryMetricsTest.TRACE_1, MemoryMetricsTest.SEGMENTS_1))));
        return rows;
    }

    @Test
    void memoryRowsAreTheReplayOfEachDevice() throws Exception {
        Inputs in = inputs();
        Staged out = engine(
                Map.of(Tables.MEMORY_EVENTS, in.memoryEvents(), Tables.MEMORY_SEGMENTS, in.memorySegments()),
                "w1",
                "w2");
        List<MetricRow> expected = memoryRows();
        assertEquals(40 + 20, expected.size());
        assertSameRows(expected, out.rowsLike(expected), MetricRow::toString);
        assertOneJob(out);
    }

    @Test
    void telemetryRowsAreTheMeansOfTheLinesInRankFileLineOrder() throws Exception {
        Staged out = engine(Map.of(Tables.ITERATION_TELEMETRY, inputs().telemetry()), "ref");
        List<MetricRow> expected = TelemetryMetrics.workload("ref", TelemetryMetricsTest.ref());
        assertSameRows(expected, out.rowsLike(expected), MetricRow::toString);
        assertOneJob(out);
    }

    /**
     * The workload task sums the lines in (rank, file, line) order whatever order they come in: three lines whose sum
     * depends on it. In that order 1e16 + 1 rounds back to 1e16 (the spacing of doubles there is 2), and - 1e16 leaves
     * 0, so mean_overlap_ms = 0 / 3 = 0; in the order the rows are stored (rank 0 line 0, rank 1, rank 0 line 1) the
     * sum is 1e16 - 1e16 + 1 = 1, a mean of 1/3.
     */
    @Test
    void telemetryLinesAreSummedInRankFileLineOrderWhateverOrderTheyCome() throws Exception {
        TelemetryMetrics.Line first = new TelemetryMetrics.Line(0, 1e16, 1.0, null, null, Map.of("compute", 1.0));
        TelemetryMetrics.Line second = new TelemetryMetrics.Line(0, 1.0, 1.0, null, null, Map.of("compute", 1.0));
        TelemetryMetrics.Line other = new TelemetryMetrics.Line(1, -1e16, 1.0, null, null, Map.of("compute", 1.0));
        List<Row> stored = List.of(
                telemetryLine("order", "rank0.jsonl", 0, first),
                telemetryLine("order", "rank1.jsonl", 0, other),
                telemetryLine("order", "rank0.jsonl", 1, second));
        Staged out = engine(
                Map.of(
                        Tables.ITERATION_TELEMETRY,
                        spark.createDataFrame(stored, TelemetrySchema.SCHEMA).coalesce(1)),
                "order");
        List<MetricRow> expected = TelemetryMetrics.workload("order", List.of(first, second, other));
        assertEquals(0.0, meanOverlap(expected));
        assertEquals(1.0 / 3, meanOverlap(TelemetryMetrics.workload("order", List.of(first, other, second))));
        assertSameRows(expected, out.rowsLike(expected), MetricRow::toString);
    }

    private static double meanOverlap(List<MetricRow> rows) {
        return rows.stream()
                .filter(r -> "mean_overlap_ms".equals(r.figure()) && "workload".equals(r.scope()))
                .findFirst()
                .orElseThrow()
                .value();
    }

    static Row telemetryLine(String workload, String file, long line, TelemetryMetrics.Line l) {
        return row(
                TelemetrySchema.SCHEMA,
                cells(
                        "workload",
                        workload,
                        "rank",
                        l.rank(),
                        "source_file",
                        file,
                        "line",
                        line,
                        "ordinal",
                        line,
                        "row_kind",
                        TelemetrySchema.KIND_ITERATION,
                        "overlap_compute_comm_ms",
                        l.overlapMs(),
                        "compute_ms",
                        l.computeMs(),
                        "per_stream_ms",
                        scala.jdk.javaapi.CollectionConverters.asScala(l.perStreamMs())));
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
    void collectiveHangsAndTheirMetricRows() throws Exception {
        Inputs in = inputs();
        Staged out = engine(
                Map.of(Tables.FLIGHT_RECORDER, in.flightRecorder(), Tables.PROCESS_GROUP_STATUS, in.groups()),
                "w",
                "quiet");
        Dataset<Row> table =
                spark.read().parquet(out.root.resolve(Tables.COLLECTIVE_HANGS).toString());
        // the staged files hold the table's columns in its types (as Spark reads them back, the partition column last)
        for (StructField f : FlightRecorderSchema.HANGS.fields())
            assertEquals(f.dataType(), table.schema().apply(f.name()).dataType(), f.name());
        List<CollectiveHang> got = table
                .select(Arrays.stream(FlightRecorderSchema.HANGS.fieldNames())
                        .map(functions::col)
                        .toArray(Column[]::new))
                .collectAsList()
                .stream()
                .map(CollectiveHang::fromRow)
                .toList();
        assertEquals(
                new HashSet<>(List.of(CollectiveHangsTest.ROOT, CollectiveHangsTest.NOT_ROOT)), new HashSet<>(got));
        assertEquals(2, got.size());
        // a workload with dumps and nothing stuck has no partition, as a Spark write of no rows leaves none
        assertFalse(Files.exists(out.root.resolve(Tables.COLLECTIVE_HANGS).resolve("workload=quiet")));

        List<MetricRow> expected = new ArrayList<>(HangMetrics.workload("w", got));
        expected.addAll(HangMetrics.workload("quiet", List.of()));
        assertSameRows(expected, out.rowsLike(expected), MetricRow::toString);
        assertOneJob(out);
    }

    @Test
    void everySideTableAtOnceIsStillOneJobWithTheSameRows() throws Exception {
        Inputs in = inputs();
        Staged out = engine(
                Map.of(
                        Tables.MEMORY_EVENTS, in.memoryEvents(),
                        Tables.MEMORY_SEGMENTS, in.memorySegments(),
                        Tables.ITERATION_TELEMETRY, in.telemetry(),
                        Tables.FLIGHT_RECORDER, in.flightRecorder(),
                        Tables.PROCESS_GROUP_STATUS, in.groups()),
                "w1",
                "w2",
                "ref",
                "w",
                "quiet");
        List<MetricRow> expected = memoryRows();
        expected.addAll(TelemetryMetrics.workload("ref", TelemetryMetricsTest.ref()));
        expected.addAll(HangMetrics.workload("w", List.of(CollectiveHangsTest.ROOT, CollectiveHangsTest.NOT_ROOT)));
        expected.addAll(HangMetrics.workload("quiet", List.of()));
        assertSameRows(expected, out.rowsLike(expected), MetricRow::toString);
        assertOneJob(out);
    }

    /** What one run of the metric engine left: its staged tables, and the Spark jobs it ran. */
    record Staged(Path root, int jobs) {
        /**
         * The staged metric rows of the expected rows' (workload, metric) pairs: the engine adds every other metric's
         * rows, and a family's own rows cover each of its metrics at workload scope, so no other row has such a pair.
         */
        List<MetricRow> rowsLike(List<MetricRow> expected) {
            Set<List<String>> workloadMetrics = new HashSet<>();
            for (MetricRow r : expected) workloadMetrics.add(List.of(r.workload(), r.metric()));
            return spark
                    .read()
                    .parquet(root.resolve(Tables.METRICS).toString())
                    .select(Arrays.stream(MetricSchema.QUERY_SCHEMA.fieldNames())
                            .map(functions::col)
                            .toArray(Column[]::new))
                    .collectAsList()
                    .stream()
                    .map(MetricRow::fromRow)
                    .filter(r -> workloadMetrics.contains(List.of(r.workload(), r.metric())))
                    .toList();
        }
    }

    /**
     * Runs the metric engine as the metrics phase does, over these side tables and a card for each of the workloads
     * (no events: the side families need none), staging into a folder of its own; counts its Spark jobs.
     */
    static Staged engine(Map<String, Dataset<Row>> side, String... workloads) throws Exception {
        Path root = Files.createTempDirectory(staging, "run");
        List<Row> cards = new ArrayList<>();
        for (String w : workloads)
            cards.add(row(WorkloadSchema.SCHEMA, cells("workload", w, "status", "ok", "ingest_run_id", "test")));
        Dataset<Row> workloadRows = spark.createDataFrame(cards, WorkloadSchema.SCHEMA);
        Jobs counted = new Jobs();
        spark.sparkContext().listenerBus().waitUntilEmpty();
        spark.sparkContext().addSparkListener(counted);
        // as the metrics phase runs it: adaptive execution would run the test inputs' own shuffles as jobs first
        String adaptive = spark.conf().get("spark.sql.adaptive.enabled");
        spark.conf().set("spark.sql.adaptive.enabled", "false");
        try {
            new MetricEngine()
                    .compute(
                            spark,
                            null,
                            null,
                            workloadRows,
                            side,
                            new DevicePeakTable(List.of()),
                            new PartitionFiles(
                                    root.toString(), spark.sparkContext().hadoopConfiguration()));
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.conf().set("spark.sql.adaptive.enabled", adaptive);
            spark.sparkContext().removeSparkListener(counted);
        }
        return new Staged(root, counted.jobs);
    }

    /**
     * The side families are part of the engine's one job, their rows met with the workload's other inputs in its one
     * shuffle: no plan of their own.
     */
    static void assertOneJob(Staged out) {
        assertEquals(1, out.jobs(), "Spark jobs of the metric engine");
    }

    static final class Jobs extends SparkListener {
        int jobs;

        @Override
        public synchronized void onJobStart(SparkListenerJobStart job) {
            jobs++;
        }
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
