package org.tracelake.jobs.readers.xplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.ReaderTestSupport.arg;
import static org.tracelake.jobs.testing.ReaderTestSupport.col;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;
import org.tracelake.jobs.readers.xplane.proto.XStat;
import org.tracelake.jobs.readers.xplane.proto.XStatMetadata;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;

/**
 * XSpace protobuf. The real file is AMD-AGI/TraceLens tests/traces/mi300/jax_conv_minimal_08/tw003.xplane.pb (JAX
 * on 8x MI300). Expected numbers were obtained independently: {@code protoc --decode_raw} (protoc 4.33.0 from Maven
 * Central) printed the message, and a python3 script walked that text (planes = top-level field 1, name = field 2,
 * lines = field 3, events = field 4 of a line, stat/event metadata = fields 5/4 of a plane) to count events and
 * resolve the first event of /device:GPU:1. {@link WireCounts} re-counts the events per plane from the raw bytes
 * with a protobuf wire-format walk that shares no code with the reader.
 */
class XPlaneReaderTest {
    private static final String REAL_TRACE = "xplane/jax-conv-8xmi300/tw003.xplane.pb";
    /** decode_raw: Task Environment stat profile_start_time (uint64, field 3). */
    private static final long PROFILE_START = 1_771_595_639_214_724_894L;

    private static SparkSession spark;

    /** The real file: tests that need it are skipped where the shared traces are absent, the others run. */
    private static Path realFile() {
        return SharedTraces.path(REAL_TRACE);
    }

    /** The real file read once, by the first test that asks. */
    private static ReaderTestSupport.Read real() {
        return ReaderTestSupport.readOnce(new XPlaneReader(), realFile(), TraceFormat.XPLANE);
    }

    @Test
    void eightDevicePlanesWithTheirEventCounts() throws IOException {
        // decode_raw: /device:GPU:0 has 4 lines and 60 events, GPU:1..7 one line of 25 each; /host:CPU 3415 events
        // on 32 lines; /host:metadata and Task Environment have no lines: 3650 events in all.
        Map<String, Integer> expected = new TreeMap<>();
        expected.put("/device:GPU:0", 60);
        for (int d = 1; d < 8; d++) expected.put("/device:GPU:" + d, 25);
        expected.put("/host:CPU", 3_415);
        Map<String, Integer> byPlane = new TreeMap<>();
        for (Row r : real().rows()) byPlane.merge(col(r, EventSchema.PID), 1, Integer::sum);
        assertEquals(expected, byPlane);
        assertEquals(3_650, real().rows().size());
        assertEquals(expected, WireCounts.eventsPerPlane(Files.readAllBytes(realFile())));
        assertEquals("[0, 1, 2, 3, 4, 5, 6, 7]", real().report().metadata.get("devices"));
        for (Row r : real().rows()) {
            Integer device = col(r, EventSchema.DEVICE);
            if (device != null) assertEquals(device, col(r, EventSchema.RANK)); // single host: rank = device
        }
    }

    @Test
    void gpuZeroStreamsAndLines() {
        // decode_raw: GPU:0 lines Stream #17(Kernel) 9, #15 9, #16 34, #18 8
        Map<Long, Integer> byStream = new TreeMap<>();
        for (Row r : real().rows()) {
            if (Integer.valueOf(0).equals(col(r, EventSchema.DEVICE)))
                byStream.merge(col(r, EventSchema.STREAM), 1, Integer::sum);
        }
        assertEquals(Map.of(15L, 9, 16L, 34, 17L, 9, 18L, 8), byStream);
    }

