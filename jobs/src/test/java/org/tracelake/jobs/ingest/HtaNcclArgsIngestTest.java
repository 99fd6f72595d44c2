package org.tracelake.jobs.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * ../shared/traces/kineto/hta-nccl-args-rank0of2: rank 0 of 2 on A100, modern collective args, relative ts with
 * baseTimeNanoseconds = 1711964646000000000 written AFTER traceEvents. Expected values computed with Python's
 * json module using Decimal for floats (so no digit is lost): ts_ns = base + round(ts × 1000).
 */
@RealTraces("kineto/hta-nccl-args-rank0of2")
class HtaNcclArgsIngestTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;

    @BeforeAll
    static void ingest() {
        spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp)
                .copyShared("hta", "kineto/hta-nccl-args-rank0of2")
                .card("hta", "training", "unknown", "NVIDIA A100", 2);
        List<WorkloadIngest> results = archive.ingest(spark);
        assertTrue(results.get(0).ok(), () -> String.join("; ", results.get(0).problems()));
        spark.read().format("iceberg").load(archive.table("events")).createOrReplaceTempView("hta_events");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("hta_files");
    }

    @Test
    void absoluteNanosecondsFromBaseTimeAfterTraceEvents() {
        // ncclKernel_AllReduce with External id 12945: ts 4458677009853.422 µs -> 1716423323009853422 ns, dur 2636.669
        // µs.
        Row k = spark.sql("SELECT ts_ns, dur_ns FROM hta_events WHERE cat = 'kernel' AND external_id = 12945")
                .first();
        assertEquals(1716423323009853422L, k.getLong(0));
        assertEquals(2636669L, k.getLong(1));
        // ProfilerStep#5 at 4458676639291.351 µs.
        Row s = spark.sql("SELECT ts_ns FROM hta_events WHERE name = 'ProfilerStep#5'")
                .first();
        assertEquals(1716423322639291351L, s.getLong(0));
        Row f = spark.sql(
                        "SELECT time_base, base_time_ns, rank, rank_source, world_size FROM hta_files WHERE format = 'kineto'")
                .first();
        assertEquals("base_time_nanoseconds", f.getString(0));
        assertEquals(1711964646000000000L, f.getLong(1));
        assertEquals(0, f.getInt(2));
        assertEquals("distributed_info", f.getString(3));
        assertEquals(2, f.getInt(4));
    }

    @Test
    void floatAllReduceBytesAreNelemsTimesFour() {
        // 15 all-reduce kernels with Collective name 'allreduce' and dtype 'Float'; e.g. External id 12945 has
        // In msg nelems 6637568 -> 26550272 bytes; the same args sit on the kernel itself (kernel_args).
        List<Row> rows = spark.sql("""
                SELECT external_id, in_nelems, in_bytes, out_bytes, dtype, bytes_source, pg_name, pg_ranks, group_size
                FROM hta_events WHERE activity_class = 'comm' AND collective = 'all_reduce'""").collectAsList();
        assertEquals(15, rows.size());
        for (Row r : rows) {
            assertEquals(r.getLong(1) * 4, r.getLong(2));
            assertEquals(r.getLong(2), r.getLong(3));
            assertEquals("Float", r.getString(4));
            assertEquals("kernel_args", r.getString(5));
            assertEquals("0", r.getString(6));
            assertEquals("[0, 1]", r.getString(7));
            assertEquals(2, r.getInt(8));
        }
        Row first =
                rows.stream().filter(r -> r.getLong(0) == 12945L).findFirst().orElseThrow();
        assertEquals(26550272L, first.getLong(2));
    }

    @Test
    void broadcastsAreCommunicationToo() {
        // 3 Float + 3 Long ncclKernel_Broadcast kernels, each with Collective name 'broadcast'.
        Row r = spark.sql("""
                SELECT count(*), sum(CASE WHEN dtype = 'Long' THEN 1 ELSE 0 END)
                FROM hta_events WHERE activity_class = 'comm' AND collective = 'broadcast'""").first();
        assertEquals(6L, r.getLong(0));
        assertEquals(3L, r.getLong(1));
    }

    @Test
    void everyEventIsAccountedFor() {
        // python: len(traceEvents) = 40573
        Row r = spark.sql("SELECT events_read + events_dropped, events_read FROM hta_files WHERE format = 'kineto'")
                .first();
        assertEquals(40573L, r.getLong(0));
        assertEquals(spark.sql("SELECT count(*) FROM hta_events").first().getLong(0), r.getLong(1));
    }
}
