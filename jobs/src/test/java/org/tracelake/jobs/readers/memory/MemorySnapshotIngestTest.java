package org.tracelake.jobs.readers.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The two real CUDA memory snapshots of ../shared/traces/memory-snapshot through the main job (ingest, metrics,
 * swap). Every expected number was computed independently with python3: the file unpickled with a
 * {@code pickle.Unpickler} whose {@code find_class} raises, then MemoryViz's replay written out by hand
 * (addr_to_alloc; unmatched free_completed and final active_* blocks without a live traced alloc, at block
 * {@code size}, are initially allocated; +size on alloc, −size on free_completed; reserved = Σ segments.total_size,
 * no segment events in either file), and the other figures as METRICS.md §4 defines them.
 */
@RealTraces({"memory-snapshot/cs336-bcrafton", "memory-snapshot/cs336-magma27-windows"})
class MemorySnapshotIngestTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Refresh.Result result;

    static final double MIB = 1024.0 * 1024.0;

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared("bcrafton", "memory-snapshot/cs336-bcrafton")
                .card("bcrafton", "training", "transformer", "nvidia_rtx", 1)
                .copyShared("magma27", "memory-snapshot/cs336-magma27-windows")
                .card("magma27", "training", "transformer", "nvidia_rtx", 1);
        result = archive.refresh(spark);
        spark.read().format("iceberg").load(archive.table("memory_events")).createOrReplaceTempView("mem_ev_t");
        spark.read().format("iceberg").load(archive.table("memory_segments")).createOrReplaceTempView("mem_seg_t");
        spark.read().format("iceberg").load(archive.table("metrics")).createOrReplaceTempView("mem_metrics_t");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("mem_files_t");
    }

    @Test
    void bothWorkloadsAreCommittedCleanly() {
        assertEquals(2, result.workloads().size());
        result.workloads().forEach(w -> assertTrue(w.clean(), () -> w.workload() + ": " + w.problems()));
        List<Row> files = spark.sql("SELECT workload, format, status, rank, rank_source, metadata['trace_entries'] "
                        + "FROM mem_files_t WHERE format = 'memory_snapshot' ORDER BY workload")
                .collectAsList();
        assertEquals(2, files.size());
        for (Row f : files) {
            assertEquals("ok", f.getString(2));
            assertEquals(0, f.getInt(3)); // memory_snapshot.pickle: no rank in the name, first of its kind
            assertEquals("file_order", f.getString(4));
        }
        assertEquals("{cuda:0=6486}", files.get(0).getString(5));
        assertEquals("{cuda:0=5163}", files.get(1).getString(5));
    }

    @Test
    void traceEntriesPerDeviceAndAction() {
        // python: Counter(e['action'] for e in s['device_traces'][0]); len(...) per file.
        Map<String, Long> counts = new HashMap<>();
        for (Row r : spark.sql("SELECT workload, device, action, count(*) FROM mem_ev_t GROUP BY 1, 2, 3")
                .collectAsList()) {
            counts.put(r.getString(0) + "/" + r.getInt(1) + "/" + r.getString(2), r.getLong(3));
        }
        assertEquals(
                Map.of(
                        "bcrafton/0/alloc",
                        2162L,
                        "bcrafton/0/free_requested",
                        2162L,
                        "bcrafton/0/free_completed",
                        2162L,
                        "magma27/0/alloc",
                        1721L,
                        "magma27/0/free_requested",
                        1721L,
                        "magma27/0/free_completed",
                        1721L),
                counts);
        assertEquals(
                6486L,
                spark.sql("SELECT count(*) FROM mem_ev_t WHERE workload = 'bcrafton' AND device = 0")
                        .first()
                        .getLong(0));
        assertEquals(
                5163L,
                spark.sql("SELECT count(*) FROM mem_ev_t WHERE workload = 'magma27' AND device = 0")
                        .first()
                        .getLong(0));
    }

    @Test
    void firstEntryAsWritten() {
        // python: s['device_traces'][0][0] of each file.
        Row b = spark.sql("SELECT action, address, size, stream, time_us, ts_ns, frame, frame_count FROM mem_ev_t "
                        + "WHERE workload = 'bcrafton' AND ordinal = 0")
                .first();
        assertEquals("alloc", b.getString(0));
        assertEquals(126972587876352L, b.getLong(1));
        assertEquals(512L, b.getLong(2));
        assertEquals(0L, b.getLong(3));
        assertEquals(1773270053858957L, b.getLong(4));
        assertEquals(1773270053858957000L, b.getLong(5));
        // The innermost Python frame of a 50-frame C++/Python stack.
        assertEquals("fake_train /home/brian/Desktop/assignment2-systems/benchmarking_script.py:49", b.getString(6));
        Row m = spark.sql("SELECT address, size, frame FROM mem_ev_t WHERE workload = 'magma27' AND ordinal = 0")
                .first();
        assertEquals(47294971904L, m.getLong(0));
        assertEquals(25165824L, m.getLong(1));
        assertEquals("forward D:\\Dev\\assignment2-systems\\cs336-basics\\cs336_basics\\model.py:54", m.getString(2));
    }

    @Test
    void finalSegmentsAndBlocks() {
        // python: len(segments), sum(len(seg['blocks'])), sum(total_size) for device 0.
        Map<String, Long> counts = new HashMap<>();
        for (Row r : spark.sql("SELECT workload, row_kind, count(*), sum(size) FROM mem_seg_t GROUP BY 1, 2")
                .collectAsList()) {
            counts.put(r.getString(0) + "/" + r.getString(1), r.getLong(2));
            if (r.getString(1).equals("segment")) {
                assertEquals(r.getString(0).equals("bcrafton") ? 4238344192L : 14180941824L, r.getLong(3));
            }
        }
        assertEquals(
                Map.of("bcrafton/segment", 96L, "bcrafton/block", 550L, "magma27/segment", 216L, "magma27/block", 455L),
                counts);
    }

    private double metric(String workload, String metric) {
        Row r = spark.sql("SELECT value, status FROM mem_metrics_t WHERE workload = '" + workload + "' AND metric = '"
                        + metric + "' AND scope = 'workload'")
                .first();
        assertEquals("ok", r.getString(1), metric);
        return r.getDouble(0);
    }

    @Test
    void peaksMatchMemoryViz() {
        // FORMATS.md §5 and the issue: 3675.2 / 4042.0 MiB and 13282.6 / 13524.0 MiB.
        assertEquals(3853700352.0, metric("bcrafton", "peak_allocated_bytes"));
        assertEquals(3675.2, Math.round(metric("bcrafton", "peak_allocated_bytes") / MIB * 10) / 10.0);
        assertEquals(4238344192.0, metric("bcrafton", "peak_reserved_bytes"));
        assertEquals(4042.0, Math.round(metric("bcrafton", "peak_reserved_bytes") / MIB * 10) / 10.0);
        assertEquals(13927831556.0, metric("magma27", "peak_allocated_bytes"));
        assertEquals(13282.6, Math.round(metric("magma27", "peak_allocated_bytes") / MIB * 10) / 10.0);
        assertEquals(14180941824.0, metric("magma27", "peak_reserved_bytes"));
        assertEquals(13524.0, Math.round(metric("magma27", "peak_reserved_bytes") / MIB * 10) / 10.0);
    }

    @Test
    void theOtherMemoryFigures() {
        // python, per METRICS.md §4: efficiency = peak / reserved then; fragmentation = 1 - max/sum of inactive
        // blocks (103 blocks, 1165472768 B, largest 155189248 / 226 blocks, 12803188224 B, largest 329252864);
        // waste = Σ size - requested_size of active blocks; rate = allocs / (last - first time_us) s.
        assertEquals(0.9092466721494619, metric("bcrafton", "memory_efficiency"), 1e-12);
        assertEquals(0.8668443808718832, metric("bcrafton", "fragmentation"), 1e-12);
        assertEquals(8453120.0, metric("bcrafton", "internal_waste_bytes"));
        assertEquals(2162.0, metric("bcrafton", "alloc_count"));
        assertEquals(2162.0, metric("bcrafton", "free_count"));
        assertEquals(2162 / 0.050647, metric("bcrafton", "alloc_rate_per_s"), 1e-6);
        assertEquals(0.0, metric("bcrafton", "oom_count"));
        assertEquals(154389504.0, metric("bcrafton", "largest_alloc_bytes"));

        assertEquals(0.982151378156588, metric("magma27", "memory_efficiency"), 1e-12);
        assertEquals(0.9742835254594786, metric("magma27", "fragmentation"), 1e-12);
        assertEquals(3834364.0, metric("magma27", "internal_waste_bytes"));
        assertEquals(1721.0, metric("magma27", "alloc_count"));
        assertEquals(1721.0, metric("magma27", "free_count"));
        assertEquals(1721 / 0.248181, metric("magma27", "alloc_rate_per_s"), 1e-6);
        assertEquals(0.0, metric("magma27", "oom_count"));
        assertEquals(327680000.0, metric("magma27", "largest_alloc_bytes"));
    }

    @Test
    void perDeviceRowsAndUnitNote() {
        Row r = spark.sql("SELECT value, unit, rank, key FROM mem_metrics_t WHERE workload = 'bcrafton' "
                        + "AND metric = 'peak_allocated_bytes' AND scope = 'rank'")
                .first();
        assertEquals(3853700352.0, r.getDouble(0));
        assertEquals("bytes (requested sizes)", r.getString(1));
        assertEquals(0, r.getInt(2));
        assertEquals("cuda:0", r.getString(3));
    }

    @Test
    void noTelemetryMeansAReasonNotAValue() {
        Row r = spark.sql("SELECT value, status, reason FROM mem_metrics_t WHERE workload = 'bcrafton' "
                        + "AND metric = 'telemetry_overlap' AND figure = 'overlap_ratio' AND scope = 'workload'")
                .first();
        assertNull(r.get(0));
        assertEquals("missing_input", r.getString(1));
        assertTrue(r.getString(2).contains("no AORTA iteration telemetry"));
    }
}
