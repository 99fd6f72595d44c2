package org.tracelake.jobs.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The leaderboard export of data/ has the shape of CCL-Bench's website/benchmark_data.json (as written by its
 * website/generate_data.py): generated_at, all_metrics, metric_categories, metric_info{unit, higher_is_better,
 * description, label, category}, rows[{trace, metadata{CCL-Bench's card keys}, metrics{name: number|null}}].
 */
class LeaderboardExportTest {
    /** The metadata keys generate_data.py's extract_metadata writes, in its order. */
    static final List<String> CCL_BENCH_METADATA = List.of(
            "workload_name",
            "description",
            "hf_url",
            "trace_url",
            "model_family",
            "phase",
            "precision",
            "moe",
            "granularity",
            "epochs",
            "iteration",
            "batch_size",
            "seq_len",
            "dataset",
            "hardware_type",
            "hardware_model",
            "total_count",
            "count_per_node",
            "network_topology",
            "bandwidth_scaleout",
            "bandwidth_scaleup",
            "driver_version",
            "framework",
            "compiler",
            "tp",
            "pp",
            "pp_mb",
            "dp_replicate",
            "dp_shard",
            "ep",
            "cp",
            "comm_library",
            "comm_library_ver",
            "comm_env",
            "protocol_selection",
            "trace_types",
            "metric_traces");

    static SparkSession spark;

    @TempDir
    Path tmp;

    @BeforeAll
    static void setUp() {
        spark = SharedSpark.get();
        SampleWarehouse.get();
    }

    @Test
    void exportOfTheSampleHasTheLeaderboardShape() throws Exception {
        LeaderboardExport export = new LeaderboardExport(new WarehouseTables(spark, SampleWarehouse.warehouse(spark)));
        // every workload of data/: the format samples' busbw_gbps is one unkeyed row without a value (no sized
        // communication), which must not become a plain busbw_gbps column beside the per-kind ones
        String file = export.write(tmp.resolve("out/leaderboard.json").toString(), List.of());
        JsonNode doc = new ObjectMapper().readTree(Path.of(file).toFile());

        assertEquals(List.of("generated_at", "all_metrics", "metric_categories", "metric_info", "rows"), fields(doc));
        OffsetDateTime.parse(doc.get("generated_at").asText()); // ISO-8601 with offset, like datetime.isoformat()
        List<String> all = new ArrayList<>();
        doc.get("all_metrics").forEach(n -> all.add(n.asText()));
        assertEquals(new ArrayList<>(new TreeSet<>(all)), all, "all_metrics sorted, no duplicates");
        assertEquals(all, fields(doc.get("metric_info")), "one metric_info per metric");
        Set<String> categories = new TreeSet<>();
        for (JsonNode c : doc.get("metric_categories")) {
            assertEquals(List.of("id", "label", "description"), fields(c));
            categories.add(c.get("id").asText());
        }
        for (String name : all) {
            JsonNode info = doc.get("metric_info").get(name);
            assertTrue(info.get("unit").isTextual(), name);
            assertTrue(info.get("higher_is_better").isBoolean(), name);
            assertTrue(
                    info.get("description").isTextual()
                            && !info.get("description").asText().isBlank(),
                    name);
            assertTrue(info.get("label").isTextual(), name);
            assertTrue(categories.contains(info.get("category").asText()), name);
        }
        // headline figures: one leaderboard number per metric; per-kind breakdowns get one name per key
        for (String name : List.of(
                "coll_call_num",
                "straggler_lag",
                "iter_time",
                "comm_comp_overlap",
                "mfu",
                "avg_step_time",
                "communication_fraction",
                "busbw_gbps.all_reduce",
                "busbw_gbps.all_gather")) {
            assertTrue(all.contains(name), name + " in " + all);
        }
        assertTrue(!all.contains("busbw_gbps"), "busbw_gbps exists only per kind");
        assertTrue(doc.get("metric_info").get("mfu").get("higher_is_better").asBoolean());
        assertTrue(!doc.get("metric_info")
                .get("avg_step_time")
                .get("higher_is_better")
                .asBoolean());
        assertEquals(
                "us", doc.get("metric_info").get("straggler_lag").get("unit").asText());

        JsonNode rows = doc.get("rows");
        // one row per workload of data/: the two Kineto runs, then the seven format samples (sample-*), by name
        assertEquals(9, rows.size());
        assertEquals("dlrm-ddp-v100x4-legacy", rows.get(0).get("trace").asText());
        assertEquals("llama3-8b-fsdp-h100x4", rows.get(1).get("trace").asText());
        for (JsonNode row : rows) {
            assertEquals(List.of("trace", "metadata", "metrics"), fields(row));
            List<String> meta = fields(row.get("metadata"));
            assertEquals(
                    CCL_BENCH_METADATA, meta.subList(0, CCL_BENCH_METADATA.size()), "CCL-Bench's metadata keys first");
            assertEquals(all, fields(row.get("metrics")), "every row has every metric");
            row.get("metrics").forEach(v -> assertTrue(v.isNumber() || v.isNull(), "a number or null: " + v));
        }
        JsonNode llama = rows.get(1);
        JsonNode meta = llama.get("metadata");
        assertEquals("llama3-8b-fsdp-h100x4", meta.get("workload_name").asText());
        assertEquals("NVIDIA H100", meta.get("hardware_model").asText());
        assertEquals(4, meta.get("total_count").asInt());
        assertEquals(4, meta.get("dp_shard").asInt());
        assertEquals(128, meta.get("seq_len").asInt());
        assertEquals(3600, meta.get("bandwidth_scaleout").asInt());
        assertEquals("", meta.get("bandwidth_scaleup").asText());
        assertEquals("Ring", meta.get("comm_env").get("NCCL_ALGO").asText());
        assertEquals("profile_traces", meta.get("trace_types").get(0).asText());
        assertTrue(meta.get("moe").isBoolean() && !meta.get("moe").asBoolean());
        assertEquals("torchtitan", meta.get("framework").asText());

        JsonNode m = llama.get("metrics");
        assertEquals(52.0, m.get("coll_call_num").asDouble(), 1e-9); // 208 comm kernels / 4 ranks
        assertEquals(40.0, m.get("straggler_lag").asDouble(), 1e-9); // mean_lag_us: rank 3 is 40 µs late
        assertEquals(14.7474, m.get("iter_time").asDouble(), 1e-4); // avg_ms of the 16 steps (Q6 of docs/SQL.md)
        // mfu (METRICS.md, training): the card's 4 × 128 tokens per step over avg_step_time 14.7372 ms = 34,742
        // tokens/s,
        // × 6 (8,030,261,248 − 525,336,576) + 12 · 32 · 32 · 128 · 128 = 45,230,874,624 flops per token,
        // ÷ (4 H100 × 989e12 FLOPS) = 39.72 % — a plausible figure, as the sample card is sized to be.
        assertEquals(39.7222, m.get("mfu").asDouble(), 1e-3);
        assertTrue(m.get("peak_allocated_bytes").isNull(), "no memory snapshot: null, never -1");
        JsonNode dlrm = rows.get(0).get("metrics");
        assertEquals(12.0, dlrm.get("coll_call_num").asDouble(), 1e-9);
        assertEquals(25.0, dlrm.get("straggler_lag").asDouble(), 1e-9);
        assertTrue(dlrm.get("busbw_gbps.all_gather").isNull(), "DDP has no all-gather");
    }

    @Test
    void valuesAreRoundedLikeCclBench() {
        assertEquals(0.000221814, LeaderboardExport.round6(0.00022181437), 0);
        assertEquals(4446980.0, LeaderboardExport.round6(4446976.5), 0);
        assertEquals(null, LeaderboardExport.round6(Double.NaN));
    }

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
