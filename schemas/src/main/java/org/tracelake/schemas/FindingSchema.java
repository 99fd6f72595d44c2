package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/**
 * The {@code findings} table (METRICS.md §4 "Why"): one row per (workload, rule, rank or null) that fired this
 * refresh: severity ({@code info}, {@code warning}, {@code critical}), the value against its threshold
 * ({@code conf/findings.csv}), the cause where the rule has one, the metric rows that are its evidence and one
 * sentence a person can act on.
 */
public final class FindingSchema {
    private FindingSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("rule", StringType, false)
            .add("severity", StringType, false)
            .add("rank", IntegerType, true)
            .add("value", DoubleType, true)
            .add("threshold", DoubleType, true)
            .add("unit", StringType, true)
            .add("cause", StringType, true)
            .add("evidence", StringType, true)
            .add("message", StringType, false);
}