    @Test
    void firstKernelOfGpuOneWithStatsTimesAndLaunch() {
        // decode_raw: line timestamp_ns 911061, event offset_ps 26345875000, duration_ps 4800000, metadata 2 =
        // "loop_transpose_fusion.kd"; stats correlation_id 171, kernel_details → ref 20, hlo_op → ref 22,
        // hlo_module → ref 18, program_id 15; the host runtime call with correlation 171 starts at 911061 ns +
        // its offset, i.e. 1771595639241915310 after adding profile_start_time.
        Row first = real().rows().stream()
                .filter(r -> Integer.valueOf(1).equals(col(r, EventSchema.DEVICE)))
                .findFirst()
                .orElseThrow();
        assertEquals("loop_transpose_fusion", col(first, EventSchema.NAME));
        assertEquals("loop_transpose_fusion.kd", arg(first, "symbol"));
        assertEquals(PROFILE_START + 911_061L + 26_345_875L, (Long) col(first, EventSchema.TS_NS));
        assertEquals(1_771_595_639_241_981_830L, (Long) col(first, EventSchema.TS_NS));
        assertEquals(4_800L, (Long) col(first, EventSchema.DUR_NS));
        assertEquals(171L, (Long) col(first, EventSchema.CORRELATION));
        assertEquals(1_771_595_639_241_915_310L, (Long) col(first, EventSchema.LAUNCH_TS_NS));
        assertEquals(19L, (Long) col(first, EventSchema.STREAM));
        assertEquals(" grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:0 occ_pct:0", arg(first, "kernel_details"));
        assertEquals("loop_transpose_fusion", arg(first, "hlo_op"));
        assertEquals("jit_forward_3d_conv", arg(first, "hlo_module"));
        assertEquals("15", arg(first, "program_id"));
        assertEquals("kernel", col(first, EventSchema.CAT));
        assertEquals("compute", col(first, EventSchema.ACTIVITY_CLASS));
        assertEquals(TraceFileSchema.TIME_BASE_EPOCH, real().report().timeBase);
        assertEquals(PROFILE_START, real().report().baseTimeNs);
    }

    @Test
    void hostRuntimeCallsLinkToTheirKernels() {
        // python over decode_raw: 234 events on the "Host Threads/<tid>" lines, all with a correlation_id; all 235
        // device events carry a correlation_id that one of them has.
        List<Row> runtime = real().rows().stream()
                .filter(r -> "cuda_runtime".equals(col(r, EventSchema.CAT)))
                .toList();
        assertEquals(234, runtime.size());
        runtime.forEach(r -> assertNotNull(col(r, EventSchema.RANK), "a launch takes the rank of its kernel's device"));
        long device = real().rows().stream()
                .filter(r -> col(r, EventSchema.DEVICE) != null)
                .count();
        long linked = real().rows().stream()
                .filter(r -> col(r, EventSchema.LAUNCH_TS_NS) != null)
                .count();
        assertEquals(235, device);
        assertEquals(235, linked);
        // decode_raw: no device event name is a collective; the 35 rocclr copyBuffer are the runtime's copies (memcpy
        // by §2), the 200 others (fusions, Im3d2Col, Cijk_ GEMM) compute
        assertEquals(
                200,
                real().rows().stream()
                        .filter(r -> "compute".equals(col(r, EventSchema.ACTIVITY_CLASS)))
                        .count());
        assertEquals(
                35,
                real().rows().stream()
                        .filter(r -> "memcpy".equals(col(r, EventSchema.ACTIVITY_CLASS)))
                        .count());
    }

