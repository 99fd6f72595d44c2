package org.tracelake.jobs.readers.nsys;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.apache.hadoop.conf.Configuration;
import org.sqlite.SQLiteConfig;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.schemas.TraceFileSchema;

/**
 * Nsight Systems: the SQLite export ({@code nsys export --type sqlite}, plain or gzipped, on any Hadoop file
 * system), or an {@code .nsys-rep} report converted by {@code nsys} when it is installed. Opened read-only on the
 * executor; rows stream from forward-only result sets, one kind after another: kernels, memcpys, memsets, CUDA
 * runtime calls, NVTX ranges. Times are session ns, anchored at {@code TARGET_INFO_SESSION_START_TIME.utcEpochNs}.
 */
public final class NsysReader implements TraceReader {
    private final NsysExport exporter;

    public NsysReader() {
        this(null);
    }

    /** With a given exporter (tests point it at a stand-in {@code nsys}); null means the one on the PATH. */
    NsysReader(NsysExport exporter) {
        this.exporter = exporter;
    }

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        SqliteSource source =
                SqliteSource.obtain(task, conf, exporter != null ? exporter : NsysExport.fromEnvironment());
        Connection conn = null;
        try {
            report.contentHash = source.contentHash;
            conn = connect(source);
            SqliteSchema schema = new SqliteSchema(conn);
            if (!isNsysExport(schema)) {
                throw new InputRefusedException("a SQLite database without Nsight Systems tables (StringIds, "
                        + "CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS): not an nsys export");
            }
            NsysIndex index = NsysIndex.build(conn, schema);
            DeviceRanks ranks = new DeviceRanks(task.fileName(), index.devices);
            describe(index, ranks, report);
            return new NsysRows(task, report, conn, source, schema, index, ranks);
        } catch (SQLException e) {
            closeQuietly(conn, source);
            throw new InputRefusedException(
                    "not a readable SQLite database (" + e.getMessage()
                            + "): the export is corrupt or truncated; re-run nsys export",
                    e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(conn, source);
            throw e;
        }
    }

    /** Read-only and immutable: no journal, lock or side file is ever written next to the input. */
    private static Connection connect(SqliteSource source) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        String uri = "jdbc:sqlite:file:" + source.database.toURI().getRawPath() + "?mode=ro&immutable=1";
        return DriverManager.getConnection(uri, config.toProperties());
    }

    private static boolean isNsysExport(SqliteSchema schema) {
        if (schema.has(NsysIndex.STRINGS)) return true;
        for (String t : NsysIndex.GPU_TABLES) if (schema.has(t)) return true;
        return schema.has(NsysIndex.RUNTIME) || schema.has(NsysIndex.NVTX);
    }

    private static void describe(NsysIndex index, DeviceRanks ranks, FileReport report) {
        ranks.describe(report, index.devices);
        if (index.sessionStartNs != null) {
            report.timeBase = TraceFileSchema.TIME_BASE_EPOCH;
            report.baseTimeNs = index.sessionStartNs;
        } else {
            report.timeBase = TraceFileSchema.TIME_BASE_SESSION_START;
            report.metadata.put(
                    "time_base_warning",
                    "no TARGET_INFO_SESSION_START_TIME table: times count from the "
                            + "session start, not the epoch; cross-rank alignment is not meaningful");
        }
        report.metadata.putAll(index.metadata);
        report.metadata.put("devices", index.devices.toString());
        report.metadata.put("step_count", Integer.toString(index.stepCount()));
    }

    static void closeQuietly(Connection conn, SqliteSource source) {
        try {
            if (conn != null) conn.close();
        } catch (SQLException ignored) {
            // closing a read-only connection cannot lose anything
        } finally {
            if (source != null) source.close();
        }
    }
}
