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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add("device", IntegerType, false, "the CUDA device the snapshot is of")
            .add("ordinal", LongType, false, "the entry's position in its device's trace (0-based; the replay order)")
            .add(
                    "action",
                    StringType,
                    true,
                    "as written: alloc, free_requested, free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom, user_defined")
            .add("address", LongType, true, "the block's (or segment's) address")
            .add(
                    "size",
                    LongType,
                    true,
                    "bytes; on memory_events as the trace gives it (for alloc/free the requested size), on segment rows total_size")
            .add("stream", LongType, true, "the CUDA stream")
            .add("time_us", LongType, true, "the entry's time as written, epoch µs")
            .add("ts_ns", LongType, true, "time_us × 1000 (epoch ns)")
            .add(
                    "frame",
                    StringType,
                    true,
                    "the top of the Python stack: \"name file:line\", the innermost frame in a .py file, else the first frame")
            .add("frame_count", IntegerType, true, "frames in the entry's stack")
            .add("device_free", LongType, true, "free device bytes, on oom entries only")
            .add("compile_context", StringType, true, "the entry's compile context as the snapshot writes it")
            .add("user_metadata", StringType, true, "the entry's user metadata as the snapshot writes it");

    /**
     * {@code memory_segments}: segment rows carry {@code size} = total_size, allocated/active/requested sizes and the
     * segment's attributes; block rows carry their {@code segment_address}, {@code size}, {@code requested_size} and
     * {@code state} (active_allocated, active_pending_free, inactive). {@code segment_ordinal} is the segment's
     * position in the snapshot, {@code block_ordinal} the block's position in its segment (null on segment rows).
     */
    public static final StructType SEGMENTS = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add("device", IntegerType, false, "the CUDA device the snapshot is of")
            .add("row_kind", StringType, false, "segment (a cudaMalloc'd segment) or block (one block inside it)")
            .add("segment_ordinal", LongType, false, "the segment's position in the snapshot")
            .add("block_ordinal", LongType, true, "the block's position in its segment; null on segment rows")
            .add("segment_address", LongType, true, "the address of the segment a block is in")
            .add("address", LongType, true, "the block's (or segment's) address")
            .add(
                    "size",
                    LongType,
                    true,
                    "bytes; on memory_events as the trace gives it (for alloc/free the requested size), on segment rows total_size")
            .add("requested_size", LongType, true, "bytes the caller asked for (a block's, or a segment's sum)")
            .add("allocated_size", LongType, true, "a segment's allocated bytes")
            .add("active_size", LongType, true, "a segment's active bytes")
            .add("state", StringType, true, "a block's state: active_allocated, active_pending_free or inactive")
            .add("stream", LongType, true, "the CUDA stream")
            .add("segment_type", StringType, true, "the segment's type as the snapshot writes it")
            .add("segment_pool_id", StringType, true, "the segment's memory pool id as the snapshot writes it")
            .add("is_expandable", BooleanType, true, "whether the segment is expandable, as the snapshot writes it")
            .add(
                    "frame",
                    StringType,
                    true,
                    "the top of the Python stack: \"name file:line\", the innermost frame in a .py file, else the first frame");
}
