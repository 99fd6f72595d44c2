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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("rule", StringType, false, "the rule that fired (conf/findings.csv)")
            .add("severity", StringType, false, "info, warning or critical")
            .add("rank", IntegerType, true, "the rank the finding is about; null for the whole workload")
            .add("value", DoubleType, true, "the value the rule judged")
            .add("threshold", DoubleType, true, "the threshold it reached (conf/findings.csv)")
            .add("unit", StringType, true, "the unit of value and threshold")
            .add("cause", StringType, true, "the cause, where the rule has one")
            .add("evidence", StringType, true, "the metric rows that are the finding's evidence")
            .add("message", StringType, false, "one sentence a person can act on");
}
