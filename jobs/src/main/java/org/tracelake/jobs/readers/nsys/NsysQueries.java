package org.tracelake.jobs.readers.nsys;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQL of each kind of Nsight row, built from the columns the export actually has ({@link SqliteSchema}):
 * names through {@code StringIds} (its primary key makes each lookup an index probe), and for GPU activity the
 * launching runtime call joined on correlation id within the same process (SQLite builds a temporary index for
 * that join in its own temp store). A correlation id shared by several activities (a CUDA graph launch) can repeat
 * the outer row; the reader keeps the first of each {@code rid}.
 */
final class NsysQueries {
    private NsysQueries() {}

    static final int FETCH_SIZE = 1024;

    /** Extra kernel columns kept in args, under these (Nsight's own) names. */
    static final List<String> KERNEL_EXTRAS = List.of(
            "contextId",
            "gridX",
            "gridY",
            "gridZ",
            "blockX",
            "blockY",
            "blockZ",
            "registersPerThread",
            "staticSharedMemory",
            "dynamicSharedMemory",
            "localMemoryTotal",
            "launchType",
            "gridId",
            "graphNodeId",
            "greenContextId");

    static final List<String> MEMCPY_EXTRAS = List.of(
            "contextId", "bytes", "copyKind", "srcKind", "dstKind", "srcDeviceId", "dstDeviceId", "graphNodeId");
    static final List<String> MEMSET_EXTRAS = List.of("contextId", "bytes", "value", "memKind", "graphNodeId");
    static final List<String> RUNTIME_EXTRAS = List.of("eventClass", "returnValue", "callchainId");
    static final List<String> NVTX_EXTRAS = List.of(
            "eventType",
            "rangeId",
            "category",
            "color",
            "domainId",
            "endGlobalTid",
            "uint64Value",
            "int64Value",
            "doubleValue",
            "uint32Value",
            "int32Value",
            "floatValue");

    static String nvtxText(SqliteSchema schema) {
        return "coalesce(" + schema.col("n", NsysIndex.NVTX, "text") + ", "
                + string(schema, "n", NsysIndex.NVTX, "textId") + ")";
    }

    static String nvtxJson(SqliteSchema schema) {
        return "coalesce(" + schema.col("n", NsysIndex.NVTX, "jsonText") + ", "
                + string(schema, "n", NsysIndex.NVTX, "jsonTextId") + ")";
    }

    /** GPU activity (kernel, memcpy, memset) with its launching runtime call, when the export has the table. */
    static String gpuActivity(SqliteSchema schema, String table, Map<String, String> named, List<String> extras) {
        StringBuilder sql = new StringBuilder("SELECT a.rowid AS rid");
        common(sql, schema, "a", table, List.of("start", "end", "deviceId", "streamId", "correlationId", "globalPid"));
        named.forEach(
                (alias, expr) -> sql.append(", ").append(expr).append(" AS ").append(alias));
        common(sql, schema, "a", table, extras);
        boolean launches = schema.has(NsysIndex.RUNTIME, "correlationId") && schema.has(table, "correlationId");
        sql.append(", ")
                .append(launches ? "r.start" : "NULL")
                .append(" AS launchStart")
                .append(", ")
                .append(launches ? schema.col("r", NsysIndex.RUNTIME, "globalTid") : "NULL")
                .append(" AS launchTid")
                .append(" FROM ")
                .append(table)
                .append(" a");
        if (launches) {
            sql.append(" LEFT JOIN ").append(NsysIndex.RUNTIME).append(" r ON r.correlationId = a.correlationId");
            if (schema.has(table, "globalPid") && schema.has(NsysIndex.RUNTIME, "globalTid")) {
                sql.append(" AND r.globalTid / ")
                        .append(GlobalIds.ONE_PROCESS)
                        .append(" = a.globalPid / ")
                        .append(GlobalIds.ONE_PROCESS);
            }
        }
        return sql.toString();
    }

