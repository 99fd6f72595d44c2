package org.tracelake.jobs.generate.formats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An {@code nsys export --type sqlite} of one process driving two GPUs (FORMATS.md §2), with the tables and columns
 * a 3.x export has for what it holds: per GPU a GEMM (400 µs) and an NCCL all-reduce kernel (100 µs), each launched
 * by a {@code cudaLaunchKernel} call, one 8 MiB host-to-device copy on GPU 0, and an NVTX range
 * {@code ProfilerStep#1} around it all. Times are ns from the session start, which is {@link FormatSamples#START_NS}.
 */
final class NsysSqliteSample {
    static final String FILE = "report.sqlite";
    /** Hardware 0, VM 0, PID 4242 (FORMATS.md §2's layout); its one thread is TID 4243. */
    static final long GLOBAL_PID = 4242L << 24;

    static final long GLOBAL_TID = GLOBAL_PID | 4243L;

    private NsysSqliteSample() {}

    static void write(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        Files.deleteIfExists(file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
            s.executeUpdate("INSERT INTO StringIds VALUES (1, 'ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_nn'),"
                    + " (2, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)'),"
                    + " (3, 'ncclDevKernel_AllReduce_Sum_bf16_RING_LL'), (10, 'cudaLaunchKernel_v7000'),"
                    + " (11, 'cudaMemcpyAsync_v3020'), (20, 'ProfilerStep#1')");
            s.executeUpdate("CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)");
            s.executeUpdate(
                    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.13.2'),"
                            + " ('EXPORT_PRODUCT_VERSION', '2024.5.1'), ('EXPORT_GENERATOR', 'tracelake generate (simulated)')");
            s.executeUpdate(
                    "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT)");
            s.executeUpdate("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (" + FormatSamples.START_NS
                    + ", '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')");
            s.executeUpdate("CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, cuDevice INTEGER,"
                    + " smCount INTEGER, totalMemory INTEGER, computeMajor INTEGER, computeMinor INTEGER)");
            s.executeUpdate("INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA A100-SXM4-80GB', '0000:07:00.0', 0, 108,"
                    + " 85899345920, 8, 0), (1, 'NVIDIA A100-SXM4-80GB', '0000:0b:00.0', 1, 108, 85899345920, 8, 0)");
            s.executeUpdate("CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT)");
            s.executeUpdate("INSERT INTO PROCESSES VALUES (" + GLOBAL_PID + ", 4242, 'python3')");
            s.executeUpdate("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
                    + " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
                    + " shortName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,"
                    + " blockZ INTEGER)");
            s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
                    + " (1000000, 1400000, 0, 1, 7, 1, " + GLOBAL_PID + ", 1, 1, 108, 1, 1, 256, 1, 1),"
                    + " (1500000, 1600000, 0, 1, 13, 2, " + GLOBAL_PID + ", 2, 3, 2, 1, 1, 512, 1, 1),"
                    + " (1010000, 1410000, 1, 2, 7, 3, " + GLOBAL_PID + ", 1, 1, 108, 1, 1, 256, 1, 1),"
                    + " (1500000, 1600000, 1, 2, 13, 4, " + GLOBAL_PID + ", 2, 3, 2, 1, 1, 512, 1, 1)");
            s.executeUpdate("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER,"
                    + " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER,"
                    + " copyKind INTEGER, srcKind INTEGER, dstKind INTEGER)");
            s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (500000, 900000, 0, 1, 7, 5, " + GLOBAL_PID
                    + ", 8388608, 1, 0, 2)");
            s.executeUpdate("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER,"
                    + " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER)");
            s.executeUpdate("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
                    + " (950000, 960000, 1, " + GLOBAL_TID + ", 1, 10, 0), (970000, 980000, 1, " + GLOBAL_TID
                    + ", 2, 10, 0),"
                    + " (985000, 995000, 1, " + GLOBAL_TID + ", 3, 10, 0), (996000, 999000, 1, " + GLOBAL_TID
                    + ", 4, 10, 0),"
                    + " (400000, 480000, 1, " + GLOBAL_TID + ", 5, 11, 0)");
            s.executeUpdate("CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,"
                    + " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
                    + " domainId INTEGER, jsonText TEXT)");
            s.executeUpdate("INSERT INTO NVTX_EVENTS VALUES (300000, 2000000, 59, NULL, NULL, NULL, NULL, " + GLOBAL_TID
                    + ", NULL, 20, 0, NULL)");
        } catch (SQLException e) {
            throw new IOException("writing " + file + ": " + e.getMessage(), e);
        }
    }
}
