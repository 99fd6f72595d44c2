package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MetricSchema;

/**
 * TO DELETE WITH THE SQL FILES: the Java families of this package give the same rows as memory.sql, telemetry.sql,
 * collective_hangs.sql and hangs.sql on the same side tables — as a multiset, doubles compared bit for bit
 * ({@link Double#equals}). The side tables are those a refresh of real traces writes:
 * <ul>
 *   <li>memory: the two real CUDA memory snapshots, each a workload, and both in one workload as ranks 0 and 1 (so
 *       that the workload rows combine two devices);</li>
 *   <li>hangs: the two real NVRx Flight Recorder captures (16 ranks each), and rank 0's dump of one of them alone (a
 *       workload with dumps and no stuck collective);</li>
 *   <li>telemetry: AORTA lines written here (no public sample exists) with non-round values, 3 ranks × 9 steps, some
 *       lines without profile, overlap keys or streams, and a stream only one rank has.</li>
 * </ul>
 */
@RealTraces({"memory-snapshot/cs336-bcrafton", "memory-snapshot/cs336-magma27-windows",
        "flight-recorder/nvrx-gpu-error-1st", "flight-recorder/nvrx-lock-gil-1st"})
class SideFamiliesSqlEquivalenceTest {
    @TempDir static Path tmp;
    static SparkSession spark;
    static TestArchive archive;

    @BeforeAll
    static void refresh() throws IOException {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared("bcrafton", "memory-snapshot/cs336-bcrafton").card("bcrafton", "training", "transformer", "nvidia_rtx", 1)
                .copyShared("magma27", "memory-snapshot/cs336-magma27-windows").card("magma27", "training", "transformer", "nvidia_rtx", 1)
                .write("mem_two", "rank0_memory_snapshot.pickle.gz",
                        Files.readAllBytes(TestArchive.shared("memory-snapshot/cs336-bcrafton/memory_snapshot.pickle.gz")))
                .write("mem_two", "rank1_memory_snapshot.pickle",
                        Files.readAllBytes(TestArchive.shared("memory-snapshot/cs336-magma27-windows/memory_snapshot.pickle")))
                .card("mem_two", "training", "transformer", "nvidia_rtx", 2)
                .copyShared("gpu_error", "flight-recorder/nvrx-gpu-error-1st").card("gpu_error", "training", "moe", "nvidia_h100", 16)
                .copyShared("lock_gil", "flight-recorder/nvrx-lock-gil-1st").card("lock_gil", "training", "moe", "nvidia_h100", 16)
                .write("fr_one", "_dump_0", Files.readAllBytes(TestArchive.shared("flight-recorder/nvrx-gpu-error-1st/_dump_0")))
                .card("fr_one", "training", "moe", "nvidia_h100", 16);
        Random random = new Random(27);
        for (int rank = 0; rank < 3; rank++) {
            StringBuilder lines = new StringBuilder();
            for (int step = 0; step < 9; step++) lines.append(aortaLine(random, rank, step));
            archive.write("aorta", String.format(Locale.ROOT, "artifacts/rank_%02d_metrics.jsonl", rank), lines.toString());
        }
        archive.card("aorta", "training", "llama", "amd_mi350x", 3);
        archive.refresh(spark);
        for (String t : List.of("memory_events", "memory_segments", "iteration_telemetry", "flight_recorder",
                "process_group_status", "workloads")) {
            spark.read().parquet(archive.table(t)).createOrReplaceTempView(t);
        }
    }

