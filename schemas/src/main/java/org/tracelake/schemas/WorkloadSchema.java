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
            .add("workload", StringType, false)
            .add("card_path", StringType, true)
            .add("card_hash", StringType, true)
            .add("phase", StringType, true)
            .add("model_family", StringType, true)
            .add("precision", StringType, true)
            .add("iteration", LongType, true)
            .add("num_params", LongType, true)
            .add("num_params_embedding", LongType, true)
            .add("num_params_active", LongType, true)
            .add("num_layers", LongType, true)
            .add("num_heads", LongType, true)
            .add("head_dim", LongType, true)
            .add("batch_size", LongType, true)
            .add("seq_len", LongType, true)
            .add("input_len", LongType, true)
            .add("output_len", LongType, true)
            .add("dataset", StringType, true)
            .add("topology", StringType, true)
            .add("bandwidth_gbps", DoubleType, true)
            .add("xpu_type", StringType, true)
            .add("xpu_model", StringType, true)
            .add("device_count", LongType, true)
            .add("count_per_node", LongType, true)
            .add("framework", StringType, true)
            .add("framework_version", StringType, true)
            .add("dp_replicate", LongType, true)
            .add("dp_shard", LongType, true)
            .add("tp", LongType, true)
            .add("pp", LongType, true)
            .add("cp", LongType, true)
            .add("ep", LongType, true)
            .add("pp_mb", LongType, true)
            .add("comm_library", StringType, true)
            .add("comm_library_version", StringType, true)
            .add("card", DataTypes.createMapType(StringType, StringType, true), true)
            .add("field_sources", DataTypes.createMapType(StringType, StringType, true), true)
            .add("status", StringType, false)
            .add("error", StringType, true)
            .add("ingest_run_id", StringType, false);
}
