package org.tracelake.jobs.readers.nsys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.ReaderTestSupport.arg;
import static org.tracelake.jobs.testing.ReaderTestSupport.col;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;

/**
 * Nsight Systems SQLite. The real file is hpcgroup/pipit tests/data/cloverleaf-nsys (one MPI rank of CloverLeaf on a
 * 4x A100 node, no NCCL, no NVTX). Every expected number was obtained independently with the {@code sqlite3} command
 * line on that file; the query is quoted next to each value. The second half builds small exports with the features
 * the real file lacks (NVTX steps, NCCL ranges with payloads, memsets, two devices, extra columns, gzip, .nsys-rep).
 */
class NsysReaderTest {
    private static final String REAL_TRACE = "nsys/perlmutter-cloverleaf-cuda.sqlite";
    /** sqlite3: SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME */
    private static final long SESSION_START = 1_696_392_839_587_175_550L;

    /** The real file: tests that need it are skipped where the shared traces are absent, the others run. */
    private static Path realFile() {
        return SharedTraces.path(REAL_TRACE);
    }

    /** The real file read once, by the first test that asks. */
    private static ReaderTestSupport.Read real() {
        return ReaderTestSupport.readOnce(new NsysReader(), realFile(), TraceFormat.NSYS_SQLITE);
    }

    private static List<Row> rows(ReaderTestSupport.Read read, String cat) {
        return read.rows().stream()
                .filter(r -> cat.equals(col(r, EventSchema.CAT)))
                .toList();
    }

    @Test
    void cloverleafCountsByKind() {
        // sqlite3: SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL → 1312; …_RUNTIME → 3048; …_MEMCPY → 279;
        // no MEMSET and no NVTX_EVENTS table (".tables")
        assertEquals(1_312, rows(real(), "kernel").size());
        assertEquals(3_048, rows(real(), "cuda_runtime").size());
        assertEquals(279, rows(real(), "gpu_memcpy").size());
        assertEquals(1_312 + 3_048 + 279, real().rows().size());
        assertEquals(0L, real().report().drops.total());
        // sqlite3: SELECT deviceId, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 → 0|1312
        for (Row r : rows(real(), "kernel")) {
            assertEquals(0, (Integer) col(r, EventSchema.DEVICE));
            assertEquals(0, (Integer) col(r, EventSchema.RANK));
            assertEquals("compute", col(r, EventSchema.ACTIVITY_CLASS));
        }
        // one device in the file: every row, host rows included, is rank 0
        real().rows().forEach(r -> assertEquals(0, (Integer) col(r, EventSchema.RANK)));
        assertEquals(0, real().report().rank);
        assertEquals("device", real().report().rankSource);
        // sqlite3: SELECT copyKind, count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1 → 1|254, 2|25
        Map<String, Integer> copies = new HashMap<>();
        rows(real(), "gpu_memcpy").forEach(r -> copies.merge(col(r, EventSchema.NAME), 1, Integer::sum));
        assertEquals(Map.of("Memcpy HtoD", 254, "Memcpy DtoH", 25), copies);
        // sqlite3: SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY → 225116952
        assertEquals(
                225_116_952L,
                rows(real(), "gpu_memcpy").stream()
                        .mapToLong(r -> Long.parseLong(arg(r, "bytes")))
                        .sum());
    }

