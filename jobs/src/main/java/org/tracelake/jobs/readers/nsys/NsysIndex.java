package org.tracelake.jobs.readers.nsys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.tracelake.jobs.readers.common.StepWindows;
import org.tracelake.udfs.CollectiveKind;

/**
 * What must be known before the first row of an Nsight export, read with small streaming queries: the session's
 * epoch start, the export's versions and GPUs, which devices each process used (for ranks), the step ranges per
 * process and the NCCL-like NVTX ranges per thread (for collective kinds and sizes). Memory grows with steps and
 * communication ranges, never with kernels or API calls.
 */
final class NsysIndex {
    static final String KERNEL = "CUPTI_ACTIVITY_KIND_KERNEL";
    static final String MEMCPY = "CUPTI_ACTIVITY_KIND_MEMCPY";
    static final String MEMSET = "CUPTI_ACTIVITY_KIND_MEMSET";
    static final String RUNTIME = "CUPTI_ACTIVITY_KIND_RUNTIME";
    static final String NVTX = "NVTX_EVENTS";
    static final String STRINGS = "StringIds";
    static final List<String> GPU_TABLES = List.of(KERNEL, MEMCPY, MEMSET);

    /** ENUM_NSYS_EVENT_TYPE: ranges pushed/popped on a thread, and start/end ranges. */
    static final int NVTX_PUSH_POP = 59;

    static final int NVTX_START_END = 60;
    static final int NVTX_MARK = 34;
    static final int NVTX_DOMAIN_CREATE = 75;

    /** NCCL's NVTX payload entry names (nccl src/include/nvtx_payload_schemas.h). */
    static final String NCCL_MESSAGE_SIZE = "Message size [bytes]";

    static final String NCCL_RANKS = "No. of ranks";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A communication-looking NVTX range on one thread, with NCCL's payload sizes when it carried them. */
    record CommRange(long start, long end, String name, Long messageBytes, Integer ranks) {}

    Long sessionStartNs;
    final Map<String, String> metadata = new LinkedHashMap<>();
    final TreeSet<Integer> devices = new TreeSet<>();
    private final Map<Long, Set<Integer>> devicesByProcess = new HashMap<>();
    private final Map<Long, StepWindows> stepsByProcess = new HashMap<>();
    private final Map<Long, List<CommRange>> commRangesByThread = new HashMap<>();
    final Map<Long, String> nvtxDomains = new HashMap<>();

    static NsysIndex build(Connection conn, SqliteSchema schema) throws SQLException, IOException {
        NsysIndex index = new NsysIndex();
        index.readSessionStart(conn, schema);
        index.readExportInfo(conn, schema);
        index.readGpus(conn, schema);
        index.readDevicesByProcess(conn, schema);
        index.readNvtx(conn, schema);
        return index;
    }

