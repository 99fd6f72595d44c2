package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code iteration_telemetry} table: AORTA's per-rank JSONL metric logs ({@code rank_NN_metrics.jsonl},
 * FORMATS.md §4). One table, three kinds of row told apart by {@code row_kind}:
 * <ul>
 *   <li>{@code iteration}: one per (rank, step) line — step counters, loss (NaN kept as NaN: it is what the run
 *       logged), grad_norm, lr, total_ms, the four streams' busy ms, the overlap ms and the utilization map;</li>
 *   <li>{@code range}: one per {@code profile.ranges} entry of that line — stream, tag, start/end/duration ms;</li>
 *   <li>{@code marker}: one per {@code profile.markers} entry — stream, tag, {@code start_ms = end_ms = time_ms}.</li>
 * </ul>
 * Range and marker rows repeat the line's rank/epoch/step/global_step so they join to their iteration. All times
 * are ms relative to the iteration's start event (no epoch clock in this format). On iteration rows the stream and
 * overlap columns are 0 when the line has a {@code profile.overlap} object without that key (AORTA writes only
 * non-zero overlaps and only active streams) and null when the line has no profile at all.
 */
public final class TelemetrySchema {
    private TelemetrySchema() {}

    public static final String KIND_ITERATION = "iteration";
    public static final String KIND_RANGE = "range";
    public static final String KIND_MARKER = "marker";

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add("line", LongType, false, "the line of the JSONL file the row comes from")
            .add(
                    "ordinal",
                    LongType,
                    false,
                    "the row's position in its file (0-based), so rows with equal times keep a stable order")
            .add(
                    "row_kind",
                    StringType,
                    false,
                    "iteration (one per line), range (a profile.ranges entry) or marker (a profile.markers entry)")
            .add("world_size", IntegerType, true, "the world size the line states")
            .add("epoch", LongType, true, "the line's epoch")
            .add("step", LongType, true, "the line's step")
            .add("global_step", LongType, true, "the line's global step")
            .add("profile_index", LongType, true, "the entry's position in the line's profile ranges or markers")
            .add("loss", DoubleType, true, "the training loss the run logged (NaN kept: it is what the run logged)")
            .add("grad_norm", DoubleType, true, "the gradient norm the run logged")
            .add("lr", DoubleType, true, "the learning rate the run logged")
            .add("total_ms", DoubleType, true, "the iteration's time, ms")
            .add("compute_ms", DoubleType, true, "busy time of the compute stream, ms")
            .add("allreduce_ms", DoubleType, true, "busy time of the all-reduce stream, ms")
            .add("reducescatter_ms", DoubleType, true, "busy time of the reduce-scatter stream, ms")
            .add("aux_ms", DoubleType, true, "busy time of the auxiliary stream, ms")
            .add("overlap_compute_allreduce_ms", DoubleType, true, "compute overlapped with all-reduce, ms")
            .add("overlap_compute_reducescatter_ms", DoubleType, true, "compute overlapped with reduce-scatter, ms")
            .add("overlap_compute_comm_ms", DoubleType, true, "compute overlapped with any communication, ms")
            .add("idle_ms", DoubleType, true, "time no stream was busy, ms")
            .add(
                    "per_stream_ms",
                    DataTypes.createMapType(StringType, DoubleType, true),
                    true,
                    "busy ms per stream, as the line lists them")
            .add(
                    "utilization",
                    DataTypes.createMapType(StringType, DoubleType, true),
                    true,
                    "the line's utilization map")
            .add("stream", StringType, true, "a range's or marker's stream")
            .add("tag", StringType, true, "a range's or marker's tag")
            .add("start_ms", DoubleType, true, "start, ms after the iteration's start event (a marker: its time)")
            .add("end_ms", DoubleType, true, "end, ms after the iteration's start event (a marker: its time)")
            .add("duration_ms", DoubleType, true, "a range's duration, ms")
            .add(
                    "metadata",
                    DataTypes.createMapType(StringType, StringType, true),
                    true,
                    "the line's other fields, as text");

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