    @Test
    void cloverleafKernelTimeSpanAndTopKernels() {
        // sqlite3: SELECT utcEpochNs + min(start), utcEpochNs + max(end) over the kernels
        //   → 1696392840120513790 | 1696392840462854497; SELECT sum(end - start) → 294404540
        long minTs = Long.MAX_VALUE;
        long maxEnd = Long.MIN_VALUE;
        long sum = 0;
        Map<String, Long> timeByName = new HashMap<>();
        for (Row r : rows(real(), "kernel")) {
            long ts = col(r, EventSchema.TS_NS);
            long dur = col(r, EventSchema.DUR_NS);
            minTs = Math.min(minTs, ts);
            maxEnd = Math.max(maxEnd, ts + dur);
            sum += dur;
            timeByName.merge(col(r, EventSchema.NAME), dur, Long::sum);
        }
        assertEquals(1_696_392_840_120_513_790L, minTs);
        assertEquals(1_696_392_840_462_854_497L, maxEnd);
        assertEquals(294_404_540L, sum);
        // sqlite3: SELECT coalesce(demangled.value, short.value), sum(end - start) … GROUP BY 1 ORDER BY 2 DESC LIMIT 3
        //   → PdV_kernel (instance 2) 19404589, calc_dt_kernel 18650735, PdV_kernel (instance 1) 15984402;
        //   SELECT count(DISTINCT demangledName) → 102
        List<Map.Entry<String, Long>> top = timeByName.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(3)
                .toList();
        assertEquals(102, timeByName.size());
        assertEquals(19_404_589L, top.get(0).getValue());
        assertTrue(top.get(0)
                .getKey()
                .startsWith("void clover::par_ranged2d_kernel<PdV_kernel(bool, int, int, int, int, double, "));
        assertTrue(top.get(0).getKey().endsWith("::[lambda(int, int) (instance 2)]>(clover::Range2d, T1)"));
        assertEquals(18_650_735L, top.get(1).getValue());
        assertTrue(
                top.get(1).getKey().startsWith("void clover::par_reduce_kernel<calc_dt_kernel(global_variables &, "));
        assertEquals(15_984_402L, top.get(2).getValue());
        assertTrue(top.get(2).getKey().endsWith("::[lambda(int, int) (instance 1)]>(clover::Range2d, T1)"));
    }

    @Test
    void cloverleafLaunchesPidsAndMetadata() {
        // sqlite3: the earliest kernel (start 533338240, correlation 452) was launched by cudaLaunchKernel_v7000 at
        // 533303007 on globalTid 310028055214088: PID (g >> 24) & 0xFFFFFF = 1701896, TID g & 0xFFFFFF = 1701896
        Row first = rows(real(), "kernel").stream()
                .min(Comparator.comparingLong(r -> (Long) col(r, EventSchema.TS_NS)))
                .orElseThrow();
        assertEquals(452L, (Long) col(first, EventSchema.CORRELATION));
        assertEquals(SESSION_START + 533_303_007L, (Long) col(first, EventSchema.LAUNCH_TS_NS));
        assertEquals(SESSION_START + 533_338_240L, (Long) col(first, EventSchema.TS_NS));
        assertEquals("1701896", col(first, EventSchema.PID));
        assertEquals("1701896", col(first, EventSchema.TID));
        assertEquals(7L, (Long) col(first, EventSchema.STREAM));
        assertEquals("115426", arg(first, "gridX"));
        // sqlite3: every kernel's correlationId has a runtime call (… WHERE correlationId IN (SELECT … RUNTIME) → 1312)
        assertTrue(rows(real(), "kernel").stream().allMatch(r -> col(r, EventSchema.LAUNCH_TS_NS) != null));
        // sqlite3: SELECT value FROM StringIds JOIN RUNTIME … GROUP BY → cudaLaunchKernel_v7000 1312,
        // cudaDeviceSynchronize_v3020 1312
        assertEquals(
                1_312,
                rows(real(), "cuda_runtime").stream()
                        .filter(r -> "cudaLaunchKernel_v7000".equals(col(r, EventSchema.NAME)))
                        .count());
        Map<String, String> meta = real().report().metadata;
        assertEquals("3.13.2", meta.get("export_schema_version")); // META_DATA_EXPORT
        assertEquals("2024.5.1.113", meta.get("nsys_version"));
        assertEquals(4, meta.get("gpus").split("\"busLocation\"").length - 1); // TARGET_INFO_GPU has 4 rows
        assertEquals("[0]", meta.get("devices"));
        assertEquals(TraceFileSchema.TIME_BASE_EPOCH, real().report().timeBase);
        assertEquals(SESSION_START, real().report().baseTimeNs);
        assertTrue(real().report().contentHash.startsWith("sha256:"));
    }