    /** Kernel names: the demangled name, else the short name (FORMATS.md §2), and the short name alone. */
    static Map<String, String> kernelNames(SqliteSchema schema) {
        Map<String, String> names = new LinkedHashMap<>();
        names.put(
                "name",
                "coalesce(" + string(schema, "a", NsysIndex.KERNEL, "demangledName") + ", "
                        + string(schema, "a", NsysIndex.KERNEL, "shortName") + ")");
        names.put("shortName", string(schema, "a", NsysIndex.KERNEL, "shortName"));
        return names;
    }

    /**
     * Runtime API calls; with {@code withDevice}, the device of the GPU activity each call launched (for files where
     * a process drives several GPUs and the call's rank must come from its activity).
     */
    static String runtime(SqliteSchema schema, boolean withDevice) {
        String t = NsysIndex.RUNTIME;
        StringBuilder sql = new StringBuilder("SELECT r.rowid AS rid");
        common(sql, schema, "r", t, List.of("start", "end", "globalTid", "correlationId"));
        sql.append(", ").append(string(schema, "r", t, "nameId")).append(" AS name");
        common(sql, schema, "r", t, RUNTIME_EXTRAS);
        StringBuilder joins = new StringBuilder();
        StringBuilder device = new StringBuilder();
        if (withDevice && schema.has(t, "correlationId")) {
            int i = 0;
            for (String gpu : NsysIndex.GPU_TABLES) {
                if (!schema.has(gpu, "correlationId") || !schema.has(gpu, "deviceId")) continue;
                String alias = "g" + i++;
                joins.append(" LEFT JOIN ")
                        .append(gpu)
                        .append(' ')
                        .append(alias)
                        .append(" ON ")
                        .append(alias)
                        .append(".correlationId = r.correlationId");
                if (schema.has(gpu, "globalPid") && schema.has(t, "globalTid")) {
                    joins.append(" AND ")
                            .append(alias)
                            .append(".globalPid / ")
                            .append(GlobalIds.ONE_PROCESS)
                            .append(" = r.globalTid / ")
                            .append(GlobalIds.ONE_PROCESS);
                }
                device.append(device.length() == 0 ? "" : ", ").append(alias).append(".deviceId");
            }
        }
        sql.append(", ")
                .append(device.length() == 0 ? "NULL" : "coalesce(" + device + ", NULL)")
                .append(" AS launchedDevice");
        return sql.append(" FROM ").append(t).append(" r").append(joins).toString();
    }

    /** NVTX ranges and marks; domain creation and other bookkeeping rows are not events. */
    static String nvtx(SqliteSchema schema) {
        String t = NsysIndex.NVTX;
        StringBuilder sql = new StringBuilder("SELECT n.rowid AS rid");
        common(sql, schema, "n", t, List.of("start", "end", "globalTid"));
        sql.append(", ")
                .append(nvtxText(schema))
                .append(" AS name, ")
                .append(nvtxJson(schema))
                .append(" AS payload");
        common(sql, schema, "n", t, NVTX_EXTRAS);
        return sql.append(" FROM ")
                .append(t)
                .append(" n WHERE n.eventType IN (")
                .append(NsysIndex.NVTX_PUSH_POP)
                .append(", ")
                .append(NsysIndex.NVTX_START_END)
                .append(", ")
                .append(NsysIndex.NVTX_MARK)
                .append(")")
                .toString();
    }

    private static void common(
            StringBuilder sql, SqliteSchema schema, String alias, String table, List<String> columns) {
        for (String c : columns)
            sql.append(", ").append(schema.col(alias, table, c)).append(" AS ").append(SqliteSchema.quote(c));
    }

    /** The StringIds value an id column points at, or NULL when the column or the table is missing. */
    private static String string(SqliteSchema schema, String alias, String table, String idColumn) {
        if (!schema.has(table, idColumn) || !schema.has(NsysIndex.STRINGS, "id")) return "NULL";
        return "(SELECT value FROM " + NsysIndex.STRINGS + " WHERE id = " + alias + "." + SqliteSchema.quote(idColumn)
                + ")";
    }
}
