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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "match_key",
                    StringType,
                    false,
                    "what ranks are matched within: (Process Group Name, kind), else (stream, kind), else the kind")
            .add(
                    "match_by",
                    StringType,
                    false,
                    "how k was found: the sequence number (seq) or the ordinal within the key")
            .add(
                    "k",
                    LongType,
                    false,
                    "the instance's number within its match key (the sequence number, else the ordinal by start)")
            .add("kind", StringType, true, "the collective kind")
            .add("group_size", IntegerType, true, "the collective's group size")
            .add("bytes", LongType, true, "the message size S (METRICS.md §2 Bus bandwidth)")
            .add("ranks", IntegerType, false, "how many ranks the instance was found on")
            .add("min_start_ns", LongType, false, "the earliest start over its ranks, ns")
            .add("max_start_ns", LongType, false, "the latest start over its ranks, ns")
            .add("min_end_ns", LongType, false, "the earliest end, ns")
            .add("max_end_ns", LongType, false, "the latest end, ns")
            .add("lag_ns", LongType, false, "max(start) − min(start): how late the last rank arrived")
            .add("end_skew_ns", LongType, false, "max(end) − min(end)")
            .add("last_rank", IntegerType, true, "the rank that started last (of equal starts the higher rank)")
            .add("busbw_gbps", DoubleType, true, "bus bandwidth of the instance, GB/s (nccl-tests convention)")
            // why the last rank was late (METRICS.md §4 "Why"), for instances with lag_ns >= 10000, else null:
            // upstream, device, host or unexplained, and its lead-in window against the other ranks' medians
            .add(
                    "cause",
                    StringType,
                    true,
                    "why the last rank was late (METRICS.md §4 Why): upstream, device, host or unexplained; null for lags under 10 µs")
            .add(
                    "delta_start_ns",
                    LongType,
                    true,
                    "the last rank's lead-in window start against the other ranks' median, ns")
            .add(
                    "delta_compute_ns",
                    LongType,
                    true,
                    "the last rank's compute in its lead-in window against the other ranks' median, ns")
            .add(
                    "delta_idle_ns",
                    LongType,
                    true,
                    "the last rank's idle time in its lead-in window against the other ranks' median, ns");
}
