package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.report.ReportModel.Memory;
import org.tracelake.jobs.report.ReportModel.MemorySeries;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * Allocated memory over time per device from {@code memory_events} (the snapshot replay), down-sampled on the
 * executors to at most {@code points} maxima per device. When the table carries the replayed level (a column
 * {@code allocated_bytes}) it is plotted as is; otherwise the level is the running sum of {@code alloc} (+size)
 * and {@code free_completed} (−size) events, i.e. relative to the start of the trace.
 */
final class MemoryQuery {
    private static final List<String> TIME_COLUMNS = List.of("time_us", "time_ns", "ts_ns", "time");
    private static final List<String> SIZE_COLUMNS = List.of("size", "size_bytes", "bytes");

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;

    MemoryQuery(WarehouseTables tables) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
    }

    Memory series(String workload, int points) {
        if (!warehouse.exists(Tables.MEMORY_EVENTS)) {
            return new Memory("no memory_events table (no CUDA memory snapshot in the archive)", List.of());
        }
        Dataset<Row> df =
                tables.live(Tables.MEMORY_EVENTS).where(col("workload").equalTo(lit(workload)));
        List<String> cols = ReportQueries.columns(df);
        String time = first(cols, TIME_COLUMNS);
        String size = first(cols, SIZE_COLUMNS);
        boolean level = cols.contains("allocated_bytes");
        if (time == null || (!level && (size == null || !cols.contains("action")))) {
            return new Memory("memory_events has no time/size/action columns this report knows: " + cols, List.of());
        }
        if (df.limit(1).isEmpty()) return new Memory("no memory snapshot for this workload", List.of());
        String device = cols.contains("rank") && cols.contains("device")
                ? "concat('rank ', coalesce(CAST(rank AS STRING), '?'), ' cuda:', CAST(device AS STRING))"
                : cols.contains("device") ? "concat('cuda:', CAST(device AS STRING))" : "'device'";
        String order = cols.contains("ordinal") ? "ordinal" : "t"; // ordinal: the trace order, the replay order
        df.createOrReplaceTempView("_report_memory");
        String levelExpr = level ? "CAST(allocated_bytes AS DOUBLE)" : """
                sum(CASE WHEN action = 'alloc' THEN CAST(%1$s AS DOUBLE)
                         WHEN action = 'free_completed' THEN -CAST(%1$s AS DOUBLE) ELSE 0 END)
                  OVER (PARTITION BY dev ORDER BY %2$s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)""".formatted(size, order);
        List<Row> rows = spark.sql(String.format(
                        Locale.ROOT,
                        """
                WITH e AS (SELECT *, %s AS dev, CAST(%s AS DOUBLE) AS t FROM _report_memory WHERE %s IS NOT NULL%s),
                l AS (SELECT dev, t, %s AS level FROM e),
                b AS (SELECT dev, t, level, min(t) OVER (PARTITION BY dev) AS t0, max(t) OVER (PARTITION BY dev) AS t1 FROM l)
                SELECT dev, CAST(floor(CASE WHEN t1 > t0 THEN (t - t0) / (t1 - t0) * %d ELSE 0 END) AS INT) AS bucket,
                       min(t - t0) AS t, max(level) AS level
                FROM b GROUP BY 1, 2 ORDER BY 1, 2""",
                        device,
                        time,
                        time,
                        level ? "" : " AND action IN ('alloc', 'free_completed')",
                        levelExpr,
                        points - 1))
                .collectAsList();
        Map<String, List<double[]>> byDevice = new LinkedHashMap<>();
        for (Row r : rows) {
            byDevice.computeIfAbsent(r.getAs("dev"), k -> new ArrayList<>())
                    .add(new double[] {r.<Double>getAs("t"), r.<Double>getAs("level")});
        }
        List<MemorySeries> series = new ArrayList<>();
        byDevice.forEach((d, p) -> series.add(new MemorySeries(d, p)));
        String unit = time.equals("time_us") ? "µs" : time.endsWith("ns") ? "ns" : "time units";
        return new Memory(
                level
                        ? "allocated bytes (replayed); time in " + unit + " from the first event"
                        : "allocated bytes relative to the trace start (alloc − free_completed); time in " + unit,
                series);
    }

    private static String first(List<String> cols, List<String> candidates) {
        for (String c : candidates) if (cols.contains(c)) return c;
        return null;
    }
}
