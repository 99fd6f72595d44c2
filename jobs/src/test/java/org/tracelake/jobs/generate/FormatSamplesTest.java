package org.tracelake.jobs.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 30 "every reader can be tried from a clone": {@code generate --formats all} writes a small workload of each
 * format besides Kineto, and the project's own readers (the {@code tracelake} data source, as ingest reads) read
 * each back to the values its writer states — worked out by hand below.
 */
class FormatSamplesTest {
    private static final long START = 1_793_491_200_000_000_000L; // 2026-11-01T00:00:00Z

    @TempDir
    static Path dir;

    static Path archive;
    static SparkSession spark;

    @BeforeAll
    static void generate() {
        archive = dir.resolve("archive");
        assertEquals(ExitCodes.OK, Main.run("generate", "--formats", "all", "-o", archive.toString()));
        spark = SharedSpark.get();
    }

    private static Dataset<Row> read(String workload, String table) {
        return spark.read()
                .format("tracelake")
                .option("table", table)
                .load(archive.resolve(workload).toString());
    }

    private static Row one(Dataset<Row> df, String sql) {
        df.createOrReplaceTempView("sample");
        return spark.sql(sql).first();
    }

    @Test
    void everyFileIsReadAsItsFormat() {
        // one read of the whole archive, as refresh lists it: every trace ok in its own format, every card a card
        Map<String, String> formats = new TreeMap<>();
        for (Row r : read("", "trace_files").collectAsList()) {
            String status = r.getString(r.fieldIndex("status"));
            String format = r.getString(r.fieldIndex("format"));
            String workload = r.getString(r.fieldIndex("workload"));
            if ("workload_card".equals(format)) {
                assertEquals("skipped", status, r.toString());
                continue;
            }
            assertEquals("ok", status, () -> r.toString());
            formats.merge(workload, format, (a, b) -> a.equals(b) ? a : a + "+" + b);
        }
        assertEquals(
                new TreeMap<>(Map.of(
                        "dlrm-ddp-v100x4-legacy",
                        "kineto",
                        "llama3-8b-fsdp-h100x4",
                        "kineto",
                        "sample-nsys-a100x2",
                        "nsys_sqlite",
                        "sample-xspace-gpux2",
                        "xplane_pb",
                        "sample-rocprof-mi300x1",
                        "rocprofv3_json",
                        "sample-memory-snapshot-a100x1",
                        "memory_snapshot",
                        "sample-flight-recorder-hang-x4",
                        "flight_recorder",
                        "sample-aorta-telemetry-mi300x2",
                        "aorta_jsonl",
                        "sample-execution-trace-x2",
                        "pytorch_et")),
                formats);
    }

    @Test
    void nsightExport() {
        // per GPU a GEMM (1,000,000..1,400,000 ns from the session start on GPU 0) and an all-reduce kernel; one copy
        Row r = one(
                read("sample-nsys-a100x2", "events"),
                "SELECT count_if(cat = 'kernel'), count_if(activity_class = 'comm'),"
                        + " count(DISTINCT CASE WHEN cat = 'kernel' THEN rank END), count_if(activity_class = 'memcpy'),"
                        + " min_by(ts_ns, ts_ns) FILTER (WHERE cat = 'kernel'), max(dur_ns) FILTER (WHERE cat = 'kernel'),"
                        + " max(collective) FROM sample");
        assertEquals(4L, r.getLong(0));
        assertEquals(2L, r.getLong(1));
        assertEquals(2L, r.getLong(2)); // GPUs 0 and 1 are ranks 0 and 1
        assertEquals(1L, r.getLong(3));
        assertEquals(START + 1_000_000L, r.getLong(4));
        assertEquals(400_000L, r.getLong(5)); // 1,400,000 - 1,000,000
        assertEquals("all_reduce", r.getString(6));
    }

    @Test
    void xspace() {
        // per GPU: a fusion at anchor + line 1,000 ns + offset 0 for 300 µs, an all-reduce at offset 400 µs for 50 µs
        Row r = one(
                read("sample-xspace-gpux2", "events"),
                "SELECT count(*), count(DISTINCT rank), count_if(activity_class = 'comm'),"
                        + " min(ts_ns), max(dur_ns), max(ts_ns) FROM sample");
        assertEquals(4L, r.getLong(0));
        assertEquals(2L, r.getLong(1));
        assertEquals(2L, r.getLong(2));
        assertEquals(START + 1_000L, r.getLong(3));
        assertEquals(300_000L, r.getLong(4));
        assertEquals(START + 1_000L + 400_000L, r.getLong(5));
    }

    @Test
    void rocprof() {
        // three 200 µs GEMMs and one 80 µs RCCL kernel on GPU index 0: 680 µs of kernels
        Row r = one(
                read("sample-rocprof-mi300x1", "events"),
                "SELECT count(*), count_if(activity_class = 'comm'), sum(dur_ns),"
                        + " min(rank), max(rank), max(name) FILTER (WHERE activity_class = 'compute') FROM sample");
        assertEquals(4L, r.getLong(0));
        assertEquals(1L, r.getLong(1));
        assertEquals(680_000L, r.getLong(2)); // 3 × 200,000 + 80,000
        assertEquals(0, r.getInt(3));
        assertEquals(0, r.getInt(4));
        assertEquals("gemm_bf16()", r.getString(5));
    }

