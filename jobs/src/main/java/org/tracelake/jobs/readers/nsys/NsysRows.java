package org.tracelake.jobs.readers.nsys;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.DtypeSize;
import org.tracelake.udfs.MessageBytes;

/**
 * The rows of an Nsight export, pulled one at a time from one forward-only result set per kind; the next kind's
 * query runs only when the previous one is exhausted, so at most one cursor is open and no table is held.
 */
final class NsysRows extends RowStream {
    /** One kind of row: its query and how a result row becomes an events row (false: dropped, reason counted). */
    private record Section(String kind, String sql, Filler filler) {}

    @FunctionalInterface
    private interface Filler {
        boolean fill(ResultSet rs) throws SQLException;
    }

    static final String CAT_RUNTIME = "cuda_runtime";
    static final String CAT_ANNOTATION = "user_annotation";

    /** ENUM_CUDA_MEMCPY_OPER, in the short spelling CUDA tools and Kineto use ("Memcpy HtoD"). */
    private static final Map<Integer, String> COPY_KINDS = Map.ofEntries(
            Map.entry(0, "Unknown"),
            Map.entry(1, "HtoD"),
            Map.entry(2, "DtoH"),
            Map.entry(3, "HtoA"),
            Map.entry(4, "AtoH"),
            Map.entry(5, "AtoA"),
            Map.entry(6, "AtoD"),
            Map.entry(7, "DtoA"),
            Map.entry(8, "DtoD"),
            Map.entry(9, "HtoH"),
            Map.entry(10, "PtoP"),
            Map.entry(11, "HtoD (unified)"),
            Map.entry(12, "DtoH (unified)"),
            Map.entry(13, "DtoD (unified)"));

    private final Connection conn;
    private final SqliteSource source;
    private final NsysIndex index;
    private final DeviceRanks ranks;
    private final long base;
    private final List<Section> sections = new ArrayList<>();
    private final EventRow row = new EventRow();
    private int sectionIdx;
    private Statement statement;
    private ResultSet rs;
    private long lastRid = Long.MIN_VALUE;
    private long ordinal;

    NsysRows(
            FileTask task,
            FileReport report,
            Connection conn,
            SqliteSource source,
            SqliteSchema schema,
            NsysIndex index,
            DeviceRanks ranks) {
        super(task, report);
        this.conn = conn;
        this.source = source;
        this.index = index;
        this.ranks = ranks;
        this.base = index.sessionStartNs == null ? 0L : index.sessionStartNs;
        if (schema.has(NsysIndex.KERNEL)) {
            sections.add(new Section(
                    "kernel",
                    NsysQueries.gpuActivity(
                            schema, NsysIndex.KERNEL, NsysQueries.kernelNames(schema), NsysQueries.KERNEL_EXTRAS),
                    this::kernel));
        }
        if (schema.has(NsysIndex.MEMCPY)) {
            sections.add(new Section(
                    "memcpy",
                    NsysQueries.gpuActivity(schema, NsysIndex.MEMCPY, Map.of(), NsysQueries.MEMCPY_EXTRAS),
                    this::memcpy));
        }
        if (schema.has(NsysIndex.MEMSET)) {
            sections.add(new Section(
                    "memset",
                    NsysQueries.gpuActivity(schema, NsysIndex.MEMSET, Map.of(), NsysQueries.MEMSET_EXTRAS),
                    this::memset));
        }
        if (schema.has(NsysIndex.RUNTIME)) {
            boolean deviceFromActivity = ranks.fileRank() == null && index.anyProcessUsesSeveralDevices();
            sections.add(new Section("runtime", NsysQueries.runtime(schema, deviceFromActivity), this::runtime));
        }
        if (schema.has(NsysIndex.NVTX) && schema.has(NsysIndex.NVTX, "eventType")) {
            sections.add(new Section("nvtx", NsysQueries.nvtx(schema), this::nvtx));
        }
    }

