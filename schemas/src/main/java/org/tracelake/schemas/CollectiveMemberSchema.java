package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/**
 * The {@code collective_members} table: each rank's communication activity in each collective instance of
 * {@code collectives} (same workload, match key and k), so reports and ad-hoc queries join ranks to instances
 * without re-deriving the match rule of the cross-rank join (the metric engine's CrossRankFamily).
 */
public final class CollectiveMemberSchema {
    private CollectiveMemberSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("rank", IntegerType, false)
            .add("match_key", StringType, false)
            .add("by_seq", BooleanType, false)
            .add("k", LongType, false)
            .add("ts_ns", LongType, false)
            .add("end_ns", LongType, false)
            .add("kind", StringType, true)
            .add("group_size", IntegerType, true)
            .add("size_bytes", LongType, true)
            // the rank's lead-in window [window_start_ns, ts_ns) since its previous comm activity ended, and the
            // GPU's compute and idle time in it (METRICS.md §4 "Why"); cause only on the last arriver's row of an
            // instance with a lag of at least 10 us (the instance's cause in collectives)
            .add("window_start_ns", LongType, true)
            .add("window_compute_ns", LongType, true)
            .add("window_idle_ns", LongType, true)
            .add("cause", StringType, true);
}
