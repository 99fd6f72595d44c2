package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/**
 * The two tables read from PyTorch CUDA memory snapshots ({@code torch.cuda.memory._dump_snapshot}, FORMATS.md §5):
 * {@link #EVENTS} ({@code memory_events}, one row per entry of a device's allocator trace, in trace order) and
 * {@link #SEGMENTS} ({@code memory_segments}, the allocator's final state: one row per segment and one per block).
 * The replay of METRICS.md §4 "Memory" reads both.
 */
public final class MemorySchema {
    private MemorySchema() {}

    /** {@code memory_segments.row_kind}: a cudaMalloc'd segment, or one block inside it. */
    public static final String KIND_SEGMENT = "segment";

    public static final String KIND_BLOCK = "block";

    /**
     * {@code memory_events}: {@code ordinal} is the entry's position in its device's trace (0-based; the replay order),
     * {@code action} as written (alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map,
     * segment_unmap, snapshot, oom, user_defined), {@code size} in bytes as the trace gives it (for alloc/free the
     * <em>requested</em> size), {@code ts_ns = time_us × 1000} (epoch), {@code frame} the top of the Python stack
     * ("name file:line", the innermost frame in a .py file, else the first frame), {@code device_free} only on oom.
     */
    public static final StructType EVENTS = new StructType()
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("device", IntegerType, false)
            .add("ordinal", LongType, false)
            .add("action", StringType, true)
            .add("address", LongType, true)
            .add("size", LongType, true)
            .add("stream", LongType, true)
            .add("time_us", LongType, true)
            .add("ts_ns", LongType, true)
            .add("frame", StringType, true)
            .add("frame_count", IntegerType, true)
            .add("device_free", LongType, true)
            .add("compile_context", StringType, true)
            .add("user_metadata", StringType, true);

    /**
     * {@code memory_segments}: segment rows carry {@code size} = total_size, allocated/active/requested sizes and the
     * segment's attributes; block rows carry their {@code segment_address}, {@code size}, {@code requested_size} and
     * {@code state} (active_allocated, active_pending_free, inactive). {@code segment_ordinal} is the segment's
     * position in the snapshot, {@code block_ordinal} the block's position in its segment (null on segment rows).
     */
    public static final StructType SEGMENTS = new StructType()
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("device", IntegerType, false)
            .add("row_kind", StringType, false)
            .add("segment_ordinal", LongType, false)
            .add("block_ordinal", LongType, true)
            .add("segment_address", LongType, true)
            .add("address", LongType, true)
            .add("size", LongType, true)
            .add("requested_size", LongType, true)
            .add("allocated_size", LongType, true)
            .add("active_size", LongType, true)
            .add("state", StringType, true)
            .add("stream", LongType, true)
            .add("segment_type", StringType, true)
            .add("segment_pool_id", StringType, true)
            .add("is_expandable", BooleanType, true)
            .add("frame", StringType, true);
}
