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
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("line", LongType, false)
            .add("ordinal", LongType, false)
            .add("row_kind", StringType, false)
            .add("world_size", IntegerType, true)
            .add("epoch", LongType, true)
            .add("step", LongType, true)
            .add("global_step", LongType, true)
            .add("profile_index", LongType, true)
            .add("loss", DoubleType, true)
            .add("grad_norm", DoubleType, true)
            .add("lr", DoubleType, true)
            .add("total_ms", DoubleType, true)
            .add("compute_ms", DoubleType, true)
            .add("allreduce_ms", DoubleType, true)
            .add("reducescatter_ms", DoubleType, true)
            .add("aux_ms", DoubleType, true)
            .add("overlap_compute_allreduce_ms", DoubleType, true)
            .add("overlap_compute_reducescatter_ms", DoubleType, true)
            .add("overlap_compute_comm_ms", DoubleType, true)
            .add("idle_ms", DoubleType, true)
            .add("per_stream_ms", DataTypes.createMapType(StringType, DoubleType, true), true)
            .add("utilization", DataTypes.createMapType(StringType, DoubleType, true), true)
            .add("stream", StringType, true)
            .add("tag", StringType, true)
            .add("start_ms", DoubleType, true)
            .add("end_ms", DoubleType, true)
            .add("duration_ms", DoubleType, true)
            .add("metadata", DataTypes.createMapType(StringType, StringType, true), true);

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
