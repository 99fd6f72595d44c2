package org.tracelake.jobs.readers.flightrecorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.report.HtmlReport;
import org.tracelake.jobs.report.ReportModel;
import org.tracelake.jobs.report.ReportQueries;
import org.tracelake.jobs.report.TextReport;
import org.tracelake.jobs.sql.SqlCookbookTest;
import org.tracelake.jobs.testing.DocQuestion;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The two real NVRx Flight Recorder captures of ../shared/traces/flight-recorder (16 ranks each, dumps named
 * {@code _dump_<rank>}) through the main job: ingest into flight_recorder / process_group_status, the attribution
 * into collective_hangs, the metric rows. The root rows are compared with each folder's {@code *_reference.txt}
 * (NVRx's own analysis, parsed here); the other values were read off the dumps by hand with python3's pickle.
 */
@RealTraces({"flight-recorder/nvrx-gpu-error-1st", "flight-recorder/nvrx-lock-gil-1st"})
class FlightRecorderHangsTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static Refresh.Result result;
    static TestArchive archive;

    static final String GPU = "gpu_error";
    static final String GIL = "lock_gil";

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared(GPU, "flight-recorder/nvrx-gpu-error-1st")
                .card(GPU, "training", "moe", "nvidia_h100", 16)
                .copyShared(GIL, "flight-recorder/nvrx-lock-gil-1st")
                .card(GIL, "training", "moe", "nvidia_h100", 16);
        result = archive.refresh(spark);
        for (String t :
                List.of("flight_recorder", "process_group_status", "collective_hangs", "metrics", "trace_files")) {
            spark.read().format("iceberg").load(archive.table(t)).createOrReplaceTempView("fr_t_" + t);
        }
    }

    /** One reference row: process group name, description, op, size, dtype, missing ranks. */
    record Expected(String pgName, String desc, String op, String size, String dtype, List<Integer> missing) {}

    /**
     * The table of a {@code *_reference.txt}: "PGID | Process Group Desc | Op Type | Size | Dtype | Missing Ranks",
     * one row per root; the description column is NVRx's "desc,index" (the part before the comma is pg_config's desc).
     */
    static List<Expected> reference(String folder) throws IOException {
        Path dir = TestArchive.shared("flight-recorder/" + folder);
        Path file;
        try (var files = Files.list(dir)) {
            file = files.filter(f -> f.getFileName().toString().endsWith("_reference.txt"))
                    .findFirst()
                    .orElseThrow();
        }
        List<Expected> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split("\\|");
            if (f.length != 6 || f[0].strip().equals("PGID")) continue;
            List<Integer> missing = new ArrayList<>();
            for (String r : f[5].strip().split(",")) missing.add(Integer.parseInt(r.strip()));
            out.add(new Expected(
                    f[0].strip(), f[1].strip().split(",")[0], f[2].strip(), f[3].strip(), f[4].strip(), missing));
        }
        return out;
    }

    static List<Expected> roots(String workload) {
        List<Expected> out = new ArrayList<>();
        for (Row r : spark.sql(
                        "SELECT pg_name, pg_desc, op, input_size, dtype, missing_ranks FROM fr_t_collective_hangs "
                                + "WHERE workload = '" + workload + "' AND is_root ORDER BY created_ns")
                .collectAsList()) {
            out.add(new Expected(
                    r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getList(5)));
        }
        return out;
    }

    @Test
    void rootRowsAreExactlyTheReferenceRows() throws IOException {
        List<Expected> gpu = reference("nvrx-gpu-error-1st");
        assertEquals(
                List.of(new Expected(
                        "74", "EXPERT_MODEL_PARALLEL_GROUP", "nccl:all_to_all", "4027x5120", "BFloat16", List.of(12))),
                gpu); // the parse itself, checked against the file as a person reads it
        assertEquals(gpu, roots(GPU));
        List<Expected> gil = reference("nvrx-lock-gil-1st");
        assertEquals(1, gil.size());
        assertEquals(List.of(9, 14), gil.get(0).missing());
        assertEquals(gil, roots(GIL));
    }

    @Test
    void aNonRootRowAsReadOffTheDumps() {
        // gpu_error, group 58 (TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP, ranks [12, 13, 14, 15], pg_id 8): pg_status['8']
        // says rank 12 enqueued up to 6871 and completed 6869; 13 and 15 completed 6871, 14 completed 6869, all three
        // enqueued 6872. Candidate 6872 = 6871 + 1: rank 12 is missing (6871 < 6872). Ranks 13, 14, 15 hold entry
        // collective_seq_id 6872: nccl:all_reduce [[120]] ['Float'], created 1758610505930321311 (13),
        // 1758610505928237574 (14), 1758610505929204608 (15). Candidate 6870 has nobody missing (12 enqueued 6871).
        Row r = spark.sql(
                        "SELECT pg_desc, pg_id, op, input_size, dtype, created_ns, missing_ranks, holding_ranks, is_root "
                                + "FROM fr_t_collective_hangs WHERE workload = 'gpu_error' AND pg_name = '58'")
                .first();
        assertEquals("TENSOR_AND_DATA_PARALLEL_GROUP_WITH_CP", r.getString(0));
        assertEquals(8L, r.getLong(1));
        assertEquals("nccl:all_reduce", r.getString(2));
        assertEquals("120", r.getString(3));
        assertEquals("Float", r.getString(4));
        assertEquals(1758610505928237574L, r.getLong(5));
        assertEquals(List.of(12), r.getList(6));
        assertEquals(List.of(13, 14, 15), r.getList(7));
        assertFalse(r.getBoolean(8)); // rank 12's first stuck collective is group 74's, created 2.65 ms earlier
        assertEquals(
                1L,
                spark.sql("SELECT count(*) FROM fr_t_collective_hangs WHERE workload = 'gpu_error' AND pg_name = '58'")
                        .first()
                        .getLong(0));
        // Every stuck group of each workload (group name, seq): five groups behind rank 12, four behind ranks 9 / 14.
        Set<String> gpu = new TreeSet<>();
        for (Row x : spark.sql("SELECT concat(pg_name, '#', collective_seq_id) FROM fr_t_collective_hangs "
                        + "WHERE workload = 'gpu_error'")
                .collectAsList()) gpu.add(x.getString(0));
        assertEquals(Set.of("41#42818", "58#6872", "69#3456", "74#20537", "94#3430"), gpu);
    }

    @Test
    void everyDumpIsReadAndTheLogBesideIsKept() {
        List<Row> files = spark.sql(
                        "SELECT workload, rank, rank_source, status, metadata['entries'], metadata['fault_log'] "
                                + "FROM fr_t_trace_files WHERE format = 'flight_recorder' ORDER BY workload, rank")
                .collectAsList();
        assertEquals(32, files.size());
        for (int i = 0; i < 32; i++) {
            Row f = files.get(i);
            assertEquals(i % 16, f.getInt(1)); // _dump_<rank>: the name's trailing number
            assertEquals("file_name", f.getString(2));
            assertEquals("ok", f.getString(3), f.toString());
        }
        assertEquals("27", files.get(12).getString(4)); // gpu_error rank 12: len(entries) = 27
        assertTrue(
                files.get(0).getString(5).startsWith("Fault ranks: [12, 14]"),
                files.get(0).getString(5));
        assertTrue(
                files.get(16).getString(5).contains("Rank 9, fault_type: LOCK_GIL"),
                files.get(16).getString(5));
        assertEquals(
                1L,
                spark.sql("SELECT count(*) FROM fr_t_trace_files WHERE workload = 'gpu_error' "
                                + "AND path LIKE '%fault_injection.log' AND status = 'skipped'")
                        .first()
                        .getLong(0));
        result.workloads().forEach(w -> assertTrue(w.clean(), () -> w.workload() + ": " + w.problems()));
    }

    @Test
    void aRankWithoutEntriesStillGivesItsStatus() {
        // lock_gil _dump_9: entries [], 13 pg_config groups, 13 pg_status ids; pg_status['11'] (group 72's id, ranks
        // [8, 9, 10, 11, 12, 13, 14, 15]) is enqueued = completed = 45264, so it is missing from 45265, which ranks 8,
        // 10-13 and 15 enqueued (up to 45267, completed 45264).
        assertEquals(
                0L,
                spark.sql("SELECT count(*) FROM fr_t_flight_recorder WHERE workload = 'lock_gil' AND rank = 9")
                        .first()
                        .getLong(0));
        Row s = spark.sql(
                        "SELECT count(pg_id), count(pg_name), max(CASE WHEN pg_id = 11 THEN last_enqueued_collective END), "
                                + "max(CASE WHEN pg_id = 11 THEN last_completed_collective END), "
                                + "max(CASE WHEN pg_id = 11 THEN last_started_collective END), "
                                + "max(CASE WHEN pg_name = '72' THEN array_join(pg_ranks, ',') END) "
                                + "FROM fr_t_process_group_status WHERE workload = 'lock_gil' AND rank = 9")
                .first();
        assertEquals(13L, s.getLong(0));
        assertEquals(13L, s.getLong(1));
        assertEquals(45264L, s.getLong(2));
        assertEquals(45264L, s.getLong(3));
        assertEquals(-1L, s.getLong(4));
        assertEquals("8,9,10,11,12,13,14,15", s.getString(5));
        // A rank with entries links its pg_status to its pg_config: gpu_error rank 12, pg_id 11 = group 74.
        Row linked = spark.sql("SELECT pg_name, pg_desc, last_enqueued_collective, last_completed_collective "
                        + "FROM fr_t_process_group_status WHERE workload = 'gpu_error' AND rank = 12 AND pg_id = 11")
                .first();
        assertEquals("74", linked.getString(0));
        assertEquals("EXPERT_MODEL_PARALLEL_GROUP", linked.getString(1));
        assertEquals(20536L, linked.getLong(2));
        assertEquals(20529L, linked.getLong(3));
    }

    @Test
    void entriesAsWritten() {
        // gpu_error _dump_12, the last entry (ordinal 26): record_id 90109, pg_id 11, ('74',
        // 'EXPERT_MODEL_PARALLEL_GROUP'),
        // collective_seq_id 20536, nccl:all_to_all, input [[4096, 5120]] BFloat16, output [[4099, 5120]], scheduled,
        // created 1758610505924024825, no started/completed times, timeout 600000 ms, thread pt_autograd_4.
        Row e = spark.sql("SELECT record_id, pg_id, pg_name, pg_desc, collective_seq_id, p2p_seq_id, op, is_p2p, "
                        + "input_sizes, input_dtypes, output_sizes, state, time_created_ns, time_started_ns, timeout_ms, thread_name "
                        + "FROM fr_t_flight_recorder WHERE workload = 'gpu_error' AND rank = 12 AND ordinal = 26")
                .first();
        assertEquals(90109L, e.getLong(0));
        assertEquals(11L, e.getLong(1));
        assertEquals("74", e.getString(2));
        assertEquals("EXPERT_MODEL_PARALLEL_GROUP", e.getString(3));
        assertEquals(20536L, e.getLong(4));
        assertEquals(0L, e.getLong(5));
        assertEquals("nccl:all_to_all", e.getString(6));
        assertFalse(e.getBoolean(7));
        assertEquals(
                List.of(List.of(4096L, 5120L)),
                e.getList(8).stream()
                        .map(x -> ((scala.collection.Seq<?>) x))
                        .map(x -> scala.jdk.javaapi.CollectionConverters.asJava(x))
                        .toList());
        assertEquals(List.of("BFloat16"), e.getList(9));
        assertEquals("scheduled", e.getString(11));
        assertEquals(1758610505924024825L, e.getLong(12));
        assertNull(e.get(13));
        assertEquals(600000L, e.getLong(14));
        assertEquals("pt_autograd_4", e.getString(15));
        assertEquals(
                27L,
                spark.sql("SELECT count(*) FROM fr_t_flight_recorder WHERE workload = 'gpu_error' AND rank = 12")
                        .first()
                        .getLong(0));
    }

    @Test
    void reportHasAHangSection() throws IOException {
        Warehouse wh =
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        ReportModel m = new ReportQueries(new WarehouseTables(spark, wh)).build(GIL, null, 100);
        String text = TextReport.render(m);
        String hang = text.substring(text.indexOf("\nHang\n"), text.indexOf("\nEvery workload-scope metric"));
        // The root row first (group 72, 45265, missing 9 and 14), then the three other stuck groups; the fault log.
        List<String> lines = hang.lines()
                .filter(l -> l.contains("nccl:") && !l.contains("hang_root_ranks"))
                .toList();
        assertEquals(4, lines.size(), hang);
        assertTrue(
                lines.get(0).contains("ROOT")
                        && lines.get(0).contains("72")
                        && lines.get(0).contains("45265")
                        && lines.get(0).contains("9,14"),
                lines.get(0));
        assertTrue(
                hang.contains("fault log (fault_injection.log)") && hang.contains("Rank 14, fault_type: LOCK_GIL"),
                hang);
        // The matrix: 16 ranks, rank 9's cell of group 72 is enqueued 45264 / completed 45264.
        assertEquals(16, m.hang().ranks().size());
        ReportModel.HangCell cell = m.hang().cells().stream()
                .filter(c -> c.rank() == 9 && c.group().equals("72 EXPERT_MODEL_PARALLEL_GROUP"))
                .findFirst()
                .orElseThrow();
        assertEquals(45264L, cell.enqueued());
        assertEquals(45264L, cell.completed());
        String html = HtmlReport.render(m);
        assertTrue(
                html.contains("\"hang\":{") && html.contains("EXPERT_MODEL_PARALLEL_GROUP"), "hang data on the page");
    }

    /** docs/SQL.md question 15 (a ```sql flight-recorder block, not run on data/) gives its documented answer here. */
    @Test
    void documentedQuestionGivesItsAnswer() throws IOException {
        DocQuestion.Answer a = DocQuestion.run(spark, archive.warehouse.toString(), "flight-recorder");
        assertTrue(a.ok(), a.error());
        String why = SqlCookbookTest.differs(a.documented(), a.actual());
        assertNull(why, () -> why + "\nactual:\n" + a.actual());
    }

    @Test
    void metricRows() {
        List<Row> rows = spark.sql(
                        "SELECT workload, metric, value, status, reason FROM fr_t_metrics "
                                + "WHERE metric IN ('hang_root_ranks', 'hung_groups') AND scope = 'workload' ORDER BY workload, metric")
                .collectAsList();
        assertEquals(4, rows.size());
        assertEquals(1.0, rows.get(0).getDouble(2)); // gpu_error hang_root_ranks: rank 12
        assertTrue(rows.get(0).getString(4).startsWith("ranks 12;"), rows.get(0).getString(4));
        assertEquals(5.0, rows.get(1).getDouble(2)); // gpu_error hung_groups: 41, 58, 69, 74, 94
        assertEquals(2.0, rows.get(2).getDouble(2)); // lock_gil: ranks 9 and 14
        assertTrue(
                rows.get(2).getString(4).startsWith("ranks 9, 14;"), rows.get(2).getString(4));
        assertEquals(4.0, rows.get(3).getDouble(2)); // lock_gil: 37, 38, 64, 72
        for (Row r : rows) assertEquals("ok", r.getString(3));
    }
}
