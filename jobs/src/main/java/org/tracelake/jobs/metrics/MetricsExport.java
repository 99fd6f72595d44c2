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
import org.apache.spark.api.java.function.ForeachPartitionFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.jobs.warehouse.LocalDisk;
import org.tracelake.schemas.MetricSchema;

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
        SerializableConf conf = new SerializableConf(fs.getConf());
        String root = fs.makeQualified(new Path(exportsRoot)).toString();
        metrics.repartition(col("workload"))
                .sortWithinPartitions(ORDER)
                .foreachPartition((ForeachPartitionFunction<Row>) rows -> writePartition(rows, conf, root));
    }

    /** The rows of one partition, sorted by workload first: one file per run of equal workloads. */
    private static void writePartition(Iterator<Row> rows, SerializableConf conf, String exportsRoot)
            throws IOException {
        FileSystem fs = new Path(exportsRoot).getFileSystem(conf.get());
        File file = null;
        try {
            while (rows.hasNext()) {
                Row r = rows.next();
                String workload = r.getString(r.fieldIndex("workload"));
                if (file == null || !Objects.equals(file.workload, workload)) {
                    if (file != null) file.commit();
                    file = new File(fs, exportsRoot, workload);
                }
                file.add(r);
            }
            if (file != null) file.commit();
            file = null;
        } finally {
            if (file != null) file.close(); // a failure: the temporary file is left, the previous export stays
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