    @Override
    protected InternalRow advance() throws IOException {
        try {
            while (true) {
                if (rs == null) {
                    if (sectionIdx >= sections.size()) return null;
                    openSection();
                }
                if (!rs.next()) {
                    closeSection();
                    sectionIdx++;
                    continue;
                }
                long rid = rs.getLong("rid");
                if (rid == lastRid) continue; // the same activity again through a shared correlation id
                lastRid = rid;
                row.clear();
                row.ordinal = ordinal++;
                if (sections.get(sectionIdx).filler.fill(rs)) return row.build(task, report);
            }
        } catch (SQLException e) {
            throw new IOException(
                    "reading the " + sections.get(sectionIdx).kind + " rows of the Nsight export failed: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    protected void release() {
        try {
            closeSection();
        } catch (SQLException ignored) {
            // read-only: nothing to lose
        }
        NsysReader.closeQuietly(conn, source);
    }

    private void openSection() throws SQLException {
        statement = conn.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
        statement.setFetchSize(NsysQueries.FETCH_SIZE);
        rs = statement.executeQuery(sections.get(sectionIdx).sql);
        lastRid = Long.MIN_VALUE;
    }

    private void closeSection() throws SQLException {
        try {
            if (rs != null) rs.close();
        } finally {
            rs = null;
            if (statement != null) statement.close();
            statement = null;
        }
    }

    private boolean kernel(ResultSet rs) throws SQLException {
        if (!gpuActivity(rs, "kernel")) return false;
        row.cat = ActivityClass.CAT_KERNEL;
        row.name = rs.getString("name");
        String shortName = rs.getString("shortName");
        if (shortName != null && !shortName.equals(row.name)) row.arg("short_name", shortName);
        extras(rs, NsysQueries.KERNEL_EXTRAS);
        row.classify(null);
        if (row.isComm()) commDetails(getLong(rs, "launchTid"), getLong(rs, "launchStart"));
        return true;
    }

    private boolean memcpy(ResultSet rs) throws SQLException {
        if (!gpuActivity(rs, "memcpy")) return false;
        row.cat = ActivityClass.CAT_GPU_MEMCPY;
        Integer kind = getInt(rs, "copyKind");
        String label = kind == null ? null : COPY_KINDS.get(kind);
        row.name = "Memcpy " + (label != null ? label : kind == null ? "" : "kind " + kind).strip();
        extras(rs, NsysQueries.MEMCPY_EXTRAS);
        row.classify(null);
        return true;
    }

    private boolean memset(ResultSet rs) throws SQLException {
        if (!gpuActivity(rs, "memset")) return false;
        row.cat = ActivityClass.CAT_GPU_MEMSET;
        row.name = "Memset";
        extras(rs, NsysQueries.MEMSET_EXTRAS);
        row.classify(null);
        return true;
    }

    /** Columns every GPU activity has; its step comes from its launch (METRICS.md §1), else its own start. */
    private boolean gpuActivity(ResultSet rs, String kind) throws SQLException {
        Long start = getLong(rs, "start");
        Long end = getLong(rs, "end");
        if (!times(kind, start, end)) return false;
        Long process = getLong(rs, "globalPid");
        Long launchStart = getLong(rs, "launchStart");
        Long launchTid = getLong(rs, "launchTid");
        row.device = getInt(rs, "deviceId");
        row.rank = ranks.forDevice(row.device);
        row.pid = process == null ? null : Long.toString(GlobalIds.pid(process));
        row.tid = launchTid == null ? null : Long.toString(GlobalIds.tid(launchTid));
        row.stream = getLong(rs, "streamId");
        row.correlation = getLong(rs, "correlationId");
        row.launchTsNs = launchStart == null ? null : base + launchStart;
        if (process == null && launchTid != null) process = launchTid;
        row.step = process == null ? null : index.stepAt(process, launchStart != null ? launchStart : start);
        return true;
    }

    /**
     * Collective kind from the kernel name and the NVTX range around its launch (NCCL's own {@code ncclAllReduce}
     * range, or PyTorch's {@code nccl:all_reduce}); sizes only when that range carried NCCL's payload.
     */
    private void commDetails(Long launchTid, Long launchStart) {
        NsysIndex.CommRange range = index.enclosingCommRange(launchTid, launchStart);
        row.collective = CollectiveKind.of(null, row.name, range == null ? null : range.name());
        row.dtype = DtypeSize.fromKernelName(row.name);
        if (range == null) return;
        row.arg("nvtx_range", range.name());
        row.groupSize = range.ranks();
        if (range.messageBytes() == null) return;
        // NCCL reports the send size, except for reduce-scatter where it reports the receive size.
        boolean scatter = CollectiveKind.REDUCE_SCATTER.equals(row.collective);
        Long[] sides = MessageBytes.completeSides(
                row.collective,
                scatter ? null : range.messageBytes(),
                scatter ? range.messageBytes() : null,
                row.groupSize);
        row.inBytes = sides[0];
        row.outBytes = sides[1];
        row.bytesSource = MessageBytes.CPU_OP_ARGS;
    }

    private boolean runtime(ResultSet rs) throws SQLException {
        Long start = getLong(rs, "start");
        Long end = getLong(rs, "end");
        if (!times("runtime", start, end)) return false;
        Long thread = getLong(rs, "globalTid");
        hostThread(thread);
        row.ph = "X";
        row.cat = CAT_RUNTIME;
        row.name = rs.getString("name");
        row.correlation = getLong(rs, "correlationId");
        Integer launched = getInt(rs, "launchedDevice");
        if (launched != null) row.rank = ranks.forDevice(launched);
        row.step = thread == null ? null : index.stepAt(thread, start);
        extras(rs, NsysQueries.RUNTIME_EXTRAS);
        return true;
    }

    private boolean nvtx(ResultSet rs) throws SQLException {
        Long start = getLong(rs, "start");
        Long end = getLong(rs, "end");
        if (start == null) {
            report.drops.drop("NVTX row without start");
            return false;
        }
        boolean mark = end == null;
        if (!mark && end < start) {
            report.drops.drop("NVTX range ending before it starts");
            return false;
        }
        Long thread = getLong(rs, "globalTid");
        hostThread(thread);
        row.ph = mark ? "i" : "X";
        row.cat = CAT_ANNOTATION;
        row.name = rs.getString("name");
        row.tsNs = base + start;
        row.durNs = mark ? null : end - start;
        row.step = thread == null ? null : index.stepAt(thread, start);
        Long domain = getLong(rs, "domainId");
        if (domain != null) row.arg("domain", index.nvtxDomains.get(domain));
        row.arg("payload", rs.getString("payload"));
        extras(rs, NsysQueries.NVTX_EXTRAS);
        return true;
    }

    /** pid, tid and rank of a row on a host thread: the process's only device, or none when it drove several. */
    private void hostThread(Long thread) {
        if (thread == null) {
            row.rank = ranks.fileRank();
            return;
        }
        row.pid = Long.toString(GlobalIds.pid(thread));
        row.tid = Long.toString(GlobalIds.tid(thread));
        row.rank = ranks.forHost(index.devicesOf(thread));
    }

    private boolean times(String kind, Long start, Long end) {
        if (start == null || end == null) {
            report.drops.drop(kind + " row without start or end");
            return false;
        }
        if (end < start) {
            report.drops.drop(kind + " row ending before it starts");
            return false;
        }
        row.ph = "X";
        row.tsNs = base + start;
        row.durNs = end - start;
        return true;
    }

    private void extras(ResultSet rs, List<String> columns) throws SQLException {
        for (String c : columns) row.arg(c, rs.getObject(c));
    }

    private static Long getLong(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : v;
    }

    private static Integer getInt(ResultSet rs, String column) throws SQLException {
        Long v = getLong(rs, column);
        return v == null ? null : v.intValue();
    }
}
