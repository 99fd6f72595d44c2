package org.tracelake.jobs.metrics.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.SqlScripts;
import org.tracelake.schemas.MetricSchema;
import org.tracelake.schemas.Tables;

/**
 * The side-table families still written in SQL (memory snapshots, AORTA telemetry, Flight Recorder hangs), run only
 * for the side tables a run has. Interim: their Java kernels replace this class.
 */
public final class SideFamiliesSql {
    private SideFamiliesSql() {}

    /** The families' metric rows (null when the run has no side table) and the collective_hangs rows (or null). */
    public record Result(Dataset<Row> metricRows, Dataset<Row> hangs) {}

    public static Result compute(SparkSession spark, Dataset<Row> workloads, Map<String, Dataset<Row>> sideTables) {
        workloads.createOrReplaceTempView("workloads");
        sideTables.forEach((name, t) -> t.createOrReplaceTempView(name));
        List<Dataset<Row>> rows = new ArrayList<>();
        Dataset<Row> hangs = null;
        if (sideTables.containsKey(Tables.MEMORY_EVENTS) || sideTables.containsKey(Tables.MEMORY_SEGMENTS)) {
            emptyUnlessPresent(spark, sideTables, Tables.MEMORY_EVENTS, org.tracelake.schemas.MemorySchema.EVENTS);
            emptyUnlessPresent(spark, sideTables, Tables.MEMORY_SEGMENTS, org.tracelake.schemas.MemorySchema.SEGMENTS);
            rows.addAll(queries(spark, "memory.sql"));
        }
        if (sideTables.containsKey(Tables.ITERATION_TELEMETRY)) rows.addAll(queries(spark, "telemetry.sql"));
        if (sideTables.containsKey(Tables.FLIGHT_RECORDER) || sideTables.containsKey(Tables.PROCESS_GROUP_STATUS)) {
            emptyUnlessPresent(spark, sideTables, Tables.FLIGHT_RECORDER, org.tracelake.schemas.FlightRecorderSchema.ENTRIES);
            emptyUnlessPresent(spark, sideTables, Tables.PROCESS_GROUP_STATUS, org.tracelake.schemas.FlightRecorderSchema.GROUPS);
            List<Dataset<Row>> h = new ArrayList<>();
            for (String s : SqlScripts.statements("collective_hangs.sql")) run(spark, s, h);
            hangs = h.get(h.size() - 1);
            hangs.createOrReplaceTempView("collective_hangs");
            rows.addAll(queries(spark, "hangs.sql"));
        }
        Dataset<Row> union = null;
        for (Dataset<Row> d : rows) union = union == null ? d : union.union(d);
        return new Result(union, hangs);
    }

    private static void emptyUnlessPresent(SparkSession spark, Map<String, Dataset<Row>> present, String table,
                                           StructType schema) {
        if (!present.containsKey(table)) spark.createDataFrame(new ArrayList<Row>(), schema).createOrReplaceTempView(table);
    }

    private static List<Dataset<Row>> queries(SparkSession spark, String file) {
        List<Dataset<Row>> out = new ArrayList<>();
        for (String s : SqlScripts.statements(file)) run(spark, s, out);
        List<Dataset<Row>> conformed = new ArrayList<>();
        for (Dataset<Row> d : out) conformed.add(conform(d));
        return conformed;
    }

    private static void run(SparkSession spark, String statement, List<Dataset<Row>> queries) {
        String s = statement.strip();
        String upper = s.toUpperCase(Locale.ROOT);
        if (upper.startsWith("SELECT") || upper.startsWith("WITH")) queries.add(spark.sql(s));
        else spark.sql(s);
    }

    private static Dataset<Row> conform(Dataset<Row> d) {
        StructType schema = MetricSchema.QUERY_SCHEMA;
        Dataset<Row> named = d.toDF(schema.fieldNames());
        org.apache.spark.sql.Column[] cols = new org.apache.spark.sql.Column[schema.size()];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = org.apache.spark.sql.functions.col(schema.fields()[i].name()).cast(schema.fields()[i].dataType())
                    .as(schema.fields()[i].name());
        }
        return named.select(cols);
    }
}
