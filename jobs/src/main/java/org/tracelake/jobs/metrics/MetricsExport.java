package org.tracelake.jobs.metrics;

import static org.apache.spark.sql.functions.col;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Timestamp;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.spark.api.java.function.ForeachPartitionFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.jobs.warehouse.LocalDisk;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.jobs.warehouse.RowFile;
import org.tracelake.schemas.MetricSchema;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;
import scala.Function1;

/**
 * {@code exports/metrics/<workload>.json}: {"workload": …, "rows": [one object per metrics row]} (METRICS.md §5),
 * rows ordered by (metric, scope, figure, key, rank, step). Written through a temporary file and a rename, so a
 * reader never sees half a file.
 */
public final class MetricsExport {
    /** The order of a file's rows (nulls first, as Spark sorts them). */
    static final Column[] ORDER = {
        col("workload"), col("metric"), col("scope"), col("figure"), col("key"), col("rank"), col("step")
    };

    private MetricsExport() {}

    /**
     * Every workload's file from the executors, one job: each workload's rows go to one partition, sorted, and that
     * partition's task streams them into the file. No row comes to the driver.
     */
    public static void writeAll(Dataset<Row> metrics, FileSystem fs, String exportsRoot) {
        writeAll(metrics, fs, exportsRoot, null, null);
    }

    /**
     * {@link #writeAll(Dataset, FileSystem, String)}, and when {@code history} is given, the same rows tagged with
     * {@code runId} as each workload's file of {@code metrics_history} in the run's folder of that table (committed
     * by the run's history step): the export's task holds them already, where a write of its own was a second Spark
     * job (and a plan) for the same rows.
     */
    public static void writeAll(
            Dataset<Row> metrics, FileSystem fs, String exportsRoot, PartitionFiles history, String runId) {
        SerializableConf conf = new SerializableConf(fs.getConf());
        String root = fs.makeQualified(new Path(exportsRoot)).toString();
        metrics.repartition(col("workload")).sortWithinPartitions(ORDER).foreachPartition((ForeachPartitionFunction<
                        Row>)
                rows -> writePartition(rows, conf, root, history, runId));
    }

    /** The rows of one partition, sorted by workload first: one file per run of equal workloads. */
    private static void writePartition(
            Iterator<Row> rows, SerializableConf conf, String exportsRoot, PartitionFiles history, String runId)
            throws IOException {
        FileSystem fs = new Path(exportsRoot).getFileSystem(conf.get());
        File file = null;
        HistoryFile tagged = null;
        try {
            while (rows.hasNext()) {
                Row r = rows.next();
                String workload = r.getString(r.fieldIndex("workload"));
                if (file == null || !Objects.equals(file.workload, workload)) {
                    if (file != null) file.commit();
                    if (tagged != null) tagged.commit();
                    tagged = null;
                    file = new File(fs, exportsRoot, workload);
                    if (history != null) tagged = new HistoryFile(history, workload, runId);
                }
                file.add(r);
                if (tagged != null) tagged.add(r);
            }
            if (file != null) file.commit();
            file = null;
            if (tagged != null) tagged.commit();
            tagged = null;
        } finally {
            if (file != null) file.close(); // a failure: the temporary file is left, the previous export stays
            if (tagged != null) tagged.close(); // and the unfinished history file is dropped
        }
    }

    /** A workload's file of {@code metrics_history}: its metrics rows with the run's id, as they stream past. */
    private static final class HistoryFile implements Closeable {
        private static final StructType SCHEMA =
                TableCatalog.of(Tables.METRICS_HISTORY).schema();
        private final RowFile out;
        private final Function1<Object, Object> toInternal = CatalystTypeConverters.createToCatalystConverter(SCHEMA);
        private final String runId;

        HistoryFile(PartitionFiles history, String workload, String runId) throws IOException {
            this.runId = runId;
            this.out = history.openBeside(
                    Tables.METRICS_HISTORY,
                    workload,
                    PartitionFiles.FILE_NAME,
                    RowFile.Settings.of(CompressionCodecName.SNAPPY));
        }

        void add(Row r) throws IOException {
            Object[] values = new Object[SCHEMA.size()];
            for (int i = 0; i < values.length; i++) {
                String name = SCHEMA.fields()[i].name();
                values[i] = name.equals("run_id") ? runId : r.get(r.fieldIndex(name));
            }
            out.write((InternalRow) toInternal.apply(RowFactory.create(values)));
        }

        void commit() throws IOException {
            out.commit();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /**
     * A file of the exports folder named after a workload. The name is a path, not a URI: a workload named "a:b" would
     * otherwise read as the scheme "a" and fail the whole export.
     */
    public static Path exportFile(Path dir, String fileName) {
        return new Path(dir, new Path(null, null, fileName));
    }

    /** One workload's file from rows already in order. */
    public static void write(FileSystem fs, String exportsRoot, String workload, List<Row> rows) throws IOException {
        try (File file = new File(fs, exportsRoot, workload)) {
            for (Row r : rows) file.add(r);
            file.commit();
        }
    }

    /** A workload's export being written: rows are streamed into a temporary file, renamed into place by commit. */
    private static final class File implements Closeable {
        final String workload;
        private final FileSystem fs;
        private final Path target;
        private final Path tmp;
        private final OutputStream out;
        private final JsonGenerator g;
        private boolean closed;

        File(FileSystem fs, String exportsRoot, String workload) throws IOException {
            this.fs = fs;
            this.workload = workload;
            Path dir = new Path(exportsRoot, "metrics");
            LocalDisk.mkdirs(fs, dir);
            target = exportFile(dir, workload + ".json");
            // a random name of fixed length, never overwritten: a link planted at a predictable name is never written
            // through, and a long workload name makes it no longer
            tmp = exportFile(dir, ".export-" + java.util.UUID.randomUUID() + ".tmp");
            out = LocalDisk.create(fs, tmp);
            g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("workload", workload);
            g.writeArrayFieldStart("rows");
        }

        void add(Row r) throws IOException {
            g.writeStartObject();
            for (StructField field : MetricSchema.SCHEMA.fields()) {
                String name = field.name();
                Object v = r.get(r.fieldIndex(name));
                if (v == null) g.writeNullField(name);
                else if (v instanceof Double d) g.writeNumberField(name, d);
                else if (v instanceof Long l) g.writeNumberField(name, l);
                else if (v instanceof Integer n) g.writeNumberField(name, n);
                else if (v instanceof Timestamp t)
                    g.writeStringField(name, DateTimeFormatter.ISO_INSTANT.format(t.toInstant()));
                else g.writeStringField(name, v.toString());
            }
            g.writeEndObject();
        }

        void commit() throws IOException {
            g.writeEndArray();
            g.writeEndObject();
            close();
            LocalDisk.replace(fs, tmp, target);
        }

        @Override
        public void close() throws IOException {
            if (closed) return;
            closed = true;
            try (OutputStream o = out) {
                g.close();
            }
        }
    }
}
