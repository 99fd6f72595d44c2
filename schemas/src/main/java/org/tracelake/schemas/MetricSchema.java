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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "metric",
                    StringType,
                    false,
                    "the metric's name (docs/METRICS.md §4; \\m in the sql prompt lists them)")
            .add(
                    "figure",
                    StringType,
                    true,
                    "which number of a metric that reports several (the first listed is the headline); null for a metric with one")
            .add(
                    "value",
                    DoubleType,
                    true,
                    "the value, in unit; null when it could not be computed (status and reason say why)")
            .add("unit", StringType, true, "the value's unit (metrics/catalog.csv)")
            .add("scope", StringType, false, "what the row is about: workload, rank, step or key")
            .add("rank", IntegerType, true, "the rank of a rank- or step-scope row")
            .add("step", LongType, true, "the step of a step-scope row")
            .add(
                    "key",
                    StringType,
                    true,
                    "what a key-scope row is about (a collective kind, a size bucket, a kernel, cuda:<device>, …)")
            .add(
                    "status",
                    StringType,
                    false,
                    "ok, partial, not_applicable, missing_input, not_meaningful or error (METRICS.md §5)")
            .add("reason", StringType, true, "why the value is null or partial, in words");

    public static final StructType SCHEMA = QUERY_SCHEMA
            .add("computed_at", TimestampType, false, "when the metrics phase computed the row")
            .add(
                    "pipeline_version",
                    StringType,
                    false,
                    "the engine that computed the row: 0.1.0 the Spark SQL engine, 0.2.0 the plain-Java families");
}