    @Test
    void memorySnapshot() {
        // four trace actions 10 µs apart; one 2 MiB segment with a 1 MiB active and a 1 MiB inactive block
        Row e = one(
                read("sample-memory-snapshot-a100x1", "memory_events"),
                "SELECT count(*), count_if(action = 'alloc'),"
                        + " sum(CASE WHEN action = 'alloc' THEN size END), max(ts_ns) - min(ts_ns), min(ts_ns) FROM sample");
        assertEquals(4L, e.getLong(0));
        assertEquals(2L, e.getLong(1));
        assertEquals(1_572_864L, e.getLong(2)); // 1 MiB + 512 KiB
        assertEquals(30_000L, e.getLong(3)); // 30 µs
        assertEquals(START, e.getLong(4));
        Row s = one(
                read("sample-memory-snapshot-a100x1", "memory_segments"),
                "SELECT count_if(row_kind = 'segment'),"
                        + " count_if(row_kind = 'block'), sum(CASE WHEN row_kind = 'segment' THEN size END),"
                        + " sum(CASE WHEN state = 'active_allocated' THEN size END) FROM sample");
        assertEquals(1L, s.getLong(0));
        assertEquals(2L, s.getLong(1));
        assertEquals(2_097_152L, s.getLong(2));
        assertEquals(1_048_576L, s.getLong(3));
    }

    @Test
    void flightRecorderDumpsOfAHang() {
        // ranks 0, 1, 3 hold collectives 1-5 (5 started, not completed); rank 2 only 1-4: 5 + 5 + 4 + 5 entries
        Row e = one(
                read("sample-flight-recorder-hang-x4", "flight_recorder"),
                "SELECT count(*), count(DISTINCT rank),"
                        + " count_if(collective_seq_id = 5), max(collective_seq_id) FILTER (WHERE rank = 2), max(op),"
                        + " count_if(state = 'started') FROM sample");
        assertEquals(19L, e.getLong(0));
        assertEquals(4L, e.getLong(1));
        assertEquals(3L, e.getLong(2));
        assertEquals(4L, e.getLong(3));
        assertTrue(e.getString(4).contains("all_reduce"), e.getString(4));
        assertEquals(3L, e.getLong(5));
        List<Row> status = read("sample-flight-recorder-hang-x4", "process_group_status")
                .orderBy("rank")
                .select("rank", "last_enqueued_collective", "last_completed_collective")
                .collectAsList();
        assertEquals("[[0,5,4], [1,5,4], [2,4,4], [3,5,4]]", status.toString());
    }

    @Test
    void aortaTelemetry() {
        // two ranks × three steps; step s lasts 40 + s ms with compute 30 ms and 6 ms of compute/reduce-scatter overlap
        Row r = one(
                read("sample-aorta-telemetry-mi300x2", "iteration_telemetry"),
                "SELECT count_if(row_kind = 'iteration'),"
                        + " count(DISTINCT rank), sum(total_ms) FILTER (WHERE row_kind = 'iteration'),"
                        + " max(overlap_compute_reducescatter_ms), max(compute_ms), count_if(row_kind = 'range') FROM sample");
        assertEquals(6L, r.getLong(0));
        assertEquals(2L, r.getLong(1));
        assertEquals(252.0, r.getDouble(2), 1e-9); // 2 × (41 + 42 + 43) = 2 × 126
        assertEquals(6.0, r.getDouble(3), 1e-9);
        assertEquals(30.0, r.getDouble(4), 1e-9);
        assertEquals(12L, r.getLong(5)); // two ranges per step
    }

    @Test
    void executionTraces() {
        // five nodes per rank; the all-reduce's record_param_comms carries 4,194,304 BFloat16 elements: 8 MiB
        Row r = one(
                read("sample-execution-trace-x2", "et_nodes"),
                "SELECT count(*), count(DISTINCT rank),"
                        + " max(in_bytes) FILTER (WHERE name = 'record_param_comms'), max(collective) FILTER (WHERE name = 'record_param_comms'),"
                        + " max(comm_seq) FROM sample");
        assertEquals(10L, r.getLong(0));
        assertEquals(2L, r.getLong(1));
        assertEquals(8_388_608L, r.getLong(2));
        assertEquals("all_reduce", r.getString(3));
        assertEquals(7L, r.getLong(4));
    }

    /**
     * The samples are whole workloads, not just readable files: the refresh ingests all nine (the two Kineto ones of
     * data/ too) and computes their metrics, and the hang analysis names rank 2 as missing from all-reduce 5.
     */
    @Test
    void aRefreshTakesEverySampleAndFindsTheHang() throws IOException {
        Path warehouse = dir.resolve("warehouse");
        Refresh.Result result = new Refresh(
                        new WarehouseTables(
                                spark,
                                new Warehouse(
                                        warehouse.toString(),
                                        spark.sparkContext().hadoopConfiguration())),
                        RunIds.newId(),
                        InputLimits.defaults())
                .run(archive.toString(), Set.of(), false);
        assertTrue(result.allOk(), result::toString);
        assertEquals(9, result.workloads().size());
        List<Row> hangs = spark.read()
                .format("iceberg")
                .load(warehouse.resolve("collective_hangs").toString())
                .select("workload", "collective_seq_id", "op", "missing_ranks", "holding_ranks")
                .collectAsList();
        assertEquals(1, hangs.size(), hangs::toString);
        Row hang = hangs.get(0);
        assertEquals("sample-flight-recorder-hang-x4", hang.getString(0));
        assertEquals(5L, hang.getLong(1));
        assertEquals("nccl:all_reduce", hang.getString(2));
        assertEquals(List.of(2), hang.getList(3));
        assertEquals(List.of(0, 1, 3), hang.getList(4));
    }

    @Test
    void anUnknownFormatIsAUsageError() throws IOException {
        assertEquals(
                ExitCodes.USAGE,
                Main.run(
                        "generate",
                        "--formats",
                        "kineto,parquet",
                        "-o",
                        dir.resolve("x").toString()));
    }
}
