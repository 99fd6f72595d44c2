package org.tracelake.jobs.metrics.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.side.CollectiveHangs;
import org.tracelake.jobs.metrics.side.HangMetrics;
import org.tracelake.jobs.metrics.side.MemoryMetrics;
import org.tracelake.jobs.metrics.side.TelemetryMetrics;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TelemetrySchema;

/**
 * The families over side tables (CUDA memory snapshots, AORTA telemetry, NCCL Flight Recorder dumps), each run only
 * when the run has its inputs: most workloads have none, and then nothing of them is planned.
 */
final class SideFamilies {
    private SideFamilies() {}

    /** Their metric rows (null when the run has no side table) and the collective_hangs rows (null without dumps). */
    record Result(Dataset<Row> metricRows, Dataset<Row> hangs) {}

    static Result compute(SparkSession spark, Map<String, Dataset<Row>> side) {
        List<Dataset<Row>> rows = new ArrayList<>();
        Dataset<Row> hangs = null;
        if (side.containsKey(Tables.MEMORY_EVENTS) || side.containsKey(Tables.MEMORY_SEGMENTS)) {
            rows.add(MemoryMetrics.rows(
                    orEmpty(spark, side, Tables.MEMORY_EVENTS, MemorySchema.EVENTS),
                    orEmpty(spark, side, Tables.MEMORY_SEGMENTS, MemorySchema.SEGMENTS)));
        }
        if (side.containsKey(Tables.ITERATION_TELEMETRY)) {
            rows.add(TelemetryMetrics.rows(orEmpty(spark, side, Tables.ITERATION_TELEMETRY, TelemetrySchema.SCHEMA)));
        }
        if (side.containsKey(Tables.FLIGHT_RECORDER) || side.containsKey(Tables.PROCESS_GROUP_STATUS)) {
            Dataset<Row> entries = orEmpty(spark, side, Tables.FLIGHT_RECORDER, FlightRecorderSchema.ENTRIES);
            Dataset<Row> groups = orEmpty(spark, side, Tables.PROCESS_GROUP_STATUS, FlightRecorderSchema.GROUPS);
            hangs = CollectiveHangs.table(entries, groups);
            // Dumps are small: the hangs are found again for their metric rows rather than read back once staged.
            rows.add(HangMetrics.rows(hangs, entries, groups));
        }
        Dataset<Row> union = null;
        for (Dataset<Row> d : rows) union = union == null ? d : union.union(d);
        return new Result(union, hangs);
    }

    private static Dataset<Row> orEmpty(
            SparkSession spark, Map<String, Dataset<Row>> side, String table, StructType schema) {
        Dataset<Row> t = side.get(table);
        return t != null ? t : spark.createDataFrame(new ArrayList<Row>(), schema);
    }
}
