package org.tracelake.jobs.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.spark.Settings;

/**
 * Peak dense FLOPS per device model for mfu: {@code conf/device_peak_flops.csv}, from the file named by
 * {@code spark.tracelake.devicePeakFlops} when set, else the copy bundled in the jar.
 */
public final class DevicePeaks {
    static final StructType SCHEMA = new StructType()
            .add("priority", DataTypes.IntegerType, false)
            .add("pattern", DataTypes.StringType, false)
            .add("peak_flops", DataTypes.DoubleType, false)
            .add("note", DataTypes.StringType, true);

    private DevicePeaks() {}

    public static Dataset<Row> load(SparkSession spark) {
        String path = Settings.of(spark).get(Settings.DEVICE_PEAK_FLOPS);
        String text;
        try {
            if (!path.isEmpty()) {
                text = Files.readString(Path.of(path), StandardCharsets.UTF_8);
            } else {
                try (InputStream in = DevicePeaks.class.getResourceAsStream("/conf/device_peak_flops.csv")) {
                    if (in == null) throw new IllegalStateException("device_peak_flops.csv is missing from the jar");
                    text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read device peak FLOPS table " + path, e);
        }
        return spark.createDataFrame(parse(text), SCHEMA);
    }

    /** The table as the metric families read it. */
    public static org.tracelake.jobs.metrics.workload.DevicePeakTable table(SparkSession spark) {
        List<org.tracelake.jobs.metrics.workload.DevicePeakTable.Entry> entries = new ArrayList<>();
        for (Row r : load(spark).collectAsList()) {
            entries.add(new org.tracelake.jobs.metrics.workload.DevicePeakTable.Entry(r.getString(1), r.getDouble(2)));
        }
        return new org.tracelake.jobs.metrics.workload.DevicePeakTable(entries);
    }

    static List<Row> parse(String csv) {
        List<Row> rows = new ArrayList<>();
        int priority = 0;
        for (String line : csv.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("pattern,")) continue;
            String[] f = l.split(",", 3);
            rows.add(RowFactory.create(priority++, f[0], Double.parseDouble(f[1]) * 1e12, f.length > 2 ? f[2] : null));
        }
        return rows;
    }
}
