package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;
import static org.apache.spark.sql.types.DataTypes.TimestampType;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The {@code trace_files} table: one row per input file, whatever became of it. */
public final class TraceFileSchema {
    private TraceFileSchema() {}

    public static final String STATUS_OK = "ok";
    public static final String STATUS_SKIPPED = "skipped";
    public static final String STATUS_ERROR = "error";

    /** How the rank was found (METRICS.md §1). */
    public static final String RANK_FROM_DISTRIBUTED_INFO = "distributed_info";

    public static final String RANK_FROM_FILE_NAME = "file_name";
    public static final String RANK_FROM_FILE_ORDER = "file_order";

    /** How the time base was found (METRICS.md §1). */
    public static final String TIME_BASE_NANOSECONDS_KEY = "base_time_nanoseconds";

    public static final String TIME_BASE_EPOCH = "epoch";
    public static final String TIME_BASE_UNKNOWN = "unknown";
    public static final String TIME_BASE_SESSION_START = "session_start";

    /** The column that carries a workload's listing digest (see its comment below). */
    public static final String LISTING_DIGEST = "listing_digest";

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("path", StringType, false)
            .add("format", StringType, true)
            .add("rank", IntegerType, true)
            .add("rank_source", StringType, true)
            .add("size_bytes", LongType, false)
            .add("modified_at", TimestampType, false)
            .add("content_hash", StringType, true)
            .add("events_read", LongType, false)
            .add("events_dropped", LongType, false)
            .add("drop_reasons", DataTypes.createMapType(StringType, LongType, true), true)
            .add("status", StringType, false)
            .add("error", StringType, true)
            .add("time_base", StringType, true)
            .add("base_time_ns", LongType, true)
            .add("world_size", IntegerType, true)
            .add("metadata", DataTypes.createMapType(StringType, StringType, true), true)
            .add("ingest_run_id", StringType, false)
            // the digest of the workload folder's listing this row was read from (WorkloadFolder.listingDigest), the
            // same in every row of the workload; null while a file of it is unusable, so that it is retried. A refresh
            // compares it with the folder's listing from the table's metadata alone (the column's bounds) and reads
            // the ledger rows of a workload only when they differ.
            .add(LISTING_DIGEST, LongType, true);

    /** A file that could not be used at all (an error, nothing read): its workload is read again every run until fixed. */
    public static boolean unusable(String status, long eventsRead) {
        return STATUS_ERROR.equals(status) && eventsRead == 0;
    }
}
