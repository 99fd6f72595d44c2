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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add(
                    "ordinal",
                    LongType,
                    false,
                    "the row's position in its file (0-based), so rows with equal times keep a stable order")
            .add("schema_version", StringType, true, "the execution trace's schema version (1.0.x, 1.x-chakra)")
            .add("id", LongType, true, "the node's id")
            .add("name", StringType, true, "the node's name (the op, or record_param_comms, nccl:*)")
            .add("parent", LongType, true, "the id of the parent node")
            .add("fw_parent", LongType, true, "the id of the forward node of a backward one")
            .add(
                    "rf_id",
                    LongType,
                    true,
                    "the record function id, which links the node to the Kineto op whose Record function id it equals")
            .add("seq_id", LongType, true, "the autograd sequence id")
            .add("scope", LongType, true, "the record scope")
            .add("tid", LongType, true, "the thread id")
            .add("fw_tid", LongType, true, "the forward thread id")
            .add("op_schema", StringType, true, "the op's schema")
            .add(
                    "inputs",
                    StringType,
                    true,
                    "the inputs as compact JSON text, as written (a tensor: [tensor_id, storage_id, offset, numel, itemsize, device])")
            .add("input_shapes", StringType, true, "the input shapes as JSON text")
            .add("input_types", StringType, true, "the input types as JSON text")
            .add("outputs", StringType, true, "the outputs as compact JSON text, as written")
            .add("output_shapes", StringType, true, "the output shapes as JSON text")
            .add("output_types", StringType, true, "the output types as JSON text")
            .add("attrs", DataTypes.createMapType(StringType, StringType, true), true, "the node's attributes, as text")
            .add(
                    "is_comm",
                    BooleanType,
                    false,
                    "a communication node: record_param_comms that is not a wait, or nccl:*")
            .add("collective", StringType, true, "the collective kind (udfs CollectiveKind) of a communication node")
            .add("collective_name", StringType, true, "the collective's name as PyTorch recorded it (all_to_allv, …)")
            .add("in_nelems", LongType, true, "elements of the first input tensor")
            .add("out_nelems", LongType, true, "elements of the first output tensor")
            .add("dtype", StringType, true, "the element type of the first input tensor")
            .add("in_bytes", LongType, true, "bytes of the first input tensor")
            .add("out_bytes", LongType, true, "bytes of the first output tensor")
            .add("in_split_sizes", StringType, true, "an all_to_allv's input split sizes")
            .add("out_split_sizes", StringType, true, "an all_to_allv's output split sizes")
            .add("group_size", IntegerType, true, "the process group's size")
            .add("pg_name", StringType, true, "the process group's name")
            .add(
                    "comm_seq",
                    LongType,
                    true,
                    "the per-group sequence number of the collective (not the autograd seq_id)");

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
