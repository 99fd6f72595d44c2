package org.tracelake.udfs;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.api.java.UDF5;
import org.apache.spark.sql.types.DataTypes;

/**
 * Registers the section-2 functions as Spark SQL functions, so a query classifies exactly as the Java readers and
 * metric families do. Numeric arguments are declared {@code Object} and coerced by {@link SqlArgs} (see there why).
 */
public final class UdfRegistry {

    private static final List<String> NAMES = List.of(
            "activity_class",
            "kernel_category",
            "collective_kind",
            "dtype_size",
            "dtype_from_kernel_name",
            "message_bytes",
            "bus_size_bytes",
            "size_bucket",
            "busbw_factor",
            "algbw_gbps",
            "busbw_gbps",
            "profiler_step",
            "rank_from_file_name",
            "is_gpu_activity",
            "step_name_priority",
            "step_priority",
            "is_copy_kernel",
            "is_moe_kernel",
            "xla_async_half",
            "xla_instruction",
            "is_ccl_bench_comm_name",
            "is_ccl_bench_event_cat",
            "is_nccl_dev_kernel");

    private UdfRegistry() {}

    /** The SQL names registered by {@link #registerAll}, in registration order. */
    public static List<String> names() {
        return NAMES;
    }

    public static void registerAll(SparkSession spark) {
        var udf = spark.udf();
        udf.register("activity_class", (UDF3<String, String, String, String>) ActivityClass::of, DataTypes.StringType);
        udf.register("kernel_category", (UDF2<String, String, String>) KernelCategory::of, DataTypes.StringType);
        udf.register(
                "collective_kind", (UDF3<String, String, String, String>) CollectiveKind::of, DataTypes.StringType);
        udf.register("dtype_size", (UDF1<String, Integer>) DtypeSize::bytes, DataTypes.IntegerType);
        udf.register("dtype_from_kernel_name", (UDF1<String, String>) DtypeSize::fromKernelName, DataTypes.StringType);
        udf.register(
                "message_bytes",
                (UDF2<Object, String, Long>) (nelems, dtype) -> MessageBytes.bytes(SqlArgs.toLong(nelems), dtype),
                DataTypes.LongType);
        udf.register(
                "bus_size_bytes",
                (UDF3<String, Object, Object, Long>)
                        (kind, in, out) -> BusBandwidth.sizeBytes(kind, SqlArgs.toLong(in), SqlArgs.toLong(out)),
                DataTypes.LongType);
        udf.register(
                "size_bucket",
                (UDF1<Object, Long>) size -> BusBandwidth.sizeBucket(SqlArgs.toLong(size)),
                DataTypes.LongType);
        udf.register(
                "busbw_factor",
                (UDF2<String, Object, Double>) (kind, n) -> BusBandwidth.factor(kind, SqlArgs.toInteger(n)),
                DataTypes.DoubleType);
        udf.register(
                "algbw_gbps",
                (UDF2<Object, Object, Double>)
                        (size, durNs) -> BusBandwidth.algbwGBps(SqlArgs.toLong(size), SqlArgs.toLong(durNs)),
                DataTypes.DoubleType);
        udf.register(
                "busbw_gbps",
                (UDF5<String, Object, Object, Object, Object, Double>)
                        (kind, in, out, n, durNs) -> BusBandwidth.busbwGBps(
                                kind,
                                SqlArgs.toLong(in),
                                SqlArgs.toLong(out),
                                SqlArgs.toInteger(n),
                                SqlArgs.toLong(durNs)),
                DataTypes.DoubleType);
        udf.register("profiler_step", (UDF1<String, Long>) StepNames::profilerStep, DataTypes.LongType);
        udf.register("rank_from_file_name", (UDF1<String, Integer>) RankFromFileName::rank, DataTypes.IntegerType);
        udf.register("is_gpu_activity", (UDF1<String, Boolean>) ActivityClass::isGpuActivity, DataTypes.BooleanType);
        udf.register("step_name_priority", (UDF1<String, Integer>) StepNames::stepNamePriority, DataTypes.IntegerType);
        udf.register("step_priority", (UDF2<String, String, Integer>) StepNames::stepPriority, DataTypes.IntegerType);
        udf.register("is_copy_kernel", (UDF1<String, Boolean>) KernelNameRules::isCopyKernel, DataTypes.BooleanType);
        udf.register("is_moe_kernel", (UDF1<String, Boolean>) KernelNameRules::isMoeKernel, DataTypes.BooleanType);
        udf.register("xla_async_half", (UDF1<String, String>) XlaAsyncOps::half, DataTypes.StringType);
        udf.register("xla_instruction", (UDF1<String, String>) XlaAsyncOps::instruction, DataTypes.StringType);
        udf.register(
                "is_ccl_bench_comm_name",
                (UDF1<String, Boolean>) KernelNameRules::isCclBenchCommName,
                DataTypes.BooleanType);
        udf.register(
                "is_ccl_bench_event_cat",
                (UDF1<String, Boolean>) KernelNameRules::isCclBenchEventCat,
                DataTypes.BooleanType);
        udf.register(
                "is_nccl_dev_kernel", (UDF1<String, Boolean>) KernelNameRules::isNcclDevKernel, DataTypes.BooleanType);
    }
}
