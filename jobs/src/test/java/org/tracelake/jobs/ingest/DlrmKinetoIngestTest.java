package org.tracelake.jobs.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * ../shared/traces/kineto/dlrm-8rank-v100: eight ranks of one DLRM step on V100s, older PyTorch (no collective
 * args on kernels). Expected values were read off the raw files with Python's json module: per file the count
 * of events per "ph", the NCCL kernels by name and stream, and the ProfilerStep#10 window.
 */
@RealTraces("kineto/dlrm-8rank-v100")
class DlrmKinetoIngestTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static List<WorkloadIngest> results;

    @BeforeAll
    static void ingest() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp)
                .copyShared("dlrm", "kineto/dlrm-8rank-v100")
                .card("dlrm", "training", "dlrm", "NVIDIA V100", 8);
        results = archive.ingest(spark);
        spark.read().format("iceberg").load(archive.table("events")).createOrReplaceTempView("dlrm_events");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("dlrm_files");
    }

    @Test
    void workloadIngestsCleanly() {
        assertEquals(1, results.size());
        assertTrue(results.get(0).ok(), () -> String.join("; ", results.get(0).problems()));
    }

    @Test
    void rankComesFromDistributedInfo() {
        // worker<N>_step_12.<epoch>.pt.trace.json.gz holds distributedInfo.rank = N.
        List<Row> rows = spark.sql(
                        "SELECT path, rank, rank_source FROM dlrm_files WHERE format = 'kineto' ORDER BY rank")
                .collectAsList();
        assertEquals(8, rows.size());
        for (int r = 0; r < 8; r++) {
            assertEquals(r, rows.get(r).getInt(1));
            assertTrue(rows.get(r).getString(0).contains("worker" + r + "_step_12"));
            assertEquals("distributed_info", rows.get(r).getString(2));
        }
    }

    @Test
    void eventsPerPhaseMatchTheFiles() {
        // python: collections.Counter(e.get('ph') for e in traceEvents), per file.
        Map<Integer, Map<String, Long>> expected = Map.of(
                0, Map.of("X", 2460L, "f", 525L, "s", 261L, "M", 42L, "i", 2L),
                1, Map.of("X", 2527L, "f", 591L, "s", 262L, "M", 42L, "i", 2L),
                2, Map.of("X", 2449L, "f", 513L, "s", 262L, "M", 42L, "i", 2L),
                3, Map.of("X", 2552L, "f", 605L, "s", 273L, "M", 42L, "i", 2L),
                4, Map.of("X", 2470L, "f", 523L, "s", 273L, "M", 42L, "i", 2L),
                5, Map.of("X", 2440L, "f", 505L, "s", 261L, "M", 42L, "i", 2L),
                6, Map.of("X", 2451L, "f", 515L, "s", 262L, "M", 42L, "i", 2L),
                7, Map.of("X", 2440L, "f", 504L, "s", 262L, "M", 42L, "i", 2L));
        Map<Integer, Map<String, Long>> actual = new HashMap<>();
        for (Row r : spark.sql("SELECT rank, ph, count(*) FROM dlrm_events GROUP BY rank, ph")
                .collectAsList()) {
            actual.computeIfAbsent(r.getInt(0), k -> new HashMap<>()).put(r.getString(1), r.getLong(2));
        }
        assertEquals(expected, actual);
    }

    @Test
    void eightNcclKernelsPerRankOnStream84() {
        // Each file: 5 ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t + 3 ncclKernel_AllReduce_RING_LL_Sum_float, tid 84.
        List<Row> rows = spark.sql("""
                SELECT rank,
                       sum(CASE WHEN name LIKE 'ncclKernel_SendRecv%' THEN 1 ELSE 0 END) AS sendrecv,
                       sum(CASE WHEN name LIKE 'ncclKernel_AllReduce%' THEN 1 ELSE 0 END) AS allreduce,
                       collect_set(stream) AS streams,
                       sum(CASE WHEN collective = 'all_to_all' THEN 1 ELSE 0 END) AS a2a,
                       sum(CASE WHEN collective = 'all_reduce' THEN 1 ELSE 0 END) AS ar
                FROM dlrm_events WHERE activity_class = 'comm' GROUP BY rank ORDER BY rank""").collectAsList();
        assertEquals(8, rows.size());
        for (Row r : rows) {
            assertEquals(5L, r.getLong(1), "SendRecv on rank " + r.getInt(0));
            assertEquals(3L, r.getLong(2), "AllReduce on rank " + r.getInt(0));
            assertEquals(List.of(84L), r.getList(3));
            // SendRecv kernels launched under c10d::alltoall_base_ / nccl:all_to_all are all_to_all (METRICS.md §2).
            assertEquals(5L, r.getLong(4));
            assertEquals(3L, r.getLong(5));
        }
    }

    @Test
    void kernelsTakeTheStepOfTheirLaunch() {
        // Every GPU activity's launching cudaLaunchKernel (same correlation) starts inside ProfilerStep#10;
        // ranks 1 and 3 each have 64 GPU activities without a launch record, whose own start is inside the step.
        Map<Integer, Long> gpuCount = Map.of(0, 261L, 1, 326L, 2, 262L, 3, 337L, 4, 273L, 5, 261L, 6, 262L, 7, 262L);
        for (Row r : spark.sql("""
                SELECT rank, count(*), sum(CASE WHEN step = 10 THEN 1 ELSE 0 END)
                FROM dlrm_events WHERE activity_class IS NOT NULL GROUP BY rank""").collectAsList()) {
            assertEquals(gpuCount.get(r.getInt(0)), r.getLong(1));
            assertEquals(gpuCount.get(r.getInt(0)), r.getLong(2));
        }
    }

    @Test
    void allToAllSizeComesFromTheEnclosingNcclOp() {
        // Rank 0's first SendRecv kernel (ts 1694128201429795) is launched inside nccl:all_to_all with
        // Input Dims [[6144]] and Input type ['float']: 6144 x 4 = 24576 bytes, from input_dims.
        Row r = spark.sql("""
                SELECT in_nelems, dtype, in_bytes, out_bytes, bytes_source, group_size, ts_ns
                FROM dlrm_events WHERE rank = 0 AND activity_class = 'comm' ORDER BY ts_ns LIMIT 1""").first();
        assertEquals(6144L, r.getLong(0));
        assertEquals("float", r.getString(1));
        assertEquals(24576L, r.getLong(2));
        assertEquals(24576L, r.getLong(3));
        assertEquals("input_dims", r.getString(4));
        assertEquals(8, r.getInt(5)); // no Group size arg, no pg_config: world_size 8
        assertEquals(1694128201429795000L, r.getLong(6));
    }

    @Test
    void everyEventIsKeptOrCountedAsDropped() {
        // python: len(traceEvents) per file.
        Map<Integer, Long> total =
                Map.of(0, 3290L, 1, 3424L, 2, 3268L, 3, 3474L, 4, 3310L, 5, 3250L, 6, 3272L, 7, 3250L);
        for (Row r : spark.sql("""
                SELECT f.rank, f.events_read, f.events_dropped, count(e.ordinal)
                FROM dlrm_files f LEFT JOIN dlrm_events e ON e.source_file = f.path
                WHERE f.format = 'kineto' GROUP BY f.rank, f.events_read, f.events_dropped""").collectAsList()) {
            long expected = total.get(r.getInt(0));
            assertEquals(expected, r.getLong(1) + r.getLong(2), "read + dropped = traceEvents on rank " + r.getInt(0));
            assertEquals(r.getLong(1), r.getLong(3), "events_read = rows in events");
        }
    }
}
