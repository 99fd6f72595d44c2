package org.tracelake.jobs.readers.rocprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.ReaderTestSupport.arg;
import static org.tracelake.jobs.testing.ReaderTestSupport.col;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;

/**
 * rocprofv3 JSON. The real file is AMD-AGI/TraceLens tests/rocprof/908_results.json.gz (AORTA on 8x MI350X, one
 * process). Every expected number below was computed independently with a python3 script over the JSON
 * ({@code json.load}, then counting {@code buffer_records.kernel_dispatch} and joining {@code kernel_id} to
 * {@code kernel_symbols[*].formatted_kernel_name}); the comm count applies METRICS.md §2's regex with python's
 * {@code re}.
 */
class RocprofReaderTest {
    private static final String REAL_TRACE = "rocprofv3/aorta-mi350/908_results.json.gz";
    private static SparkSession spark;

    /** The real file: tests that need it are skipped where the shared traces are absent, the others run. */
    private static Path realFile() {
        return SharedTraces.path(REAL_TRACE);
    }

    /** The real file read once, by the first test that asks. */
    private static ReaderTestSupport.Read real() {
        return ReaderTestSupport.readOnce(new RocprofReader(), realFile(), TraceFormat.ROCPROF_JSON);
    }

    @Test
    void everyKernelDispatchBecomesAKernelRowOnDeviceZero() {
        // python: len(kernel_dispatch) == 43915; every dispatch_info.agent_id.handle is 37946, the agent with gpu_index
        // 0
        assertEquals(43_915, real().rows().size());
        assertEquals(43_915L, real().report().eventsRead);
        assertEquals(0L, real().report().drops.total());
        for (Row r : real().rows()) {
            assertEquals("kernel", col(r, EventSchema.CAT));
            assertEquals(0, (Integer) col(r, EventSchema.DEVICE));
            assertEquals(0, (Integer) col(r, EventSchema.RANK));
            assertEquals("908", col(r, EventSchema.PID));
            // python: correlation_id.internal == dispatch_info.dispatch_id for every record
            assertEquals(String.valueOf((Long) col(r, EventSchema.CORRELATION)), arg(r, "dispatch_id"));
        }
        assertEquals(0, real().report().rank);
        assertEquals("device", real().report().rankSource);
        assertEquals(TimeBases.MONOTONIC, real().report().timeBase);
    }

    @Test
    void rcclKernelsAreCommunicationOfUnknownKind() {
        // python: 1310 dispatches match the comm regex, all named ncclDevKernel_Generic_1(...), 1309 on stream 565
        List<Row> comm = real().rows().stream()
                .filter(r -> "comm".equals(col(r, EventSchema.ACTIVITY_CLASS)))
                .toList();
        assertEquals(1_310, comm.size());
        for (Row r : comm) {
            assertEquals("ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", col(r, EventSchema.NAME));
            assertEquals("other", col(r, EventSchema.COLLECTIVE)); // RCCL's generic kernel names no collective
            assertEquals("comm", col(r, EventSchema.KERNEL_CATEGORY));
        }
        assertEquals(
                1_309,
                comm.stream()
                        .filter(r -> Long.valueOf(565).equals(col(r, EventSchema.STREAM)))
                        .count());
    }

