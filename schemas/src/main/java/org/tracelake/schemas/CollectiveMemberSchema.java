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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("rank", IntegerType, false, "the rank")
            .add("match_key", StringType, false, "the instance's match key (collectives.match_key)")
            .add("by_seq", BooleanType, false, "whether k is the sequence number (else the ordinal)")
            .add("k", LongType, false, "the instance's number within its match key (collectives.k)")
            .add("ts_ns", LongType, false, "the rank's activity's start, ns")
            .add("end_ns", LongType, false, "its end, ns")
            .add("kind", StringType, true, "the collective kind")
            .add("group_size", IntegerType, true, "the collective's group size")
            .add("size_bytes", LongType, true, "the message size on this rank")
            // the rank's lead-in window [window_start_ns, ts_ns) since its previous comm activity ended, and the
            // GPU's compute and idle time in it (METRICS.md §4 "Why"); cause only on the last arriver's row of an
            // instance with a lag of at least 10 us (the instance's cause in collectives)
            .add(
                    "window_start_ns",
                    LongType,
                    true,
                    "start of the rank's lead-in window [window_start_ns, ts_ns): when its previous communication ended")
            .add("window_compute_ns", LongType, true, "GPU compute time in the lead-in window, ns")
            .add("window_idle_ns", LongType, true, "GPU idle time in the lead-in window, ns")
            .add(
                    "cause",
                    StringType,
                    true,
                    "the instance's cause, on its last arriver's row only (lag of at least 10 µs)");
}
