package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/** The {@code collectives} table: one row per collective instance matched across ranks (the k-th join). */
public final class CollectiveSchema {
    private CollectiveSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("match_key", StringType, false)
            .add("match_by", StringType, false)
            .add("k", LongType, false)
            .add("kind", StringType, true)
            .add("group_size", IntegerType, true)
            .add("bytes", LongType, true)
            .add("ranks", IntegerType, false)
            .add("min_start_ns", LongType, false)
            .add("max_start_ns", LongType, false)
            .add("min_end_ns", LongType, false)
            .add("max_end_ns", LongType, false)
            .add("lag_ns", LongType, false)
            .add("end_skew_ns", LongType, false)
            .add("last_rank", IntegerType, true)
            .add("busbw_gbps", DoubleType, true)
            // why the last rank was late (METRICS.md §4 "Why"), for instances with lag_ns >= 10000, else null:
            // upstream, device, host or unexplained, and its lead-in window against the other ranks' medians
            .add("cause", StringType, true)
            .add("delta_start_ns", LongType, true)
            .add("delta_compute_ns", LongType, true)
            .add("delta_idle_ns", LongType, true);
}