    @Test
    void timesAreHostMonotonicNanoseconds() {
        // python: min(start_timestamp) 63857982592000, max(end_timestamp) 63873104615494, sum(end-start) 4441741378
        long minTs = Long.MAX_VALUE;
        long maxEnd = Long.MIN_VALUE;
        long sum = 0;
        for (Row r : real().rows()) {
            long ts = col(r, EventSchema.TS_NS);
            long dur = col(r, EventSchema.DUR_NS);
            minTs = Math.min(minTs, ts);
            maxEnd = Math.max(maxEnd, ts + dur);
            sum += dur;
        }
        assertEquals(63_857_982_592_000L, minTs);
        assertEquals(63_873_104_615_494L, maxEnd);
        assertEquals(4_441_741_378L, sum);
        // python: kernel_dispatch[0] = __amd_rocclr_copyBuffer.kd, 63857982592000 → 63857982594840, thread 908, queue
        // 16
        Row first = real().rows().get(0);
        assertEquals("__amd_rocclr_copyBuffer", col(first, EventSchema.NAME));
        assertEquals(2_840L, (Long) col(first, EventSchema.DUR_NS));
        assertEquals("908", col(first, EventSchema.TID));
        assertEquals("16", arg(first, "queue"));
        assertEquals("[512, 1, 1]", arg(first, "grid_size"));
    }

    @Test
    void kernelNamesAreDemangledWithoutTheDescriptorSuffix() {
        // python: the most frequent names after joining kernel_symbols and stripping ".kd" / " [clone .kd]"
        Map<String, Integer> counts = new HashMap<>();
        for (Row r : real().rows()) counts.merge(col(r, EventSchema.NAME), 1, Integer::sum);
        assertEquals(
                5_450,
                counts.get("void at::native::vectorized_elementwise_kernel<4, at::native::bfloat16_copy_kernel_cuda("
                        + "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::bfloat16_copy_kernel_cuda("
                        + "at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul>)"));
        assertEquals(3_213, counts.get("__amd_rocclr_fillBufferAligned"));
        assertEquals(3_153, counts.get("__amd_rocclr_copyBuffer"));
        assertTrue(counts.keySet().stream().noneMatch(n -> n.endsWith(".kd")));
    }

