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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("path", StringType, false, "the file's path")
            .add(
                    "format",
                    StringType,
                    true,
                    "the format detected for the file (kineto, nsys_sqlite, xla, xplane, rocprof, memory_snapshot, flight_recorder, telemetry, et, …); null when none")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the file's rank (METRICS.md §1); null for a file of several devices (their ranks in metadata['ranks'])")
            .add("rank_source", StringType, true, "how the rank was found: distributed_info, file_name or file_order")
            .add("size_bytes", LongType, false, "the file's size in bytes")
            .add("modified_at", TimestampType, false, "the file's modification time")
            .add(
                    "content_hash",
                    StringType,
                    true,
                    "the content digest (sha256:…) of a card or torchtitan config; null where none was taken")
            .add("events_read", LongType, false, "rows read from the file")
            .add("events_dropped", LongType, false, "events the reader left out, counted by reason in drop_reasons")
            .add("drop_reasons", DataTypes.createMapType(StringType, LongType, true), true, "events dropped, by reason")
            .add(
                    "status",
                    StringType,
                    false,
                    "ok, skipped (not a trace, or a duplicate rendering: the error says which) or error")
            .add("error", StringType, true, "what went wrong, or why the file was skipped")
            .add(
                    "time_base",
                    StringType,
                    true,
                    "how the time base was found: base_time_nanoseconds, epoch, session_start or unknown (METRICS.md §1)")
            .add("base_time_ns", LongType, true, "the time base added to the file's times, in ns")
            .add("world_size", IntegerType, true, "the world size the file states (distributedInfo.world_size), if any")
            .add(
                    "metadata",
                    DataTypes.createMapType(StringType, StringType, true),
                    true,
                    "what the reader kept of the file's header: ranks of a file of several devices, a fault log, time base warnings, …")
            .add("ingest_run_id", StringType, false, "the refresh run that ingested the row")
            // the digest of the workload folder's listing this row was read from (WorkloadFolder.listingDigest), the
            // same in every row of the workload; null while a file of it is unusable, so that it is retried. A refresh
            // compares it with the folder's listing from the table's metadata alone (the column's bounds) and reads
            // the ledger rows of a workload only when they differ.
            .add(
                    LISTING_DIGEST,
                    LongType,
                    true,
                    "the digest of the workload folder's listing this row was read from, the same in every row of the workload; null while a file of it is unusable, so that it is retried");

    /** A file that could not be used at all (an error, nothing read): its workload is read again every run until fixed. */
    public static boolean unusable(String status, long eventsRead) {
        return STATUS_ERROR.equals(status) && eventsRead == 0;
    }
}
