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
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.spark.Settings;

/**
 * Per-device tables: peak dense FLOPS for mfu ({@code conf/device_peak_flops.csv}, from the file named by
 * {@code spark.tracelake.devicePeakFlops} when set, else the copy bundled in the jar), and interconnect bandwidth
 * for the Hockney fit's bound ({@code conf/device_interconnect_bw.csv}, likewise), and device memory for the
 * memory_pressure finding ({@code conf/device_memory.csv}, likewise).
 */
public final class DevicePeaks {
    static final StructType SCHEMA = new StructType()
            .add("priority", DataTypes.IntegerType, false)
            .add("pattern", DataTypes.StringType, false)
            .add("peak_flops", DataTypes.DoubleType, false)
            .add("note", DataTypes.StringType, true);

    private DevicePeaks() {}

    public static Dataset<Row> load(SparkSession spark) {
        String text = read(
                Settings.of(spark).get(Settings.DEVICE_PEAK_FLOPS), "device_peak_flops.csv", "device peak FLOPS table");
        return spark.createDataFrame(parse(text, 1e12), SCHEMA);
    }

    /**
     * The tables as the metric families read them: peak FLOPS (mfu), and the GPU-to-GPU link bandwidth per direction
     * ({@code conf/device_interconnect_bw.csv}, from {@code spark.tracelake.deviceInterconnectBw} when set), the
     * bound no Hockney fit may exceed.
     */
    public static DevicePeakTable table(SparkSession spark) {
        List<DevicePeakTable.Entry> entries = new ArrayList<>();
        for (Row r : load(spark).collectAsList()) {
            entries.add(new DevicePeakTable.Entry(r.getString(1), r.getDouble(2)));
        }
        String links = read(
                Settings.of(spark).get(Settings.DEVICE_INTERCONNECT_BW),
                "device_interconnect_bw.csv",
                "device interconnect bandwidth table");
        String memory =
                read(Settings.of(spark).get(Settings.DEVICE_MEMORY), "device_memory.csv", "device memory table");
        return new DevicePeakTable(entries, entries(parse(links, 1e9)), entries(parse(memory, 1024.0 * 1024 * 1024)));
    }

    private static List<DevicePeakTable.Entry> entries(List<Row> rows) {
        List<DevicePeakTable.Entry> out = new ArrayList<>();
        for (Row r : rows) out.add(new DevicePeakTable.Entry(r.getString(1), r.getDouble(2)));
        return out;
    }

    /** The file at the path when one is given, else the copy bundled in the jar under conf/. */
    private static String read(String path, String bundled, String what) {
        try {
            if (!path.isEmpty()) return Files.readString(Path.of(path), StandardCharsets.UTF_8);
            try (InputStream in = DevicePeaks.class.getResourceAsStream("/conf/" + bundled)) {
                if (in == null) throw new IllegalStateException(bundled + " is missing from the jar");
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + what + " " + (path.isEmpty() ? bundled : path), e);
        }
    }

    /** Rows (priority, pattern, value × scale, note) of a pattern,value,note table; # lines and the header skipped. */
    public static List<Row> parse(String csv, double scale) {
        List<Row> rows = new ArrayList<>();
        int priority = 0;
        for (String line : csv.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("pattern,")) continue;
            String[] f = l.split(",", 3);
            rows.add(RowFactory.create(priority++, f[0], Double.parseDouble(f[1]) * scale, f.length > 2 ? f[2] : null));
        }
        return rows;
    }
}
