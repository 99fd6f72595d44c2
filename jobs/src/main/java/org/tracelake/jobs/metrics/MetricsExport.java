package org.tracelake.jobs.metrics;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.Timestamp;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.tracelake.schemas.MetricSchema;

/**
 * {@code exports/metrics/<workload>.json}: {"workload": …, "rows": [one object per metrics row]} (METRICS.md §5).
 * Written through a temporary file and a rename, so a reader never sees half a file.
 */
public final class MetricsExport {
    private MetricsExport() {}

    public static void write(FileSystem fs, String exportsRoot, String workload, List<Row> rows) throws IOException {
        Path dir = new Path(exportsRoot, "metrics");
        fs.mkdirs(dir);
        Path target = new Path(dir, workload + ".json");
        Path tmp = new Path(dir, "." + workload + ".json.tmp");
        try (OutputStream out = fs.create(tmp, true);
             JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("workload", workload);
            g.writeArrayFieldStart("rows");
            StructField[] fields = MetricSchema.SCHEMA.fields();
            for (Row r : rows) {
                g.writeStartObject();
                for (int i = 0; i < fields.length; i++) {
                    String name = fields[i].name();
                    Object v = r.get(r.fieldIndex(name));
                    if (v == null) g.writeNullField(name);
                    else if (v instanceof Double d) g.writeNumberField(name, d);
                    else if (v instanceof Long l) g.writeNumberField(name, l);
                    else if (v instanceof Integer n) g.writeNumberField(name, n);
                    else if (v instanceof Timestamp t) g.writeStringField(name, DateTimeFormatter.ISO_INSTANT.format(t.toInstant()));
                    else g.writeStringField(name, v.toString());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        if (fs.exists(target)) fs.delete(target, false);
        if (!fs.rename(tmp, target)) throw new IOException("could not rename " + tmp + " to " + target);
    }
}
