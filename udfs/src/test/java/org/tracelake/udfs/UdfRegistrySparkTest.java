package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/** One local session for the whole check: Spark start-up dominates the module's test time. */
class UdfRegistrySparkTest {

    @Test
    void registeredFunctionsAnswerFromSql() {
        SparkSession spark = SparkSession.builder()
                .master("local[1]")
                .appName("tracelake-udfs-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1")
                .getOrCreate();
        try {
            UdfRegistry.registerAll(spark);
            Row row = spark.sql("SELECT activity_class('kernel','ncclDevKernel_AllReduce_Sum_f16_RING_LL(x)', null), "
                            + "busbw_factor('all_reduce', 8)")
                    .first();
            assertEquals("comm", row.getString(0));
            assertEquals(1.75, row.getDouble(1), 1e-12); // 2*(8-1)/8

            // the numeric arguments accept int and bigint columns alike; null stays null
            Row more = spark.sql("SELECT message_bytes(6637568, 'Float'), message_bytes(CAST(53 AS BIGINT), 'Long'), "
                            + "busbw_gbps('all_reduce', 100, 100, 2, CAST(50 AS BIGINT)), profiler_step('ProfilerStep#7'), "
                            + "rank_from_file_name('sampled_rank-1.json.gz'), is_gpu_activity('gpu_memcpy'), "
                            + "collective_kind(null, 'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(x)', 'nccl:all_to_all'), "
                            + "dtype_size(null), step_priority('user_annotation', 'execute_context_0(1)_generation_0(1)'), "
                            + "step_priority('gpu_user_annotation', 'execute_context_0(1)_generation_0(1)'), "
                            + "size_bucket(402176), size_bucket(CAST(0 AS BIGINT))")
                    .first();
            assertEquals(26_550_272L, more.getLong(0));
            assertEquals(424L, more.getLong(1));
            assertEquals(2.0, more.getDouble(2), 1e-12);
            assertEquals(7L, more.getLong(3));
            assertEquals(1, more.getInt(4));
            assertTrue(more.getBoolean(5));
            assertEquals("all_to_all", more.getString(6));
            assertTrue(more.isNullAt(7));
            assertEquals(2, more.getInt(8)); // the CPU-side vLLM step annotation
            assertEquals(-1, more.getInt(9)); // its GPU-side copy is never a step
            assertEquals(262_144L, more.getLong(10)); // 2^18 <= 402,176 < 2^19
            assertEquals(0L, more.getLong(11));

            List<String> functions = Arrays.asList((String[]) spark.sql("SHOW USER FUNCTIONS")
                    .as(org.apache.spark.sql.Encoders.STRING())
                    .collect());
            for (String name : UdfRegistry.names()) {
                assertTrue(functions.stream().anyMatch(f -> f.endsWith(name)), name);
            }
            // the 13 of METRICS.md §2, step_name_priority, step_priority, is_copy_kernel, is_moe_kernel, size_bucket,
            // xla_async_half, xla_instruction, is_ccl_bench_comm_name, is_ccl_bench_event_cat, is_nccl_dev_kernel
            assertEquals(23, UdfRegistry.names().size());
        } finally {
            spark.stop();
        }
    }
}
