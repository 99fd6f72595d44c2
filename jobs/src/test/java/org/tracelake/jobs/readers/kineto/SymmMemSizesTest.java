package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * Issue 14 item 9, METRICS.md §2 "message size": a symmetric-memory collective carries no NCCL args; its size comes
 * from its {@code symm_mem::*} op's {@code Input Dims} and {@code Input type}. The trace imitates PyTorch 2.5+
 * traces of {@code torch.ops.symm_mem.one_shot_all_reduce(t, "sum", group)} and {@code two_shot_all_reduce_}: a
 * {@code cpu_op} named after the op with the kernel's {@code External id}, whose first input is the tensor and whose
 * other inputs are the reduce op and group name (so their dims are empty), and a device kernel named
 * {@code c10d::symmetric_memory::one_shot_all_reduce_kernel<…>} launched inside it.
 */
class SymmMemSizesTest {

    @Test
    void symmMemAllReduceTakesItsSizeFromTheOpsInputDims(@TempDir Path dir) throws IOException {
        long t0 = 1_700_000_000_000_000_000L;
        KinetoTraceBuilder trace = new KinetoTraceBuilder(0, 4)
                .step(1, t0, 1_000_000)
                // first tensor bf16[2048, 512]: 1,048,576 elements × 2 bytes = 2,097,152 bytes
                .cpu(
                        "cpu_op",
                        "symm_mem::one_shot_all_reduce",
                        t0 + 10_000,
                        50_000,
                        Map.of(
                                "External id",
                                7,
                                "Input Dims",
                                List.of(List.of(2048, 512), List.of(), List.of()),
                                "Input type",
                                List.of("c10::BFloat16", "Scalar", "Scalar")))
                .kernel(
                        "void c10d::symmetric_memory::one_shot_all_reduce_kernel<c10::BFloat16, 4>(c10::BFloat16**, "
                                + "unsigned long, unsigned long, c10::BFloat16*, unsigned long, unsigned int, unsigned int)",
                        7,
                        t0 + 70_000,
                        20_000,
                        t0 + 20_000,
                        Map.of("External id", 7))
                // an in-place two-shot over fp32[4096]: 4,096 × 4 = 16,384 bytes; the dtype from the op's Input type
                .cpu(
                        "cpu_op",
                        "symm_mem::two_shot_all_reduce_",
                        t0 + 200_000,
                        50_000,
                        Map.of(
                                "External id",
                                9,
                                "Input Dims",
                                List.of(List.of(4096), List.of(), List.of()),
                                "Input type",
                                List.of("float", "Scalar", "Scalar")))
                .kernel(
                        "void c10d::symmetric_memory::two_shot_all_reduce_kernel<float, 4>(float**, unsigned long, "
                                + "float*, unsigned long, unsigned long, unsigned int, unsigned int)",
                        7,
                        t0 + 260_000,
                        30_000,
                        t0 + 210_000,
                        Map.of("External id", 9));
        Path file = Files.writeString(dir.resolve("rank0_trace.json"), trace.toJson());

        SparkSession spark = SharedSpark.get();
        List<Row> comm = spark.read()
                .format("tracelake")
                .option("workload", "symm")
                .load(file.toString())
                .where("activity_class = 'comm'")
                .orderBy("ts_ns")
                .select("collective", "in_nelems", "dtype", "in_bytes", "out_bytes", "bytes_source", "group_size")
                .collectAsList();
        assertEquals(2, comm.size());
        assertEquals(
                List.of("all_reduce", 1_048_576L, "c10::BFloat16", 2_097_152L, 2_097_152L, "input_dims", 4),
                values(comm.get(0)));
        assertEquals(List.of("all_reduce", 4_096L, "float", 16_384L, 16_384L, "input_dims", 4), values(comm.get(1)));
    }

    private static List<Object> values(Row r) {
        return List.of(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5), r.get(6));
    }
}