    /** Records before the symbols and agents they need, a memory copy, gzip, a second process: all handled. */
    @Test
    void keyOrderCopiesAndSeveralProcesses(@TempDir Path dir) throws IOException {
        String json = "{\"rocprofiler-sdk-tool\":[{"
                + "\"buffer_records\":{\"hip_api\":[],\"kernel_dispatch\":[" + dispatch(1, 7, 100, 250, 11) + "],"
                + "\"memory_copy\":[{\"size\":80,\"kind\":10,\"operation\":2,\"thread_id\":5,\"correlation_id\":{\"internal\":12,\"external\":0},"
                + "\"start_timestamp\":300,\"end_timestamp\":400,\"dst_agent_id\":{\"handle\":21},\"src_agent_id\":{\"handle\":20},\"bytes\":4096}]},"
                + "\"kernel_symbols\":[{\"kernel_id\":0,\"kernel_name\":\"\"},{\"kernel_id\":1,\"kernel_name\":\"_Z3foov.kd\","
                + "\"formatted_kernel_name\":\"foo()\",\"truncated_kernel_name\":\"foo\"}],"
                + "\"strings\":{\"buffer_records\":[" + "{\"kind\":\"NONE\",\"operations\":[]},".repeat(10)
                + "{\"kind\":\"MEMORY_COPY\",\"operations\":[\"MEMORY_COPY_NONE\",\"MEMORY_COPY_HOST_TO_HOST\",\"MEMORY_COPY_HOST_TO_DEVICE\"]}]},"
                + "\"agents\":[{\"id\":{\"handle\":20},\"type\":1,\"gpu_index\":-1},{\"id\":{\"handle\":21},\"type\":2,\"gpu_index\":3,\"name\":\"gfx950\"}],"
                + "\"metadata\":{\"pid\":77}},"
                + "{\"metadata\":{\"pid\":78},\"agents\":[{\"id\":{\"handle\":30},\"type\":2,\"gpu_index\":5}],"
                + "\"kernel_symbols\":[{},{\"kernel_id\":1,\"demangled_kernel_name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x) [clone .kd]\"}],"
                + "\"buffer_records\":{\"kernel_dispatch\":["
                + dispatch(1, 7, 500, 900, 13).replace("\"handle\":21", "\"handle\":30") + "]}}]}";
        Path file = dir.resolve("77_results.json.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new RocprofReader(), ReaderTestSupport.task(file, TraceFormat.ROCPROF_JSON));
        assertEquals(3, read.rows().size());
        Row kernel = read.rows().get(0);
        assertEquals("foo()", col(kernel, EventSchema.NAME));
        assertEquals("foo", arg(kernel, "short_name"));
        assertEquals(3, (Integer) col(kernel, EventSchema.DEVICE));
        assertEquals(150L, (Long) col(kernel, EventSchema.DUR_NS));
        assertEquals("compute", col(kernel, EventSchema.ACTIVITY_CLASS));
        Row copy = read.rows().get(1);
        assertEquals("gpu_memcpy", col(copy, EventSchema.CAT));
        assertEquals("Memcpy HtoD", col(copy, EventSchema.NAME));
        assertEquals("memcpy", col(copy, EventSchema.ACTIVITY_CLASS));
        assertEquals("4096", arg(copy, "bytes"));
        assertEquals(3, (Integer) col(copy, EventSchema.DEVICE));
        Row other = read.rows().get(2);
        assertEquals("78", col(other, EventSchema.PID));
        assertEquals(5, (Integer) col(other, EventSchema.DEVICE));
        assertEquals(5, (Integer) col(other, EventSchema.RANK));
        assertEquals("all_reduce", col(other, EventSchema.COLLECTIVE));
        assertNull(read.report().rank); // two devices in one file: no single rank
        assertEquals("[3, 5]", read.report().metadata.get("ranks"));
    }

    @Test
    void aFileWithoutTheToolKeyIsRefusedWithAReason(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("1_results.json");
        Files.writeString(file, "{\"something\":[]}");
        IOException e = assertThrows(
                IOException.class,
                () -> ReaderTestSupport.readAll(
                        new RocprofReader(), ReaderTestSupport.task(file, TraceFormat.ROCPROF_JSON)));
        assertTrue(e.getMessage().contains("rocprofiler-sdk-tool"), e.getMessage());
    }

    /** The one Spark test: the real file through detection, the registry and the events schema on an executor. */
    @Test
    void ingestsThroughSpark() throws IOException {
        spark = ReaderTestSupport.localSpark();
        List<FileReport> reports = new ArrayList<>();
        var df = ReaderTestSupport.ingest(spark, ReaderTestSupport.task(realFile(), TraceFormat.ROCPROF_JSON), reports);
        df.createOrReplaceTempView("rocprof_events");
        Row counts = spark.sql("SELECT count(*), sum(CASE WHEN activity_class = 'comm' THEN 1 ELSE 0 END), "
                        + "count(DISTINCT rank) FROM rocprof_events")
                .first();
        assertEquals(43_915L, counts.getLong(0));
        assertEquals(1_310L, counts.getLong(1));
        assertEquals(1L, counts.getLong(2));
        assertEquals(1, reports.size());
        assertEquals(TraceFileSchema.STATUS_OK, reports.get(0).status, reports.get(0).error);
        assertEquals("rocprofv3_json", reports.get(0).format);
    }

    private static String dispatch(long kernelId, long thread, long start, long end, long correlation) {
        return "{\"kind\":11,\"operation\":2,\"thread_id\":" + thread + ",\"correlation_id\":{\"internal\":"
                + correlation
                + ",\"external\":0},\"start_timestamp\":" + start + ",\"end_timestamp\":" + end + ",\"dispatch_info\":{"
                + "\"agent_id\":{\"handle\":21},\"queue_id\":{\"handle\":1},\"kernel_id\":" + kernelId
                + ",\"dispatch_id\":"
                + correlation
                + ",\"workgroup_size\":{\"x\":64,\"y\":1,\"z\":1},\"grid_size\":{\"x\":640,\"y\":1,\"z\":1}},"
                + "\"stream_id\":{\"handle\":2}}";
    }
}