    /** A TPU-shaped XSpace built here (no public TPU xplane exists): Steps line, XLA Ops, a collective, no anchor. */
    @Test
    void tpuPlaneStepsCollectivesAndAggregatedEvents(@TempDir Path dir) throws IOException {
        XPlane.Builder tpu = XPlane.newBuilder().setId(1).setName("/device:TPU:2");
        statMeta(tpu, 1, "hlo_category");
        statMeta(tpu, 2, "raw_bytes_accessed");
        statMeta(tpu, 3, "long_name");
        tpu.putEventMetadata(
                1, XEventMetadata.newBuilder().setId(1).setName("7").build());
        tpu.putEventMetadata(
                2,
                XEventMetadata.newBuilder()
                        .setId(2)
                        .setName("all-reduce.3")
                        .addStats(str(1, "all-reduce"))
                        .addStats(XStat.newBuilder().setMetadataId(2).setUint64Value(8_388_608))
                        .addStats(str(
                                3, "%all-reduce.3 = bf16[4096,1024]{1,0} all-reduce(%x), replica_groups=[2,4]<=[8]"))
                        .build());
        tpu.putEventMetadata(
                3,
                XEventMetadata.newBuilder()
                        .setId(3)
                        .setName("fusion.1")
                        .addStats(str(1, "loop fusion"))
                        .build());
        tpu.addLines(XLine.newBuilder()
                .setId(1)
                .setName("Steps")
                .setTimestampNs(1_000)
                .addEvents(XEvent.newBuilder().setMetadataId(1).setOffsetPs(0).setDurationPs(50_000_000)));
        tpu.addLines(XLine.newBuilder()
                .setId(2)
                .setName("XLA Ops")
                .setTimestampNs(1_000)
                .addEvents(XEvent.newBuilder()
                        .setMetadataId(3)
                        .setOffsetPs(1_000_000)
                        .setDurationPs(2_000_500))
                .addEvents(XEvent.newBuilder()
                        .setMetadataId(2)
                        .setOffsetPs(4_000_000)
                        .setDurationPs(9_000_000))
                .addEvents(XEvent.newBuilder()
                        .setMetadataId(3)
                        .setNumOccurrences(12)
                        .setDurationPs(5)));
        Path file = dir.resolve("host0.xplane.pb");
        Files.write(
                file,
                XSpace.newBuilder().addPlanes(tpu).addHostnames("host0").build().toByteArray());

        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(file, TraceFormat.XPLANE));
        assertEquals(3, read.rows().size());
        assertEquals(0L, read.report().drops.total()); // an aggregate is skipped, not a bad event
        assertEquals("1", read.report().metadata.get("aggregated_events_not_kept"));
        assertEquals(TimeBases.PROFILE_START, read.report().timeBase);
        Row step = read.rows().get(0);
        assertEquals("xla_step", col(step, EventSchema.CAT));
        assertEquals(7L, (Long) col(step, EventSchema.STEP));
        Row fusion = read.rows().get(1);
        assertEquals(1_000L + 1_000L, (Long) col(fusion, EventSchema.TS_NS));
        assertEquals(2_001L, (Long) col(fusion, EventSchema.DUR_NS)); // 2000.5 ns rounds half up
        assertEquals("2000500", arg(fusion, "duration_ps"));
        assertEquals("compute", col(fusion, EventSchema.ACTIVITY_CLASS));
        assertEquals(7L, (Long) col(fusion, EventSchema.STEP));
        Row allReduce = read.rows().get(2);
        assertEquals("comm", col(allReduce, EventSchema.ACTIVITY_CLASS));
        assertEquals("all_reduce", col(allReduce, EventSchema.COLLECTIVE));
        assertEquals(8_388_608L, (Long) col(allReduce, EventSchema.IN_BYTES));
        assertEquals(8_388_608L, (Long) col(allReduce, EventSchema.OUT_BYTES));
        assertEquals("xla_args", col(allReduce, EventSchema.BYTES_SOURCE));
        assertEquals(4, (Integer) col(allReduce, EventSchema.GROUP_SIZE));
        assertEquals(2, (Integer) col(allReduce, EventSchema.RANK));
        assertEquals("host0", read.report().metadata.get("hostnames"));
    }

    /**
     * Issue 46, the shape of the public 4-chip v6e XSpace (not in ../shared/traces/xplane, so built here): its XLA Ops
     * events are named by their whole HLO instruction, a loop fusion consumes {@code %copy-done.1}, the all-reduce
     * reads its group from the iota form {@code replica_groups=[4,2]<=[2,4]T(1,0)} (groups of 2), and the Async XLA
     * Ops line shows the all-reduce in flight again. The fusion is compute (it was a copy), the group size is 2, and
     * the async row is no device activity (it doubled the kernel time).
     */
    @Test
    void v6eShapedOpsAreClassifiedByTheirOpName(@TempDir Path dir) throws IOException {
        XPlane.Builder tpu = XPlane.newBuilder().setId(1).setName("/device:TPU:0");
        statMeta(tpu, 1, "hlo_category");
        statMeta(tpu, 2, "raw_bytes_accessed");
        String fusion = "%fusion.2 = f32[8,128]{1,0:T(8,128)} fusion(f32[8,128]{1,0:T(8,128)} %copy-done.1,"
                + " f32[128]{0} %param.3), kind=kLoop, calls=%fused_computation.2";
        String allReduce = "%all-reduce.5 = f32[5,1024,1024,256]{3,2,1,0:T(8,128)} all-reduce(f32[5,1024,1024,256]"
                + "{3,2,1,0:T(8,128)} %bitcast), channel_id=1, replica_groups=[4,2]<=[2,4]T(1,0),"
                + " use_global_device_ids=true, to_apply=%region_0.3.clone";
        tpu.putEventMetadata(
                1,
                XEventMetadata.newBuilder()
                        .setId(1)
                        .setName(fusion)
                        .addStats(str(1, "loop fusion"))
                        .build());
        tpu.putEventMetadata(
                2,
                XEventMetadata.newBuilder()
                        .setId(2)
                        .setName(allReduce)
                        .addStats(str(1, "all-reduce"))
                        .addStats(XStat.newBuilder().setMetadataId(2).setUint64Value(5_368_709_120L))
                        .build());
        tpu.addLines(XLine.newBuilder()
                .setId(2)
                .setName("XLA Ops")
                .setTimestampNs(1_000)
                .addEvents(XEvent.newBuilder().setMetadataId(1).setOffsetPs(0).setDurationPs(3_000_000))
                .addEvents(XEvent.newBuilder()
                        .setMetadataId(2)
                        .setOffsetPs(4_000_000)
                        .setDurationPs(9_000_000)));
        tpu.addLines(XLine.newBuilder()
                .setId(3)
                .setName("Async XLA Ops")
                .setTimestampNs(1_000)
                .addEvents(XEvent.newBuilder()
                        .setMetadataId(2)
                        .setOffsetPs(4_000_000)
                        .setDurationPs(9_000_000)));
        Path file = dir.resolve("v6e.xplane.pb");
        Files.write(file, XSpace.newBuilder().addPlanes(tpu).build().toByteArray());

        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(file, TraceFormat.XPLANE));
        assertEquals(3, read.rows().size());
        Row fusionRow = read.rows().get(0);
        assertEquals("compute", col(fusionRow, EventSchema.ACTIVITY_CLASS));
        Row op = read.rows().get(1);
        assertEquals("comm", col(op, EventSchema.ACTIVITY_CLASS));
        assertEquals("all_reduce", col(op, EventSchema.COLLECTIVE));
        assertEquals(2, (Integer) col(op, EventSchema.GROUP_SIZE));
        Row inFlight = read.rows().get(2);
        assertEquals("xla_async_op", col(inFlight, EventSchema.CAT));
        assertNull(col(inFlight, EventSchema.ACTIVITY_CLASS));
    }

    /** Issue 46: an XSpace a commit re-encoded as UTF-8 text says so, and what to do. */
    @Test
    void anXSpaceReencodedAsTextSaysSo(@TempDir Path dir) throws IOException {
        byte[] binary = XSpace.newBuilder()
                .addPlanes(XPlane.newBuilder().setId(1).setName("/device:TPU:0"))
                .addHostnames("host0")
                .build()
                .toByteArray();
        // every byte that is not valid UTF-8 becomes EF BF BD, as a text conversion writes it; padded with ids
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 40; i++) {
            for (byte b : binary) {
                if ((b & 0x80) != 0) text.write(new byte[] {(byte) 0xef, (byte) 0xbf, (byte) 0xbd}, 0, 3);
                else text.write(b);
            }
            text.write(new byte[] {(byte) 0xef, (byte) 0xbf, (byte) 0xbd, (byte) 0x92, 0x01}, 0, 5);
        }
        Path file = dir.resolve("v6e.xplane.pb");
        Files.write(file, text.toByteArray());
        Exception e = assertThrows(
                Exception.class,
                () -> ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(file, TraceFormat.XPLANE)));
        assertTrue(
                e.getMessage().contains("re-encoded as text") && e.getMessage().contains("fetch the binary again"),
                e.getMessage());
    }

    /**
     * issue 32 item 6: an XSpace of eight GPU planes of which only GPU:4 and GPU:6 hold events is two ranks, 4 and 6
     * (before: eight); the six empty planes are named in the file's metadata.
     */
    @Test
    void devicePlanesWithoutEventsAreNotRanks(@TempDir Path dir) throws IOException {
        Path file = org.tracelake.jobs.testing.PartlyProfiledXSpace.write(dir.resolve("host0.xplane.pb"));
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(file, TraceFormat.XPLANE));
        assertEquals(List.of(4, 6), new ArrayList<>(read.report().ranksHeld()));
        assertEquals("[4, 6]", read.report().metadata.get("devices"));
        assertEquals(
                "[0, 1, 2, 3, 5, 7]: device planes with no event, not counted as ranks",
                read.report().metadata.get("devices_without_events"));
        assertEquals(4, read.rows().size());
        for (Row r : read.rows()) assertTrue(List.of(4, 6).contains((Integer) col(r, EventSchema.RANK)));
    }

    @Test
    void garbageIsRefusedWithAReason(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.xplane.pb");
        Files.write(file, new byte[] {0x0a, (byte) 0xff, (byte) 0xff, 0x01, 0x02});
        IOException e = assertThrows(
                IOException.class,
                () -> ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(file, TraceFormat.XPLANE)));
        assertTrue(e.getMessage().contains("XSpace"), e.getMessage());
    }

    /** The one Spark test: the real file through detection, the registry and the events schema on an executor. */
    @Test
    void ingestsThroughSpark() throws IOException {
        spark = ReaderTestSupport.localSpark();
        List<FileReport> reports = new ArrayList<>();
        var df = ReaderTestSupport.ingest(spark, ReaderTestSupport.task(realFile(), TraceFormat.XPLANE), reports);
        df.createOrReplaceTempView("xplane_events");
        List<Row> perDevice = spark.sql("SELECT device, count(*) FROM xplane_events WHERE device IS NOT NULL "
                        + "GROUP BY device ORDER BY device")
                .collectAsList();
        assertEquals(8, perDevice.size());
        assertEquals(60L, perDevice.get(0).getLong(1));
        for (int d = 1; d < 8; d++) assertEquals(25L, perDevice.get(d).getLong(1));
        assertEquals(1, reports.size());
        assertEquals(TraceFileSchema.STATUS_OK, reports.get(0).status, reports.get(0).error);
        assertNull(reports.get(0).rank); // eight devices, no rank in the name: one rank per device
        assertEquals("device", reports.get(0).rankSource);
        // what the run summary counts (issue 14 item 8: it said "ranks 0"): the eight ranks the rows carry
        assertEquals(
                java.util.List.of(0, 1, 2, 3, 4, 5, 6, 7),
                new ArrayList<>(reports.get(0).ranksHeld()));
    }

    /**
     * issue 14 item 8: the same eight-device file named as JAX names a host's file in a multi-host run. "worker1" is
     * the host, not a rank: every device stays its own rank (before, all eight collapsed onto rank 1).
     */
    @Test
    void aWorkerNumberOnAFileOfEightDevicesNamesTheHost(@TempDir Path dir) throws Exception {
        Path worker1 = dir.resolve("worker1.xplane.pb");
        Files.copy(realFile(), worker1);
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new XPlaneReader(), ReaderTestSupport.task(worker1, TraceFormat.XPLANE));
        for (Row r : read.rows()) {
            Integer device = (Integer) col(r, EventSchema.DEVICE);
            if (device != null) assertEquals(device, col(r, EventSchema.RANK));
        }
        assertNull(read.report().rank);
        assertEquals(
                java.util.List.of(0, 1, 2, 3, 4, 5, 6, 7),
                new ArrayList<>(read.report().ranksHeld()));
        assertEquals(
                "one rank per device index; the 1 in the file name names the host, not a rank, in a file of 8 devices",
                read.report().metadata.get("rank_note"));
    }

    private static void statMeta(XPlane.Builder plane, long id, String name) {
        plane.putStatMetadata(
                id, XStatMetadata.newBuilder().setId(id).setName(name).build());
    }

    private static XStat str(long id, String value) {
        return XStat.newBuilder().setMetadataId(id).setStrValue(value).build();
    }

    /** Protobuf wire format by hand (varints and length-delimited fields only), independent of the reader. */
    static final class WireCounts {
        static Map<String, Integer> eventsPerPlane(byte[] bytes) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            ByteBuffer space = ByteBuffer.wrap(bytes);
            while (space.hasRemaining()) {
                long key = varint(space);
                ByteBuffer plane = field(space, key);
                if (plane == null || key >>> 3 != 1) continue;
                String name = null;
                int events = 0;
                int lines = 0;
                while (plane.hasRemaining()) {
                    long k = varint(plane);
                    ByteBuffer v = field(plane, k);
                    if (k >>> 3 == 2 && v != null)
                        name = StandardCharsets.UTF_8.decode(v).toString();
                    if (k >>> 3 == 3 && v != null) {
                        lines++;
                        while (v.hasRemaining()) {
                            long lk = varint(v);
                            ByteBuffer lv = field(v, lk);
                            if (lk >>> 3 == 4 && lv != null) events++;
                        }
                    }
                }
                if (lines > 0) counts.put(name, events);
            }
            return new TreeMap<>(counts);
        }

        /** The value of a length-delimited field, or null after skipping any other wire type. */
        private static ByteBuffer field(ByteBuffer in, long key) {
            switch ((int) (key & 7)) {
                case 0 -> varint(in);
                case 1 -> in.position(in.position() + 8);
                case 5 -> in.position(in.position() + 4);
                case 2 -> {
                    int len = (int) varint(in);
                    ByteBuffer v = in.slice(in.position(), len);
                    in.position(in.position() + len);
                    return v;
                }
                default -> throw new IllegalStateException("wire type " + (key & 7));
            }
            return null;
        }

        private static long varint(ByteBuffer in) {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = in.get();
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) return v;
            }
        }
    }
}