    /**
     * One AORTA line with values of many digits (so that a different order of summation would show): every third
     * line of rank 2 has no profile, rank 1 never writes a reducescatter overlap, rank 0 has an "aux2" stream.
     */
    static String aortaLine(Random random, int rank, int step) {
        String head = String.format(Locale.ROOT, "{\"rank\":%d,\"world_size\":3,\"epoch\":0,\"step\":%d,\"global_step\":%d,"
                + "\"loss\":%s,\"grad_norm\":1.5,\"lr\":0.0001", rank, step, step, 2.0 - 0.1 * step);
        if (rank == 2 && step % 3 == 0) return head + "}\n";
        double compute = 10 + 10 * random.nextDouble();
        double comm = 3 * random.nextDouble();
        double overlap = comm * random.nextDouble();
        StringBuilder streams = new StringBuilder(String.format(Locale.ROOT, "\"compute\":%s,\"allreduce\":%s", compute, comm));
        if (rank == 0) streams.append(String.format(Locale.ROOT, ",\"aux2\":%s", random.nextDouble()));
        if (step % 2 == 1) streams.append(String.format(Locale.ROOT, ",\"reducescatter\":%s", 2 * random.nextDouble()));
        StringBuilder overlaps = new StringBuilder(String.format(Locale.ROOT, "\"compute_comm\":%s,\"compute_allreduce\":%s",
                overlap, overlap * random.nextDouble()));
        if (rank != 1) overlaps.append(String.format(Locale.ROOT, ",\"compute_reducescatter\":%s", random.nextDouble()));
        return head + String.format(Locale.ROOT, ",\"profile\":{\"index\":%d,\"total_ms\":%s,\"ranges\":[],\"markers\":[],"
                + "\"overlap\":{\"per_stream_ms\":{%s},\"overlap_ms\":{%s},\"active_segments\":[],\"utilization\":{}}}}\n",
                step, compute + comm + 1, streams, overlaps);
    }

    @Test
    void memoryRowsAreTheSql() {
        List<MetricRow> java = metricRows(MemoryMetrics.rows(spark.table("memory_events"), spark.table("memory_segments")));
        List<MetricRow> sql = metricRows(sqlQueries("memory.sql"));
        assertEquals(3 * 10 + 3 * 10 + 10, sql.size()); // 4 devices: bcrafton, magma27, mem_two's two; 10 rows each; 3 workloads
        assertSameRows(sql, java, MetricRow::toString);
    }

    /**
     * telemetry_overlap bit for bit when the SQL sums the lines in the order the Java does, (rank, file, line): the
     * input read as one sorted partition. Over the table as Spark scans it, the workload-scope means may differ in the
     * last bits: Spark adds the partial sums of its input partitions, and how it packs a workload's files into
     * partitions depends on their sizes and the session's parallelism (here ranks 0 and 1 in one partition, rank 2 in
     * another), so the SQL itself gives other bits under another parallelism. telemetry_stream_ms sums the rows of a
     * join of streams × lines, in whatever order the join yields them, even from sorted input. Those rows are compared
     * to within 4 ulps; every other row (per rank, counts, keys, units, statuses) exactly.
     */
    @Test
    void telemetryRowsAreTheSql() {
        Dataset<Row> scanned = spark.table("iteration_telemetry");
        List<MetricRow> java = metricRows(TelemetryMetrics.rows(scanned));
        List<MetricRow> sqlInJavaOrder;
        try {
            scanned.repartition(1).sortWithinPartitions("rank", "source_file", "line", "ordinal")
                    .createOrReplaceTempView("iteration_telemetry");
            sqlInJavaOrder = metricRows(sqlQueries("telemetry.sql"));
        } finally {
            scanned.createOrReplaceTempView("iteration_telemetry");
        }
        assertEquals(6 * 4 + 5, sqlInJavaOrder.size()); // telemetry_overlap for the workload and 3 ranks; 5 streams (with aux2)
        assertSameValues(sqlInJavaOrder, java, r -> r.metric().equals("telemetry_stream_ms"));
        assertSameValues(metricRows(sqlQueries("telemetry.sql")), java,
                r -> r.scope().equals("workload") && !"iterations".equals(r.figure()));
    }

    /** The same rows; values bit for bit, or within 4 ulps for the rows summed in an order Spark leaves open. */
    static void assertSameValues(List<MetricRow> sql, List<MetricRow> java, java.util.function.Predicate<MetricRow> orderOpen) {
        assertEquals(sql.size(), java.size());
        Map<MetricRow, Double> javaValues = new HashMap<>();
        for (MetricRow r : java) javaValues.put(r.withValue(null), r.value());
        assertEquals(java.size(), javaValues.size(), "one row per key");
        for (MetricRow r : sql) {
            Double v = javaValues.get(r.withValue(null));
            assertTrue(v != null, () -> "no Java row like " + r);
            if (orderOpen.test(r)) assertTrue(Math.abs(v - r.value()) <= 4 * Math.ulp(r.value()), () -> r + " vs Java " + v);
            else assertEquals(r.value(), v, r::toString);
        }
    }

