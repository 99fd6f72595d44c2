package org.tracelake.jobs.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.schemas.Tables;

/**
 * The options of the {@code tracelake} data source. Public: {@code table}, {@code workload} and the gzip limits;
 * the others are how tracelake's own ingest hands the source its planned files and collects their reports.
 */
public final class TraceSourceOptions {
    private TraceSourceOptions() {}

    /** {@code spark.read.format("tracelake")}. */
    public static final String SHORT_NAME = "tracelake";
    /** Which table the files are read into: {@code events} (default), a side table, or {@code trace_files}. */
    public static final String TABLE = "table";
    /**
     * The workload column of every row; default: the workload the refresh would name ({@code SourceFiles}: the first
     * folder below the loaded folder, or the loaded folder itself when it holds a card or the file sits at its top).
     */
    public static final String WORKLOAD = "workload";

    public static final String GZIP_MAX_EXPANSION_RATIO = "gzipMaxExpansionRatio";
    public static final String GZIP_MIN_EXPANDED_BYTES = "gzipMinExpandedBytes";
    /**
     * An {@code et_nodes} table (Parquet, partitioned by workload) whose sized communication nodes fill the message
     * sizes of the Kineto kernels that have none ({@code bytes_source = 'et'}), as ingest's Kineto reads take them
     * from the ET files it has just read.
     */
    public static final String ET_NODES = "etNodes";
    /** A folder where each file's {@code trace_files} report is left exactly once ({@link ReportSink}). */
    public static final String REPORTS_DIR = "reportsDir";
    /** Internal: the files to read, planned by the caller of {@link TraceSource#read} (instead of a path). */
    static final String TASKS = "tracelake.tasks";

    static String table(CaseInsensitiveStringMap options) {
        return options.getOrDefault(TABLE, Tables.EVENTS);
    }

    static InputLimits limits(CaseInsensitiveStringMap options) {
        InputLimits d = InputLimits.defaults();
        return new InputLimits(
                options.getDouble(GZIP_MAX_EXPANSION_RATIO, d.maxExpansionRatio()),
                options.getLong(GZIP_MIN_EXPANDED_BYTES, d.minExpandedBytes()));
    }

    /** Planned files as an option value (Java serialization, Base64). */
    public static String encodeTasks(List<FileTask> tasks) {
        try (ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(tasks));
            out.flush();
            return Base64.getEncoder().encodeToString(bytes.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static List<FileTask> decodeTasks(String text) {
        try (ObjectInputStream in = new ObjectInputStream(
                new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
            in.setObjectInputFilter(ObjectInputFilter.Config.createFilter(
                    "org.tracelake.jobs.readers.*;java.lang.*;java.util.*;maxdepth=10;!*"));
            return (List<FileTask>) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalArgumentException("option " + TASKS + " is not a list of planned files", e);
        }
    }
}
