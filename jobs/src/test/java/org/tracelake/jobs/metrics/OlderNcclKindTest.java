package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 32 item 2 on a Kineto trace of the older-NCCL shape, built here: every collective runs as
 * {@code ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t}, and only the ops around its launch say which. Per rank (2 ranks):
 * three launches inside {@code c10d::allreduce_} → {@code nccl:all_reduce} (Input Dims [[262144]], float), one inside
 * {@code nccl:send} (Input Dims [[1024]], float), one with no op around it.
 */
class OlderNcclKindTest {
    static final String SENDRECV = "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)";

    @TempDir
    static Path tmp;

    static MetricRows m;

    @BeforeAll
    static void refresh() {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp);
        for (int rank = 0; rank < 2; rank++) {
            KinetoTraceBuilder b = new KinetoTraceBuilder(rank, 2).step(1, t(0), us(10_000));
            for (long at : new long[] {100, 2_100, 4_100}) {
                b.cpu("cpu_op", "c10d::allreduce_", t(at), us(50), Map.of())
                        .cpu(
                                "user_annotation",
                                "nccl:all_reduce",
                                t(at + 10),
                                us(30),
                                Map.of("Input Dims", List.of(List.of(262_144)), "Input type", List.of("float")))
                        .kernel(SENDRECV, 20, t(at + 900 + rank), us(200), t(at + 20), Map.of());
            }
            b.cpu(
                            "cpu_op",
                            "nccl:send",
                            t(6_100),
                            us(30),
                            Map.of("Input Dims", List.of(List.of(1024)), "Input type", List.of("float")))
                    .kernel(SENDRECV, 20, t(7_000), us(50), t(6_110), Map.of())
                    .kernel(SENDRECV, 20, t(8_500), us(50), t(8_000), Map.of());
            archive.write("older_nccl", "rank" + rank + "_trace.json", b.toJson());
        }
        archive.card("older_nccl", "training", "llama", "NVIDIA A100", 2);
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    /**
     * collective_vol_allreduce_gb (rank 0): 3 × 262,144 floats × 4 B = 3,145,728 B = 0.003145728 GB (it was 0.0 when
     * the kernels counted as send_recv); 3 all_reduce and 2 send_recv per rank (the nccl:send one and the bare one);
     * send_recv bytes only the nccl:send's 4,096 B per rank (the bare one has no size): 8,192 B, partial.
     */
    @Test
    void sendRecvKernelsTakeTheKindOfTheirLaunchingOp() {
        m.workload(0.003145728, "older_nccl", "collective_vol_allreduce_gb", null);
        m.ok(3, "older_nccl", "coll_call_num", null, "key", null, null, "all_reduce");
        m.ok(2, "older_nccl", "coll_call_num", null, "key", null, null, "send_recv");
        var sendRecvBytes = m.one("older_nccl", "comm_bytes_total", null, "key", null, null, "send_recv");
        MetricRows.close(8_192, sendRecvBytes.getDouble(3), "send_recv bytes");
        m.assertNoImpossibleValues("NVIDIA A100");
    }
}