    @Test
    void collectiveHangsAreTheSql() {
        List<CollectiveHangs.Hang> java = CollectiveHangs.table(spark.table("flight_recorder"), spark.table("process_group_status"))
                .collectAsList().stream().map(CollectiveHangs.Hang::fromRow).toList();
        List<CollectiveHangs.Hang> sql = sqlHangs().collectAsList().stream().map(CollectiveHangs.Hang::fromRow).toList();
        assertEquals(9, sql.size()); // gpu_error: 5 stuck groups; lock_gil: 4 (FlightRecorderHangsTest)
        assertSameRows(sql, java, CollectiveHangs.Hang::toString);
    }

    /**
     * The same rows but one: for a workload with dumps and no root row (fr_one), hangs.sql's
     * {@code coalesce(size(r.ranks), 0)} is -1, not the 0 its header promises, because {@code size(NULL)} is -1 in
     * this session (spark.sql.legacy.sizeOfNull holds while ANSI mode is off); HangMetrics gives 0.
     */
    @Test
    void hangRowsAreTheSql() {
        sqlHangs().createOrReplaceTempView("collective_hangs");
        List<MetricRow> sql = new ArrayList<>();
        for (MetricRow r : metricRows(sqlQueries("hangs.sql"))) {
            if (r.workload().equals("fr_one") && r.metric().equals("hang_root_ranks")) {
                assertEquals(-1.0, r.value(), "the SQL's size(NULL)");
                r = r.withValue(0.0);
            }
            sql.add(r);
        }
        List<MetricRow> java = metricRows(HangMetrics.rows(
                CollectiveHangs.table(spark.table("flight_recorder"), spark.table("process_group_status")),
                spark.table("flight_recorder"), spark.table("process_group_status")));
        assertEquals(6, sql.size()); // two rows for each of gpu_error, lock_gil, fr_one
        assertSameRows(sql, java, MetricRow::toString);
    }

    /**
     * The same on the hand-built rows of SideFamiliesSparkTest, for what the real traces lack: segment events, a
     * device with segments and no trace, a null rank, a rank's status without group name, an entry without one, a
     * range row among the telemetry lines. (hangs.sql's -1 for "quiet", a workload without a root, as above.)
     */
    @Test
    void theSameOnHandBuiltEdgeCases() {
        SideFamiliesSparkTest.Inputs in = SideFamiliesSparkTest.inputs();
        Map<String, Dataset<Row>> views = Map.of("memory_events", in.memoryEvents(), "memory_segments", in.memorySegments(),
                "iteration_telemetry", in.telemetry(), "flight_recorder", in.flightRecorder(),
                "process_group_status", in.groups(), "workloads",
                spark.createDataFrame(List.of(RowFactory.create("w1"), RowFactory.create("w2"), RowFactory.create("ref"),
                        RowFactory.create("w"), RowFactory.create("quiet")), new StructType().add("workload", "string")));
        views.forEach((name, rows) -> rows.createOrReplaceTempView(name));
        try {
            assertSameRows(metricRows(sqlQueries("memory.sql")),
                    metricRows(MemoryMetrics.rows(in.memoryEvents(), in.memorySegments())), MetricRow::toString);
            // ref's lines are integers: every sum is exact in any order
            assertSameRows(metricRows(sqlQueries("telemetry.sql")), metricRows(TelemetryMetrics.rows(in.telemetry())),
                    MetricRow::toString);
            Dataset<Row> hangs = sqlHangs();
            assertSameRows(hangs.collectAsList().stream().map(CollectiveHangs.Hang::fromRow).toList(),
                    CollectiveHangs.table(in.flightRecorder(), in.groups()).collectAsList().stream()
                            .map(CollectiveHangs.Hang::fromRow).toList(), CollectiveHangs.Hang::toString);
            hangs.createOrReplaceTempView("collective_hangs");
            List<MetricRow> sql = metricRows(sqlQueries("hangs.sql")).stream()
                    .map(r -> r.workload().equals("quiet") && r.metric().equals("hang_root_ranks") && r.value() == -1.0
                            ? r.withValue(0.0) : r).toList();
            assertSameRows(sql, metricRows(HangMetrics.rows(CollectiveHangs.table(in.flightRecorder(), in.groups()),
                    in.flightRecorder(), in.groups())), MetricRow::toString);
        } finally {
            for (String t : views.keySet()) spark.read().parquet(archive.table(t)).createOrReplaceTempView(t);
        }
    }

