package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;

import org.apache.spark.sql.types.StructType;

/** The long {@code metrics} table of METRICS.md §5: one row per (workload, metric, figure, scope, rank, step, key). */
public final class MetricSchema {
    private MetricSchema() {}

    public static final String STATUS_OK = "ok";
    public static final String STATUS_PARTIAL = "partial";
    public static final String STATUS_NOT_APPLICABLE = "not_applicable";
    public static final String STATUS_MISSING_INPUT = "missing_input";
    /** A value was computed but describes nothing real (a Hockney fit with beta <= 0): null, with the fit in the reason. */
    public static final String STATUS_NOT_MEANINGFUL = "not_meaningful";

    public static final String STATUS_ERROR = "error";

    public static final String SCOPE_WORKLOAD = "workload";
    public static final String SCOPE_RANK = "rank";
    public static final String SCOPE_STEP = "step";
    public static final String SCOPE_KEY = "key";

    /** The columns a metric query produces; the job adds computed_at and pipeline_version. */
    public static final StructType QUERY_SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("metric", StringType, false)
            .add("figure", StringType, true)
            .add("value", DoubleType, true)
            .add("unit", StringType, true)
            .add("scope", StringType, false)
            .add("rank", IntegerType, true)
            .add("step", LongType, true)
            .add("key", StringType, true)
            .add("status", StringType, false)
            .add("reason", StringType, true);

    public static final StructType SCHEMA =
            QUERY_SCHEMA.add("computed_at", TimestampType, false).add("pipeline_version", StringType, false);
}
