package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code et_nodes} table: one row per node of a PyTorch execution trace (FORMATS.md §7; schema 1.0.x and the
 * 1.x-chakra variant). Inputs and outputs are kept as compact JSON text exactly as written (tensor values are
 * {@code [tensor_id, storage_id, offset, numel, itemsize, device]}). Communication nodes ({@code record_param_comms}
 * that is not a {@code wait}, and {@code nccl:*}) are decoded: the collective kind (udfs CollectiveKind) and the
 * name PyTorch recorded ({@code all_to_allv}), element counts and bytes of the first input/output tensor, split
 * sizes, process group, group size and the per-group sequence number ({@code comm_seq}, not the autograd
 * {@code seq_id}). {@code rf_id} links a node to the Kineto op whose {@code Record function id} it equals.
 */
public final class EtNodeSchema {
    private EtNodeSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("ordinal", LongType, false)
            .add("schema_version", StringType, true)
            .add("id", LongType, true)
            .add("name", StringType, true)
            .add("parent", LongType, true)
            .add("fw_parent", LongType, true)
            .add("rf_id", LongType, true)
            .add("seq_id", LongType, true)
            .add("scope", LongType, true)
            .add("tid", LongType, true)
            .add("fw_tid", LongType, true)
            .add("op_schema", StringType, true)
            .add("inputs", StringType, true)
            .add("input_shapes", StringType, true)
            .add("input_types", StringType, true)
            .add("outputs", StringType, true)
            .add("output_shapes", StringType, true)
            .add("output_types", StringType, true)
            .add("attrs", DataTypes.createMapType(StringType, StringType, true), true)
            .add("is_comm", BooleanType, false)
            .add("collective", StringType, true)
            .add("collective_name", StringType, true)
            .add("in_nelems", LongType, true)
            .add("out_nelems", LongType, true)
            .add("dtype", StringType, true)
            .add("in_bytes", LongType, true)
            .add("out_bytes", LongType, true)
            .add("in_split_sizes", StringType, true)
            .add("out_split_sizes", StringType, true)
            .add("group_size", IntegerType, true)
            .add("pg_name", StringType, true)
            .add("comm_seq", LongType, true);

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
