package org.tracelake.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.source.ReportSink;
import org.tracelake.jobs.source.TraceSource;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/** Shared by the reader tests of the Nsight, rocprof, XLA JSON and XSpace readers: tasks, reads and column access. */
public final class ReaderTestSupport {
    private ReaderTestSupport() {}

    public static FileTask task(Path file, TraceFormat format) throws IOException {
        return new FileTask(
                "w",
                file.toAbsolutePath().toUri().toString(),
                Files.size(file),
                Files.getLastModifiedTime(file).toMillis(),
                format,
                7,
                InputLimits.defaults(),
                "test-run");
    }

    public record Read(List<Row> rows, FileReport report) {}

    /** Opens the file with the reader and pulls every row, as the ingest wrapper would, without Spark. */
    public static Read readAll(TraceReader reader, FileTask task) throws IOException {
        try (EventStream stream = reader.open(task, new Configuration())) {
            List<Row> rows = InternalRows.drain(stream, EventSchema.SCHEMA);
            return new Read(rows, stream.report());
        }
    }

    private static final Map<Path, Read> READ_ONCE = new java.util.concurrent.ConcurrentHashMap<>();

    /** {@link #readAll} of a file that several tests look at, read by the first of them and kept for the JVM. */
    public static Read readOnce(TraceReader reader, Path file, TraceFormat format) {
        return READ_ONCE.computeIfAbsent(file, f -> {
            try {
                return readAll(reader, task(f, format));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // the test states the column's type at the call
    public static <T> T col(Row r, String column) {
        return (T) r.get(EventSchema.index(column));
    }

    public static String arg(Row r, String key) {
        Map<String, String> args = args(r);
        return args == null ? null : args.get(key);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, String> args(Row r) {
        Object m = r.get(EventSchema.index(EventSchema.ARGS));
        return m == null ? null : CollectionConverters.asJava((scala.collection.Map<String, String>) m);
    }

    /** The test JVM's one SparkSession (shared by every test class; never stopped by a test). */
    public static SparkSession localSpark() {
        return org.tracelake.jobs.testing.SharedSpark.get();
    }

    /**
     * The file through the real ingest path on executors — the {@code tracelake} data source: format detection, the
     * reader registry, the reader, the events schema — as a DataFrame; the file's report is added to {@code reports}.
     */
    public static Dataset<Row> ingest(SparkSession spark, FileTask task, List<FileReport> reports) {
        FileTask undetected = new FileTask(
                task.workload(),
                task.path(),
                task.sizeBytes(),
                task.modifiedAtMs(),
                null,
                task.fileOrderRank(),
                task.limits(),
                task.runId());
        try {
            Path reportsDir = Files.createTempDirectory("reports");
            Dataset<Row> df = TraceSource.read(
                            spark,
                            List.of(undetected),
                            Tables.EVENTS,
                            reportsDir.toUri().toString(),
                            null)
                    .cache();
            df.count();
            reports.addAll(ReportSink.readAll(reportsDir.toUri().toString(), new Configuration()));
            return df;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
