package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** The {@code workloads} table: one row per workload, its card flattened. */
public final class WorkloadSchema {
    private WorkloadSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("card_path", StringType, true, "the workload card's path (workload_card.yaml)")
            .add("card_hash", StringType, true, "the card's content digest")
            .add("phase", StringType, true, "the card's workload.phase: training or inference")
            .add("model_family", StringType, true, "the card's workload.model.model_family")
            .add("precision", StringType, true, "the card's workload.model.precision (bf16, fp8, …)")
            .add("iteration", LongType, true, "the card's workload.iteration: how many steps the trace was taken over")
            .add("num_params", LongType, true, "the model's parameter count (the card's workload.model.num_params)")
            .add("num_params_embedding", LongType, true, "the embedding parameters, which mfu leaves out")
            .add(
                    "num_params_active",
                    LongType,
                    true,
                    "the parameters active per token (mixture of experts), which mfu counts when given")
            .add("num_layers", LongType, true, "the model's layers")
            .add("num_heads", LongType, true, "the model's attention heads")
            .add("head_dim", LongType, true, "the dimension of an attention head")
            .add(
                    "batch_size",
                    LongType,
                    true,
                    "the global batch size (the card's, else the torchtitan config's), for throughput_tokens")
            .add(
                    "seq_len",
                    LongType,
                    true,
                    "the sequence length (the card's, else the torchtitan config's), for throughput_tokens")
            .add("input_len", LongType, true, "an inference request's input length")
            .add("output_len", LongType, true, "an inference request's output length")
            .add("dataset", StringType, true, "the card's dataset")
            .add("topology", StringType, true, "the card's hardware.network_topology")
            .add("bandwidth_gbps", DoubleType, true, "the card's network bandwidth, GB/s")
            .add("xpu_type", StringType, true, "the card's hardware.xpu_spec.type (GPU, TPU)")
            .add(
                    "xpu_model",
                    StringType,
                    true,
                    "the card's hardware.xpu_spec.model (NVIDIA H100, …), which the device tables in conf/ are looked up by")
            .add("device_count", LongType, true, "the card's hardware.xpu_spec.total_count: devices in the run")
            .add(
                    "count_per_node",
                    LongType,
                    true,
                    "the card's hardware.xpu_spec.count_per_node: devices per node (node = global rank ÷ it)")
            .add("framework", StringType, true, "the card's framework (torchtitan, megatron, vllm, …)")
            .add("framework_version", StringType, true, "the framework's version")
            .add(
                    "dp_replicate",
                    LongType,
                    true,
                    "data-parallel replicas (world size = dp_replicate × dp_shard × tp × pp × cp)")
            .add("dp_shard", LongType, true, "data-parallel shards (FSDP)")
            .add("tp", LongType, true, "tensor-parallel degree")
            .add("pp", LongType, true, "pipeline-parallel degree")
            .add("cp", LongType, true, "context-parallel degree")
            .add("ep", LongType, true, "expert-parallel degree")
            .add("pp_mb", LongType, true, "pipeline microbatches")
            .add("comm_library", StringType, true, "the communication library (NCCL, RCCL, …)")
            .add("comm_library_version", StringType, true, "the communication library's version")
            .add(
                    "card",
                    DataTypes.createMapType(StringType, StringType, true),
                    true,
                    "the whole card, flattened: dotted key to value as text")
            .add(
                    "field_sources",
                    DataTypes.createMapType(StringType, StringType, true),
                    true,
                    "where a column's value came from, when not the card (a torchtitan config)")
            .add("status", StringType, false, "ok, or error when the card could not be used")
            .add("error", StringType, true, "why the card could not be used")
            .add("ingest_run_id", StringType, false, "the refresh run that ingested the row");
}