    private void readSessionStart(Connection conn, SqliteSchema schema) throws SQLException {
        String table = "TARGET_INFO_SESSION_START_TIME";
        if (!schema.has(table, "utcEpochNs")) return;
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT utcEpochNs FROM " + table + " LIMIT 1")) {
            if (rs.next()) {
                long v = rs.getLong(1);
                if (!rs.wasNull()) sessionStartNs = v;
            }
        }
    }

    /** Schema and nsys versions: META_DATA_EXPORT in 3.x exports, EXPORT_META_DATA in 2.x. */
    private void readExportInfo(Connection conn, SqliteSchema schema) throws SQLException {
        for (String table : List.of("META_DATA_EXPORT", "EXPORT_META_DATA")) {
            if (!schema.has(table, "name") || !schema.has(table, "value")) continue;
            try (Statement s = conn.createStatement();
                    ResultSet rs = s.executeQuery("SELECT name, value FROM " + table)) {
                while (rs.next()) {
                    String name = rs.getString(1);
                    String value = rs.getString(2);
                    if ("EXPORT_SCHEMA_VERSION".equals(name)) metadata.put("export_schema_version", value);
                    if ("EXPORT_PRODUCT_VERSION".equals(name)) metadata.put("nsys_version", value);
                    if ("EXPORT_PRODUCT_NAME".equals(name)) metadata.put("exporter", value);
                }
            }
        }
    }

    /** TARGET_INFO_GPU as a JSON list; its id is the kernel's deviceId (not cuDevice, FORMATS.md §2). */
    private void readGpus(Connection conn, SqliteSchema schema) throws SQLException, IOException {
        String table = "TARGET_INFO_GPU";
        if (!schema.has(table)) return;
        List<String> wanted = List.of(
                "id",
                "name",
                "busLocation",
                "uuid",
                "cuDevice",
                "smCount",
                "totalMemory",
                "computeMajor",
                "computeMinor",
                "chipName");
        StringBuilder select = new StringBuilder();
        for (String c : wanted)
            select.append(select.length() == 0 ? "" : ", ")
                    .append(schema.col("g", table, c))
                    .append(" AS ")
                    .append(c);
        ArrayNode gpus = JSON.createArrayNode();
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery("SELECT " + select + " FROM " + table + " g ORDER BY 1")) {
            while (rs.next()) {
                ObjectNode gpu = gpus.addObject();
                for (String c : wanted) {
                    Object v = rs.getObject(c);
                    if (v != null) gpu.putPOJO(c, v);
                }
            }
        }
        metadata.put("gpus", JSON.writeValueAsString(gpus));
    }

    private void readDevicesByProcess(Connection conn, SqliteSchema schema) throws SQLException {
        for (String table : GPU_TABLES) {
            if (!schema.has(table, "deviceId")) continue;
            String proc = schema.has(table, "globalPid") ? "globalPid / " + GlobalIds.ONE_PROCESS : "0";
            try (Statement s = conn.createStatement();
                    ResultSet rs = s.executeQuery(
                            "SELECT DISTINCT " + proc + ", deviceId FROM " + table + " WHERE deviceId IS NOT NULL")) {
                while (rs.next()) {
                    int device = rs.getInt(2);
                    devices.add(device);
                    devicesByProcess
                            .computeIfAbsent(rs.getLong(1), k -> new TreeSet<>())
                            .add(device);
                }
            }
        }
    }

    /** Step ranges per process and communication ranges per thread; every other NVTX row is left to the second pass. */
    private void readNvtx(Connection conn, SqliteSchema schema) throws SQLException {
        if (!schema.has(NVTX, "start") || !schema.has(NVTX, "eventType")) return;
        try (Statement s = conn.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT " + schema.col("n", NVTX, "domainId") + ", " + NsysQueries.nvtxText(schema) + " FROM "
                                + NVTX + " n WHERE n.eventType = " + NVTX_DOMAIN_CREATE)) {
            while (rs.next()) nvtxDomains.put(rs.getLong(1), rs.getString(2));
        }
        String sql =
                "SELECT n.start, " + schema.col("n", NVTX, "end") + ", " + schema.col("n", NVTX, "globalTid") + ", "
                        + NsysQueries.nvtxText(schema) + ", " + NsysQueries.nvtxJson(schema)
                        + " FROM " + NVTX + " n WHERE n.eventType IN (" + NVTX_PUSH_POP + ", " + NVTX_START_END + ")";
        try (Statement s = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            s.setFetchSize(NsysQueries.FETCH_SIZE);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    long start = rs.getLong(1);
                    long end = rs.getLong(2);
                    if (rs.wasNull() || end < start) continue;
                    long thread = rs.getLong(3);
                    String text = rs.getString(4);
                    if (text == null) continue;
                    stepsByProcess
                            .computeIfAbsent(GlobalIds.process(thread), k -> new StepWindows())
                            .offerAnnotation(NsysRows.CAT_ANNOTATION, text, start, end - start);
                    if (CollectiveKind.of(null, null, text) != null) {
                        commRangesByThread
                                .computeIfAbsent(thread, k -> new ArrayList<>())
                                .add(commRange(start, end, text, rs.getString(5)));
                    }
                }
            }
        }
        stepsByProcess.values().forEach(StepWindows::seal);
        commRangesByThread.values().forEach(l -> l.sort(Comparator.comparingLong(CommRange::start)));
    }

    /** NCCL ≥ 2.19 puts message size and rank count in the range's payload; use them only when present. */
    private static CommRange commRange(long start, long end, String name, String payloadJson) {
        Long bytes = null;
        Integer ranks = null;
        if (payloadJson != null && payloadJson.startsWith("{")) {
            try {
                JsonNode payload = JSON.readTree(payloadJson);
                if (payload.path(NCCL_MESSAGE_SIZE).canConvertToLong())
                    bytes = payload.get(NCCL_MESSAGE_SIZE).asLong();
                if (payload.path(NCCL_RANKS).canConvertToInt())
                    ranks = payload.get(NCCL_RANKS).asInt();
            } catch (IOException unreadable) {
                // a payload we cannot read adds nothing; the range still names the collective
            }
        }
        return new CommRange(start, end, name, bytes, ranks);
    }

    Set<Integer> devicesOf(long globalPidOrTid) {
        Set<Integer> d = devicesByProcess.get(GlobalIds.process(globalPidOrTid));
        return d == null ? Collections.emptySet() : d;
    }

    boolean anyProcessUsesSeveralDevices() {
        for (Set<Integer> d : devicesByProcess.values()) if (d.size() > 1) return true;
        return false;
    }

    /** The step of a host time in a process, or null. */
    Long stepAt(long globalPidOrTid, Long ts) {
        StepWindows steps = stepsByProcess.get(GlobalIds.process(globalPidOrTid));
        return steps == null ? null : steps.stepAt(ts);
    }

    int stepCount() {
        int n = 0;
        for (StepWindows t : stepsByProcess.values()) n = Math.max(n, t.count());
        return n;
    }

    /** The innermost communication range on the thread that encloses the time (a kernel's launch), or null. */
    CommRange enclosingCommRange(Long globalTid, Long ts) {
        if (globalTid == null || ts == null) return null;
        List<CommRange> ranges = commRangesByThread.get(globalTid);
        if (ranges == null) return null;
        CommRange innermost = null;
        for (CommRange r : ranges) {
            if (r.start() > ts) break;
            if (ts <= r.end() && (innermost == null || r.start() >= innermost.start())) innermost = r;
        }
        return innermost;
    }
}