    @Test
    void stepsNcclRangesMemsetsAndTwoDevices(@TempDir Path dir) throws Exception {
        Path db = SyntheticExport.write(dir.resolve("train.sqlite"));
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new NsysReader(), ReaderTestSupport.task(db, TraceFormat.NSYS_SQLITE));
        assertEquals(3 + 1 + 5 + 4, read.rows().size()); // kernels, memset, runtime calls, NVTX ranges and mark
        Map<Long, Row> kernels = new HashMap<>();
        rows(read, "kernel").forEach(r -> kernels.put(col(r, EventSchema.CORRELATION), r));

        Row gemm = kernels.get(1L);
        assertEquals(5L, (Long) col(gemm, EventSchema.STEP));
        assertEquals("gemm", col(gemm, EventSchema.KERNEL_CATEGORY));
        assertEquals(SyntheticExport.BASE + 2_500, (Long) col(gemm, EventSchema.TS_NS));

        Row nccl = kernels.get(2L);
        assertEquals("comm", col(nccl, EventSchema.ACTIVITY_CLASS));
        assertEquals("all_reduce", col(nccl, EventSchema.COLLECTIVE));
        assertEquals(6L, (Long) col(nccl, EventSchema.STEP)); // runs after step 6 ended; launched inside it
        assertEquals("ncclAllReduce", arg(nccl, "nvtx_range"));
        assertEquals(1_048_576L, (Long) col(nccl, EventSchema.IN_BYTES));
        assertEquals(1_048_576L, (Long) col(nccl, EventSchema.OUT_BYTES));
        assertEquals("cpu_op_args", col(nccl, EventSchema.BYTES_SOURCE));
        assertEquals(2, (Integer) col(nccl, EventSchema.GROUP_SIZE));
        assertEquals("Float", col(nccl, EventSchema.DTYPE));
        assertEquals("4321", col(nccl, EventSchema.PID));
        assertEquals("4325", col(nccl, EventSchema.TID));

        Row second = kernels.get(5L);
        assertEquals("short_only_kernel", col(second, EventSchema.NAME)); // no demangled name: the short name
        assertEquals(1, (Integer) col(second, EventSchema.RANK));

        Row memset = rows(read, "gpu_memset").get(0);
        assertEquals("memset", col(memset, EventSchema.ACTIVITY_CLASS));
        assertEquals(5L, (Long) col(memset, EventSchema.STEP));

        Map<String, Row> runtime = new HashMap<>();
        rows(read, "cuda_runtime")
                .forEach(r -> runtime.put(col(r, EventSchema.CORRELATION).toString(), r));
        assertEquals(1, (Integer) col(runtime.get("5"), EventSchema.RANK)); // launched on device 1
        assertEquals(0, (Integer) col(runtime.get("1"), EventSchema.RANK));
        assertNull(col(runtime.get("4"), EventSchema.RANK)); // cudaMalloc of a process driving two GPUs
        assertNull(col(runtime.get("4"), EventSchema.STEP)); // before the first step

        List<Row> nvtx = rows(read, "user_annotation");
        Row step6 = nvtx.stream()
                .filter(r -> "ProfilerStep#6".equals(col(r, EventSchema.NAME)))
                .findFirst()
                .orElseThrow();
        assertEquals(6L, (Long) col(step6, EventSchema.STEP));
        Row range = nvtx.stream()
                .filter(r -> "ncclAllReduce".equals(col(r, EventSchema.NAME)))
                .findFirst()
                .orElseThrow();
        assertEquals("NCCL", arg(range, "domain"));
        Row mark = nvtx.stream()
                .filter(r -> "i".equals(col(r, EventSchema.PH)))
                .findFirst()
                .orElseThrow();
        assertNull(col(mark, EventSchema.DUR_NS));

