package org.tracelake.jobs.readers.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.report.Comparison;
import org.tracelake.jobs.report.Reports;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * AORTA telemetry (FORMATS.md §4; no public sample exists, so the lines are written here in AORTA's exact shape):
 * two workloads × 2 ranks × 5 steps. "cand" has a bare {@code NaN} loss (rank 0, step 2) and a last line cut short
 * (rank 1: no newline, incomplete JSON). Every expected number is worked out by hand below from the values written.
 *
 * <pre>
 * ref  rank 0, step s=0..4: compute 10+2s, overlap compute_allreduce = compute_comm = 2+s, streams allreduce 4, aux 1
 *      rank 1, step s=0..4: compute 11+2s, overlap compute_reducescatter = compute_comm = 1+s, stream reducescatter 3
 *      pooled over the 10 lines: mean compute = (70+75)/10 = 14.5; mean overlap = (20+15)/10 = 3.5;
 *      overlap_ratio = 3.5/14.5 = 0.2413793103448276; mean allreduce overlap 20/10 = 2.0, reducescatter 15/10 = 1.5;
 *      per rank: 20/70 = 0.2857142857142857 and 15/75 = 0.2; streams: compute 14.5, allreduce 20/10 = 2.0,
 *      reducescatter 15/10 = 1.5, aux 5/10 = 0.5.
 * cand rank 0: compute 20, compute_allreduce = compute_comm = 8, stream allreduce 10
 *      rank 1: compute 10, compute_reducescatter = compute_comm = 4, stream reducescatter 6
 *      mean compute 15, mean overlap 6, overlap_ratio 0.4; allreduce overlap 4.0, reducescatter 2.0;
 *      streams: compute 15, allreduce 5.0, reducescatter 3.0, aux 0.
 * ratio_delta (cand − ref) = 0.4 − 0.2413793103448276 = 0.15862068965517243.
 * </pre>
 */
class TelemetryIngestTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static Refresh.Result result;
    static TestArchive archive;

    /** One AORTA line: two ranges (compute, then the comm stream), one marker, the overlap object. */
    static String line(
            int rank,
            int step,
            String loss,
            double compute,
            String commStream,
            double commMs,
            String overlapKey,
            double overlap,
            Double auxMs) {
        double total = compute + 5.0;
        String perStream = String.format(
                Locale.ROOT,
                "\"compute\":%s,\"%s\":%s%s",
                compute,
                commStream,
                commMs,
                auxMs == null ? "" : ",\"aux\":" + auxMs);
        return String.format(
                Locale.ROOT,
                "{\"rank\":%d,\"world_size\":2,\"epoch\":0,\"step\":%d,\"global_step\":%d,"
                        + "\"loss\":%s,\"grad_norm\":1.5,\"lr\":0.0001,\"profile\":{\"index\":%d,\"total_ms\":%s,"
                        + "\"ranges\":[{\"stream\":\"compute\",\"tag\":\"epoch0_step%d_forward\",\"start_ms\":0.0,\"end_ms\":%s,\"duration_ms\":%s,\"metadata\":{}},"
                        + "{\"stream\":\"%s\",\"tag\":\"all_reduce\",\"start_ms\":1.0,\"end_ms\":%s,\"duration_ms\":%s,\"metadata\":{\"function\":\"all_reduce\"}}],"
                        + "\"markers\":[{\"stream\":\"compute\",\"tag\":\"epoch0_step%d_end\",\"time_ms\":%s,\"metadata\":{}}],"
                        + "\"overlap\":{\"per_stream_ms\":{%s},\"overlap_ms\":{\"%s\":%s,\"compute_comm\":%s,\"idle\":0.5},"
                        + "\"active_segments\":[],\"utilization\":{\"compute\":%s}}}}\n",
                rank,
                step,
                step,
                loss,
                step,
                total,
                step,
                compute,
                compute,
                commStream,
                1.0 + commMs,
                commMs,
                step,
                total,
                perStream,
                overlapKey,
                overlap,
                overlap,
                compute / total);
    }

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        StringBuilder ref0 = new StringBuilder();
        StringBuilder ref1 = new StringBuilder();
        StringBuilder cand0 = new StringBuilder();
        StringBuilder cand1 = new StringBuilder();
        for (int s = 0; s < 5; s++) {
            String loss = String.format(Locale.ROOT, "%s", 1.0 - 0.1 * s);
            ref0.append(line(0, s, loss, 10 + 2 * s, "allreduce", 4.0, "compute_allreduce", 2 + s, 1.0));
            ref1.append(line(1, s, loss, 11 + 2 * s, "reducescatter", 3.0, "compute_reducescatter", 1 + s, null));
            cand0.append(line(0, s, s == 2 ? "NaN" : loss, 20, "allreduce", 10.0, "compute_allreduce", 8, null));
            cand1.append(line(1, s, loss, 10, "reducescatter", 6.0, "compute_reducescatter", 4, null));
        }
        cand1.append("{\"rank\":1,\"world_size\":2,\"epoch\":0,\"step\":5,\"global_step\":5,\"loss\":0.4,\"prof");
        archive.write("ref", "artifacts/rank_00_metrics.jsonl", ref0.toString())
                .write("ref", "artifacts/rank_01_metrics.jsonl", ref1.toString())
                .card("ref", "training", "llama", "amd_mi350x", 2)
                .write("cand", "artifacts/rank_00_metrics.jsonl", cand0.toString())
                .write("cand", "artifacts/rank_01_metrics.jsonl", cand1.toString())
                .card("cand", "training", "llama", "amd_mi350x", 2);
        result = archive.refresh(spark);
        spark.read()
                .format("iceberg")
                .load(archive.table("iteration_telemetry"))
                .createOrReplaceTempView("tel_t");
        spark.read().format("iceberg").load(archive.table("metrics")).createOrReplaceTempView("tel_metrics_t");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("tel_files_t");
    }

    @Test
    void rowsPerKind() {
        // 10 lines per workload kept (cand's sixth line is cut): one iteration, two range and one marker row each.
        Map<String, Long> n = new HashMap<>();
        for (Row r : spark.sql("SELECT workload, row_kind, count(*) FROM tel_t GROUP BY 1, 2")
                .collectAsList()) {
            n.put(r.getString(0) + "/" + r.getString(1), r.getLong(2));
        }
        assertEquals(
                Map.of(
                        "ref/iteration",
                        10L,
                        "ref/range",
                        20L,
                        "ref/marker",
                        10L,
                        "cand/iteration",
                        10L,
                        "cand/range",
                        20L,
                        "cand/marker",
                        10L),
                n);
    }

    @Test
    void iterationRowAsWritten() {
        Row r = spark.sql("SELECT rank, world_size, epoch, step, global_step, profile_index, loss, grad_norm, lr, "
                        + "total_ms, compute_ms, allreduce_ms, reducescatter_ms, aux_ms, overlap_compute_allreduce_ms, "
                        + "overlap_compute_reducescatter_ms, overlap_compute_comm_ms, idle_ms, utilization['compute'] "
                        + "FROM tel_t WHERE workload = 'ref' AND rank = 0 AND step = 3 AND row_kind = 'iteration'")
                .first();
        assertEquals(0, r.getInt(0));
        assertEquals(2, r.getInt(1));
        assertEquals(0L, r.getLong(2));
        assertEquals(3L, r.getLong(3));
        assertEquals(3L, r.getLong(4));
        assertEquals(3L, r.getLong(5));
        assertEquals(0.7, r.getDouble(6), 1e-12);
        assertEquals(1.5, r.getDouble(7));
        assertEquals(0.0001, r.getDouble(8));
        assertEquals(21.0, r.getDouble(9)); // compute 16 + 5
        assertEquals(16.0, r.getDouble(10));
        assertEquals(4.0, r.getDouble(11));
        assertEquals(0.0, r.getDouble(12)); // not written: AORTA lists only active streams
        assertEquals(1.0, r.getDouble(13));
        assertEquals(5.0, r.getDouble(14));
        assertEquals(0.0, r.getDouble(15)); // not written: AORTA writes only non-zero overlaps
        assertEquals(5.0, r.getDouble(16));
        assertEquals(0.5, r.getDouble(17));
        assertEquals(16.0 / 21.0, r.getDouble(18), 1e-12);
    }

    @Test
    void rangesCarryTheirStep() {
        Row r = spark.sql(
                        "SELECT stream, tag, start_ms, end_ms, duration_ms, metadata['function'] FROM tel_t "
                                + "WHERE workload = 'ref' AND rank = 1 AND step = 4 AND row_kind = 'range' AND stream <> 'compute'")
                .first();
        assertEquals("reducescatter", r.getString(0));
        assertEquals("all_reduce", r.getString(1));
        assertEquals(1.0, r.getDouble(2));
        assertEquals(4.0, r.getDouble(3));
        assertEquals(3.0, r.getDouble(4));
        assertEquals("all_reduce", r.getString(5));
    }

    @Test
    void nanLossIsKept() {
        Row r = spark.sql(
                        "SELECT loss FROM tel_t WHERE workload = 'cand' AND rank = 0 AND step = 2 AND row_kind = 'iteration'")
                .first();
        assertTrue(Double.isNaN(r.getDouble(0)));
    }

    @Test
    void truncatedLastLineIsReportedAndTheRestKept() {
        Row f = spark.sql(
                        "SELECT status, events_read, events_dropped, drop_reasons, error, rank, rank_source, metadata['lines'] "
                                + "FROM tel_files_t WHERE workload = 'cand' AND path LIKE '%rank_01_metrics.jsonl'")
                .first();
        assertEquals("error", f.getString(0));
        assertEquals(20L, f.getLong(1)); // 5 lines × (1 iteration + 2 ranges + 1 marker)
        assertEquals(1L, f.getLong(2));
        Map<String, Long> reasons = f.getJavaMap(3);
        assertEquals(1, reasons.size());
        assertTrue(reasons.keySet().iterator().next().startsWith("truncated last line"), reasons.toString());
        assertTrue(f.getString(4).contains("kept 20 events, dropped 1"), f.getString(4));
        assertEquals(1, f.getInt(5));
        assertEquals("distributed_info", f.getString(6)); // the line's own "rank"
        assertEquals("6", f.getString(7));
        assertEquals(
                5L,
                spark.sql("SELECT count(*) FROM tel_t WHERE workload = 'cand' AND rank = 1 AND row_kind = 'iteration'")
                        .first()
                        .getLong(0));
        WorkloadIngest cand = result.workloads().stream()
                .filter(w -> w.workload().equals("cand"))
                .findFirst()
                .orElseThrow();
        assertTrue(cand.ok(), "a dropped line does not stop the workload");
        assertFalse(cand.clean());
        List<Row> ok = spark.sql("SELECT status FROM tel_files_t WHERE workload = 'ref' AND format = 'aorta_jsonl'")
                .collectAsList();
        assertEquals(2, ok.size());
        ok.forEach(r -> assertEquals("ok", r.getString(0)));
    }

    private double metric(String workload, String metric, String figure, String scope, Integer rank, String key) {
        String sql =
                "SELECT value, status FROM tel_metrics_t WHERE workload = '" + workload + "' AND metric = '" + metric
                        + "' AND scope = '" + scope + "'"
                        + (figure == null ? " AND figure IS NULL" : " AND figure = '" + figure + "'")
                        + (rank == null ? "" : " AND rank = " + rank) + (key == null ? "" : " AND key = '" + key + "'");
        List<Row> rows = spark.sql(sql).collectAsList();
        assertEquals(1, rows.size(), sql);
        assertEquals("ok", rows.get(0).getString(1));
        return rows.get(0).getDouble(0);
    }

    @Test
    void overlapMetricsPooledOverRanksAndSteps() {
        assertEquals(
                0.2413793103448276, metric("ref", "telemetry_overlap", "overlap_ratio", "workload", null, null), 1e-12);
        assertEquals(3.5, metric("ref", "telemetry_overlap", "mean_overlap_ms", "workload", null, null), 1e-12);
        assertEquals(14.5, metric("ref", "telemetry_overlap", "mean_compute_ms", "workload", null, null), 1e-12);
        assertEquals(
                2.0, metric("ref", "telemetry_overlap", "mean_allreduce_overlap_ms", "workload", null, null), 1e-12);
        assertEquals(
                1.5,
                metric("ref", "telemetry_overlap", "mean_reducescatter_overlap_ms", "workload", null, null),
                1e-12);
        assertEquals(10.0, metric("ref", "telemetry_overlap", "iterations", "workload", null, null));
        assertEquals(0.2857142857142857, metric("ref", "telemetry_overlap", "overlap_ratio", "rank", 0, null), 1e-12);
        assertEquals(0.2, metric("ref", "telemetry_overlap", "overlap_ratio", "rank", 1, null), 1e-12);

        assertEquals(0.4, metric("cand", "telemetry_overlap", "overlap_ratio", "workload", null, null), 1e-12);
        assertEquals(6.0, metric("cand", "telemetry_overlap", "mean_overlap_ms", "workload", null, null), 1e-12);
        assertEquals(15.0, metric("cand", "telemetry_overlap", "mean_compute_ms", "workload", null, null), 1e-12);
        assertEquals(
                4.0, metric("cand", "telemetry_overlap", "mean_allreduce_overlap_ms", "workload", null, null), 1e-12);
        assertEquals(
                2.0,
                metric("cand", "telemetry_overlap", "mean_reducescatter_overlap_ms", "workload", null, null),
                1e-12);
    }

    @Test
    void perStreamMeans() {
        assertEquals(14.5, metric("ref", "telemetry_stream_ms", null, "workload", null, "compute"), 1e-12);
        assertEquals(2.0, metric("ref", "telemetry_stream_ms", null, "workload", null, "allreduce"), 1e-12);
        assertEquals(1.5, metric("ref", "telemetry_stream_ms", null, "workload", null, "reducescatter"), 1e-12);
        assertEquals(0.5, metric("ref", "telemetry_stream_ms", null, "workload", null, "aux"), 1e-12);
        assertEquals(15.0, metric("cand", "telemetry_stream_ms", null, "workload", null, "compute"), 1e-12);
        assertEquals(5.0, metric("cand", "telemetry_stream_ms", null, "workload", null, "allreduce"), 1e-12);
        assertEquals(3.0, metric("cand", "telemetry_stream_ms", null, "workload", null, "reducescatter"), 1e-12);
        assertEquals(0.0, metric("cand", "telemetry_stream_ms", null, "workload", null, "aux"), 1e-12);
    }

    /** AORTA's overlap_report.py comparison (reference, candidate, ratio_delta), as report --compare gives it. */
    @Test
    void comparisonForReportCompare() throws java.io.IOException {
        Reports reports = new Reports(new WarehouseTables(
                spark,
                new Warehouse(archive.warehouse.toString(), spark.sparkContext().hadoopConfiguration())));
        Comparison.Row overlap = reports.compare("ref", "cand").rows().stream()
                .filter(r -> r.metric().equals("telemetry_overlap") && "overlap_ratio".equals(r.figure()))
                .findFirst()
                .orElseThrow();
        assertEquals(0.2413793103448276, overlap.reference(), 1e-12);
        assertEquals(0.4, overlap.candidate(), 1e-12);
        assertTrue(overlap.hasDelta());
        assertEquals(0.15862068965517243, overlap.ratioDelta(), 1e-12);
        Comparison.Row iterations = reports.compare("ref", "cand").rows().stream()
                .filter(r -> r.metric().equals("telemetry_overlap") && "iterations".equals(r.figure()))
                .findFirst()
                .orElseThrow();
        assertEquals(10.0, iterations.reference(), 0.0);
        assertEquals(10.0, iterations.candidate(), 0.0);
    }
}