    /** collective_hangs.sql's rows, in the table's schema. */
    static Dataset<Row> sqlHangs() {
        List<Dataset<Row>> queries = new ArrayList<>();
        for (String statement : statements("collective_hangs.sql")) {
            if (isQuery(statement)) queries.add(spark.sql(statement));
            else spark.sql(statement);
        }
        assertEquals(1, queries.size());
        return conformed(queries.get(0), FlightRecorderSchema.HANGS);
    }

    /** Every query of a metric file (its views created first), as rows of the metrics table's columns. */
    static Dataset<Row> sqlQueries(String file) {
        Dataset<Row> all = null;
        for (String statement : statements(file)) {
            if (!isQuery(statement)) {
                spark.sql(statement);
                continue;
            }
            Dataset<Row> rows = conformed(spark.sql(statement), MetricSchema.QUERY_SCHEMA);
            all = all == null ? rows : all.unionAll(rows);
        }
        return all;
    }

    /** Columns named by position and cast to the schema's types, as the metrics job conforms a query. */
    static Dataset<Row> conformed(Dataset<Row> rows, StructType schema) {
        Dataset<Row> named = rows.toDF(schema.fieldNames());
        Column[] cols = new Column[schema.size()];
        for (int i = 0; i < cols.length; i++) {
            StructField f = schema.fields()[i];
            cols[i] = named.col(f.name()).cast(f.dataType()).as(f.name());
        }
        return named.select(cols);
    }

    static List<MetricRow> metricRows(Dataset<Row> rows) {
        assertEquals(MetricSchema.QUERY_SCHEMA.fieldNames().length, rows.schema().fieldNames().length);
        return rows.collectAsList().stream().map(MetricRow::fromRow).toList();
    }

    /** Same multiset of rows; on a difference, the rows each side has that the other lacks. */
    static <T> void assertSameRows(List<T> expected, List<T> actual, Function<T, String> show) {
        Map<T, Integer> counts = new HashMap<>();
        for (T e : expected) counts.merge(e, 1, Integer::sum);
        for (T a : actual) counts.merge(a, -1, Integer::sum);
        StringBuilder diff = new StringBuilder();
        counts.forEach((row, n) -> {
            if (n != 0) diff.append(n > 0 ? "only in SQL (" + n + "): " : "only in Java (" + -n + "): ").append(show.apply(row)).append('\n');
        });
        if (diff.length() > 0) fail(expected.size() + " SQL rows, " + actual.size() + " Java rows:\n" + diff);
        assertTrue(expected.size() > 0);
    }

    /** A metric file's statements, comments removed (as the metrics job splits them: ';' at the end of a line). */
    static List<String> statements(String file) {
        String text;
        try (InputStream in = SideFamiliesSqlEquivalenceTest.class.getResourceAsStream("/metrics/" + file)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String stripped = line.strip();
            if (stripped.startsWith("--")) continue;
            current.append(line).append('\n');
            if (stripped.endsWith(";")) {
                String s = current.toString().strip();
                out.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) out.add(current.toString().strip());
        return out;
    }

    static boolean isQuery(String statement) {
        String s = statement.strip().toUpperCase(Locale.ROOT);
        return s.startsWith("SELECT") || s.startsWith("WITH") || s.startsWith("(");
    }
}
