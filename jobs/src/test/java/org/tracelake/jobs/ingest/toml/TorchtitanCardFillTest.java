package org.tracelake.jobs.ingest.toml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * A card without batch_size and seq_len next to a torchtitan config gets them from it, and throughput_tokens
 * (StepFamily) is computed from them. The trace: one rank, ProfilerStep#1..#4 of 100 ms each, so avg_step_time =
 * the mean of the trimmed steps #2 and #3 = 0.1 s.
 *
 * <pre>
 * titan:        8 GPUs; local_batch_size 2, seq_len 4096, dp_replicate 1, dp_shard -1, tp 2
 *               → dp_shard = 8 / (1·2·1·1) = 4, global batch = 2 × 1 × 4 = 8
 *               → tokens_per_s = 8 × 4096 / 0.1 = 327680; per GPU ÷ 8 = 40960
 * titan_broken: a malformed config (an error row for that file); the card's own batch 4 × seq 1024 / 0.1 = 40960
 * </pre>
 */
class TorchtitanCardFillTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static Refresh.Result result;

    static String trace() {
        long t = 1_717_200_000_000_000_000L;
        KinetoTraceBuilder b = new KinetoTraceBuilder(0, 1);
        for (int s = 1; s <= 4; s++) b.step(s, t + (s - 1) * 100_000_000L, 100_000_000L);
        return b.toJson();
    }

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp)
                .write("titan", "profile_trace/iteration_10/rank0_trace.json", trace())
                .write(
                        "titan",
                        "train_configs/llama3_8b.toml",
                        String.join(
                                "\n",
                                "[job]",
                                "description = \"Llama 3 8B training\"",
                                "[training]",
                                "local_batch_size = 2",
                                "seq_len = 4096",
                                "[parallelism]",
                                "data_parallel_replicate_degree = 1",
                                "data_parallel_shard_degree = -1",
                                "tensor_parallel_degree = 2",
                                ""))
                .card("titan", "training", "llama", "nvidia_h100", 8)
                .write("titan_broken", "profile_trace/iteration_10/rank0_trace.json", trace())
                .write("titan_broken", "train_config.toml", "[training\nlocal_batch_size = 2\n")
                .write(
                        "titan_broken",
                        "titan_broken.yaml",
                        String.join(
                                "\n",
                                "workload:",
                                "  model:",
                                "    phase: training",
                                "  data:",
                                "    batch_size: 4",
                                "    seq_len: 1024",
                                "  hardware:",
                                "    xpu_spec:",
                                "      total_count: 8",
                                ""));
        result = archive.refresh(spark);
        spark.read().format("iceberg").load(archive.table("workloads")).createOrReplaceTempView("titan_workloads_t");
        spark.read().format("iceberg").load(archive.table("metrics")).createOrReplaceTempView("titan_metrics_t");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("titan_files_t");
    }

    @Test
    void cardFilledFromTheConfig() {
        Row w = spark.sql("SELECT batch_size, seq_len, dp_replicate, dp_shard, tp, field_sources "
                        + "FROM titan_workloads_t WHERE workload = 'titan'")
                .first();
        assertEquals(8L, w.getLong(0));
        assertEquals(4096L, w.getLong(1));
        assertEquals(1L, w.getLong(2));
        assertEquals(4L, w.getLong(3));
        assertEquals(2L, w.getLong(4));
        Map<String, String> sources = w.getJavaMap(5);
        assertEquals("toml:llama3_8b.toml", sources.get("batch_size"));
        assertEquals("toml:llama3_8b.toml", sources.get("seq_len"));
        assertEquals("card", sources.get("total_count"));
        Row f = spark.sql("SELECT status, format, metadata['filled'] FROM titan_files_t "
                        + "WHERE workload = 'titan' AND path LIKE '%llama3_8b.toml'")
                .first();
        assertEquals("ok", f.getString(0));
        assertEquals("torchtitan_toml", f.getString(1));
        assertEquals("seq_len=4096, dp_replicate=1, dp_shard=4, tp=2, batch_size=8", f.getString(2));
    }

    private Row throughput(String workload, String figure) {
        return spark.sql("SELECT value, status, reason FROM titan_metrics_t WHERE workload = '" + workload
                        + "' AND metric = 'throughput_tokens' AND figure = '" + figure + "' AND scope = 'workload'")
                .first();
    }

    @Test
    void throughputFromTheFilledCard() {
        Row r = throughput("titan", "tokens_per_s");
        assertEquals("ok", r.getString(1), r.getString(2));
        assertEquals(327680.0, r.getDouble(0), 1e-6);
        assertEquals(40960.0, throughput("titan", "tokens_per_s_per_gpu").getDouble(0), 1e-6);
    }

    @Test
    void aMalformedConfigIsAnErrorRowNotAFailedWorkload() {
        WorkloadIngest broken = result.workloads().stream()
                .filter(w -> w.workload().equals("titan_broken"))
                .findFirst()
                .orElseThrow();
        assertTrue(broken.ok(), () -> String.join("; ", broken.problems()));
        assertFalse(broken.clean());
        Row f = spark.sql(
                        "SELECT status, error FROM titan_files_t WHERE workload = 'titan_broken' AND path LIKE '%train_config.toml'")
                .first();
        assertEquals("error", f.getString(0));
        assertTrue(f.getString(1).startsWith("malformed TOML"), f.getString(1));
        Row r = throughput("titan_broken", "tokens_per_s");
        assertEquals("ok", r.getString(1), r.getString(2));
        assertEquals(40960.0, r.getDouble(0), 1e-6);
        Row w = spark.sql(
                        "SELECT batch_size, field_sources['batch_size'] FROM titan_workloads_t WHERE workload = 'titan_broken'")
                .first();
        assertEquals(4L, w.getLong(0));
        assertEquals("card", w.getString(1));
    }
}