        assertNull(read.report().rank);
        assertEquals("[0, 1]", read.report().metadata.get("ranks"));
        assertEquals("2", read.report().metadata.get("step_count"));
        assertEquals("2022.2.1.31", read.report().metadata.get("nsys_version")); // the 2.x EXPORT_META_DATA table
    }

    @Test
    void aRankInTheFileNameWinsAndGzipIsUndone(@TempDir Path dir) throws Exception {
        Path db = SyntheticExport.write(dir.resolve("plain.sqlite"));
        Path gz = dir.resolve("rank3_train.sqlite.gz");
        try (InputStream in = Files.newInputStream(db);
                OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            in.transferTo(out);
        }
        long tempDirsBefore = nsysTempDirs();
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new NsysReader(), ReaderTestSupport.task(gz, TraceFormat.NSYS_SQLITE));
        assertEquals(13, read.rows().size());
        read.rows().forEach(r -> assertEquals(3, (Integer) col(r, EventSchema.RANK)));
        assertEquals(3, read.report().rank);
        assertEquals(TraceFileSchema.RANK_FROM_FILE_NAME, read.report().rankSource);
        assertEquals(tempDirsBefore, nsysTempDirs(), "the decompressed copy is deleted on close");
    }

    @Test
    void aReportWithoutNsysNamesTheCommandToRun(@TempDir Path dir) throws IOException {
        Path rep = dir.resolve("run3.nsys-rep");
        Files.writeString(rep, "not really a report");
        IOException e = assertThrows(
                IOException.class,
                () -> ReaderTestSupport.readAll(
                        new NsysReader(new NsysExport(dir.resolve("no-bin").toString())),
                        ReaderTestSupport.task(rep, TraceFormat.NSYS_REP)));
        assertTrue(
                e.getMessage().contains("`nsys export --type sqlite --output run3.sqlite run3.nsys-rep`"),
                e.getMessage());
    }

    @Test
    void aReportIsConvertedWithNsysWhenItIsThere(@TempDir Path dir) throws Exception {
        Path db = SyntheticExport.write(dir.resolve("exported.sqlite"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path nsys = bin.resolve("nsys");
        // a stand-in for NVIDIA's tool: checks the arguments it is given and "exports" the prepared database
        Files.writeString(
                nsys,
                "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"export --type sqlite --output\" ] || exit 3\n" + "cp '" + db
                        + "' \"$5\"\n");
        Files.setPosixFilePermissions(nsys, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path rep = dir.resolve("run.nsys-rep");
        Files.writeString(rep, "report bytes");
        ReaderTestSupport.Read read = ReaderTestSupport.readAll(
                new NsysReader(new NsysExport(bin.toString())), ReaderTestSupport.task(rep, TraceFormat.NSYS_REP));
        assertEquals(13, read.rows().size());
        assertNotNull(read.report().contentHash);
    }

    @Test
    void aFileThatIsNotSqliteGetsAClearError(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("broken.sqlite");
        Files.writeString(bad, "SQLite format 3\0 but then nothing sensible".repeat(40));
        IOException e = assertThrows(
                IOException.class,
                () -> ReaderTestSupport.readAll(
                        new NsysReader(), ReaderTestSupport.task(bad, TraceFormat.NSYS_SQLITE)));
        assertTrue(e.getMessage().contains("re-run nsys export"), e.getMessage());
    }

    /** The one Spark test: the real export read on an executor through detection and the registry. */
    @Test
    void ingestsThroughSpark() throws IOException {
        SparkSession spark = ReaderTestSupport.localSpark();
        List<FileReport> reports = new ArrayList<>();
        var df = ReaderTestSupport.ingest(spark, ReaderTestSupport.task(realFile(), TraceFormat.NSYS_SQLITE), reports);
        df.createOrReplaceTempView("nsys_events");
        Row r = spark.sql("SELECT count(*), sum(CASE WHEN cat = 'kernel' THEN 1 ELSE 0 END), "
                        + "sum(CASE WHEN activity_class = 'memcpy' THEN 1 ELSE 0 END) FROM nsys_events")
                .first();
        assertEquals(4_639L, r.getLong(0));
        assertEquals(1_312L, r.getLong(1));
        assertEquals(279L, r.getLong(2));
        assertEquals(TraceFileSchema.STATUS_OK, reports.get(0).status, reports.get(0).error);
        assertEquals("nsys_sqlite", reports.get(0).format);
    }

    private static long nsysTempDirs() throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return s.filter(p -> p.getFileName().toString().startsWith("tracelake-nsys-"))
                    .count();
        }
    }

    /**
     * Issue 46: an export of Nsight Systems 2026.x (schema 3.25) has columns and tables older ones lack:
     * greenContextId and later kernel columns (clusterX/Y/Z, graphId, launch-attribute flags), a META_DATA_EXPORT
     * of the new version, a table no reader knows. Nothing a newer profiler adds is refused; the known columns are
     * read by name.
     */
    @Test
    void aNewerSchemaWithMoreColumnsAndTablesIsRead(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("nsys2026.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
            s.executeUpdate("INSERT INTO StringIds VALUES (1, 'nvjet_sm100_tst_256x128_64x4_2x1_v_bz_coopA_NTT'),"
                    + " (2, 'nvjet_sm100_tst'), (10, 'cudaLaunchKernelExC_v11060')");
            s.executeUpdate("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)");
            s.executeUpdate("INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.25.0'),"
                    + " ('EXPORT_PRODUCT_VERSION', '2026.1.1.120'), ('EXPORT_SCHEMA_VERSION_MAJOR', '3')");
            s.executeUpdate(
                    "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)");
            s.executeUpdate(
                    "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" + SyntheticExport.BASE + ", 'x', 'y')");
            s.executeUpdate("CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, cuDevice INTEGER,"
                    + " uuid TEXT, smCount INTEGER, computeMajor INTEGER, computeMinor INTEGER, greenContextSupport"
                    + " INTEGER)");
            s.executeUpdate(
                    "INSERT INTO TARGET_INFO_GPU VALUES (0, 'B200', '0000:01:00.0', 0, 'GPU-1', 148, 10, 0, 1)");
            s.executeUpdate("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
                    + " contextId INTEGER, greenContextId INTEGER, streamId INTEGER, correlationId INTEGER,"
                    + " globalPid INTEGER, demangledName INTEGER, shortName INTEGER, mangledName INTEGER,"
                    + " launchType INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,"
                    + " blockZ INTEGER, clusterX INTEGER, clusterY INTEGER, clusterZ INTEGER, graphId INTEGER,"
                    + " graphNodeId INTEGER, isProgrammaticDependentLaunch INTEGER, sharedMemoryLimitConfig INTEGER)");
            s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 2600, 0, 1, 3, 7, 1, "
                    + SyntheticExport.GLOBAL_PID + ", 1, 2, NULL, 0, 132, 1, 1, 384, 1, 1, 2, 1, 1, 17, 4, 1, 0)");
            s.executeUpdate("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,"
                    + " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER,"
                    + " callchainId INTEGER, greenContextId INTEGER)");
            s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1500, 1600, 1, "
                    + SyntheticExport.GLOBAL_TID + ", 1, 10, 0, NULL, 3)");
            s.executeUpdate("CREATE TABLE CUDA_GREEN_CONTEXTS (id INTEGER, deviceId INTEGER, smCount INTEGER)");
        }
        ReaderTestSupport.Read read =
                ReaderTestSupport.readAll(new NsysReader(), ReaderTestSupport.task(db, TraceFormat.NSYS_SQLITE));
        assertEquals(2, read.rows().size()); // the kernel and its launch
        assertEquals(0L, read.report().drops.total());
        Row kernel = rows(read, "kernel").get(0);
        assertEquals("nvjet_sm100_tst_256x128_64x4_2x1_v_bz_coopA_NTT", col(kernel, EventSchema.NAME));
        assertEquals("gemm", col(kernel, EventSchema.KERNEL_CATEGORY));
        assertEquals(SyntheticExport.BASE + 2_000, (Long) col(kernel, EventSchema.TS_NS));
        assertEquals(600L, (Long) col(kernel, EventSchema.DUR_NS));
        assertEquals(SyntheticExport.BASE + 1_500, (Long) col(kernel, EventSchema.LAUNCH_TS_NS));
        assertEquals("3.25.0", read.report().metadata.get("export_schema_version"));
        assertEquals("2026.1.1.120", read.report().metadata.get("nsys_version"));
    }

    /** A small export with the shape of a 2.x nsys export plus what cloverleaf lacks. */
    static final class SyntheticExport {
        static final long BASE = 1_700_000_000_000_000_000L;
        /** hardware 1, VM 0, PID 4321; the thread is TID 4325. */
        static final long GLOBAL_PID = (1L << 56) | (4321L << 24);

        static final long GLOBAL_TID = GLOBAL_PID | 4325L;

        static Path write(Path file) throws SQLException {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                    Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
                s.executeUpdate("INSERT INTO StringIds VALUES (1, 'gemm_kernel_128x64'), (2, 'gemm'),"
                        + " (3, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)'),"
                        + " (4, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'), (5, 'short_only_kernel'), (10, 'cudaLaunchKernel_v7000'),"
                        + " (11, 'cudaMemsetAsync_v3020'), (12, 'cudaMalloc_v3020'), (20, 'ProfilerStep#5')");
                s.executeUpdate(
                        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)");
                s.executeUpdate("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" + BASE + ", 'x', 'y')");
                s.executeUpdate("CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT)");
                s.executeUpdate(
                        "INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_SCHEMA_VERSION', '2.9.1'), ('EXPORT_PRODUCT_VERSION', '2022.2.1.31')");
                s.executeUpdate(
                        "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, cuDevice INTEGER)");
                s.executeUpdate(
                        "INSERT INTO TARGET_INFO_GPU VALUES (0, 'H100', '0000:01:00.0', 0), (1, 'H100', '0000:02:00.0', 1)");
                // an extra "name" column, as pipit adds after export: columns are selected by name
                s.executeUpdate(
                        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,"
                                + " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,"
                                + " gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, name TEXT)");
                s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
                        + " (2500, 3500, 0, 1, 7, 1, " + GLOBAL_PID + ", 1, 2, 64, 1, 1, 128, 1, 1, 'ignored'),"
                        + " (9500, 9900, 0, 1, 13, 2, " + GLOBAL_PID + ", 3, 4, 8, 1, 1, 512, 1, 1, 'ignored'),"
                        + " (8200, 8300, 1, 2, 7, 5, " + GLOBAL_PID + ", NULL, 5, 1, 1, 1, 32, 1, 1, 'ignored')");
                s.executeUpdate(
                        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,"
                                + " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, memKind INTEGER)");
                s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (3200, 3300, 0, 1, 7, 3, " + GLOBAL_PID
                        + ", 0, 4096, 2)");
                s.executeUpdate(
                        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,"
                                + " correlationId INTEGER, nameId INTEGER, returnValue INTEGER)");
                s.executeUpdate(
                        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (2000, 2100, 1, " + GLOBAL_TID + ", 1, 10, 0),"
                                + " (6100, 6200, 1, " + GLOBAL_TID + ", 2, 10, 0), (3000, 3050, 1, " + GLOBAL_TID
                                + ", 3, 11, 0),"
                                + " (500, 900, 1, " + GLOBAL_TID + ", 4, 12, 0), (8000, 8100, 1, " + GLOBAL_TID
                                + ", 5, 10, 0)");
                s.executeUpdate(
                        "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER, category INTEGER,"
                                + " color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, jsonText TEXT)");
                s.executeUpdate("INSERT INTO NVTX_EVENTS VALUES"
                        + " (100, NULL, 75, NULL, NULL, NULL, 'NCCL', " + GLOBAL_TID + ", NULL, NULL, 1, NULL),"
                        + " (1000, 5000, 59, NULL, NULL, NULL, NULL, " + GLOBAL_TID + ", NULL, 20, 0, NULL),"
                        + " (5000, 9000, 59, NULL, NULL, NULL, 'ProfilerStep#6', " + GLOBAL_TID
                        + ", NULL, NULL, 0, NULL),"
                        + " (6000, 6500, 59, NULL, NULL, NULL, 'ncclAllReduce', " + GLOBAL_TID + ", NULL, NULL, 1,"
                        + " '{\"NCCL communicator ID\": 99, \"Message size [bytes]\": 1048576, \"No. of ranks\": 2}'),"
                        + " (7000, NULL, 34, NULL, NULL, NULL, 'checkpoint', " + GLOBAL_TID + ", NULL, NULL, 0, NULL)");
            }
            return file;
        }
    }
}
