package org.tracelake.schemas.card;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadCardTest {
    static final String FULL = "cards/llama-3.1-8b-torchtitan-16xh100.yaml";
    static final String FLAT = "cards/flat-model-arch.yaml";

    static byte[] resource(String name) throws IOException {
        try (InputStream in = WorkloadCardTest.class.getClassLoader().getResourceAsStream(name)) {
            assertNotNull(in, "missing test resource " + name);
            return in.readAllBytes();
        }
    }

    static WorkloadCard loadResource(String name) throws Exception {
        try (InputStream in = new ByteArrayInputStream(resource(name))) {
            return WorkloadCardLoader.load(in, name);
        }
    }

    @Test
    void fullCardAccessors() throws Exception {
        WorkloadCard c = loadResource(FULL);
        assertEquals(FULL, c.sourceName());
        assertEquals("training", c.phase());
        assertEquals("llama-3.1-8b", c.modelFamily());
        assertEquals("bf16", c.precision());
        assertEquals(20L, c.iteration());
        assertEquals(8_030_261_248L, c.numParams());
        assertEquals(525_336_576L, c.numParamsEmbedding());
        assertEquals(8_030_261_248L, c.numParamsActive());
        assertEquals(32L, c.numLayers());
        assertEquals(32L, c.numHeads());
        assertEquals(128L, c.headDim());
        assertEquals(32L, c.batchSize());
        assertEquals(8192L, c.seqLen());
        assertNull(c.inputLen());
        assertNull(c.outputLen());
        assertEquals("c4", c.dataset());
        assertEquals("infiniband_fat_tree", c.topology());
        assertEquals(List.of(400.0, 3600.0), c.bandwidthsGbps());
        assertEquals(400.0, c.bandwidthGbps());
        assertEquals("GPU", c.xpuType());
        assertEquals("nvidia_h100", c.xpuModel());
        assertEquals(16L, c.totalCount());
        assertEquals(8L, c.countPerNode());
        assertEquals("torchtitan", c.frameworkName());
        assertEquals("0.2.0", c.frameworkVersion());
        assertEquals(1L, c.dpReplicate());
        assertEquals(4L, c.dpShard());
        assertEquals(4L, c.tp());
        assertEquals(1L, c.pp());
        assertEquals(1L, c.cp());
        assertEquals(1L, c.ep());
        assertEquals(1L, c.ppMb());
        assertEquals("NCCL", c.commLibraryName());
        assertEquals("2.21.5", c.commLibraryVersion());
        Map<String, String> env = c.commLibraryEnv();
        assertEquals(
                List.of("NCCL_IB_QPS_PER_CONNECTION", "NCCL_DEBUG", "TORCH_NCCL_ASYNC_ERROR_HANDLING"),
                List.copyOf(env.keySet()));
        assertEquals("8", env.get("NCCL_IB_QPS_PER_CONNECTION"));
        assertEquals("INFO", env.get("NCCL_DEBUG"));
        assertEquals("1", env.get("TORCH_NCCL_ASYNC_ERROR_HANDLING"));
        assertEquals(List.of("json", "nsys"), c.traces());
        assertTrue(c.description().startsWith("Llama-3.1-8B pre-training with torchtitan on 16x H100"));
        assertEquals("https://huggingface.co/meta-llama/Llama-3.1-8B", c.hfUrl());
        assertEquals("s3://ccl-bench-traces/llama-3.1-8b-torchtitan-16xh100", c.traceUrl());
        assertEquals("Ada Lovelace", c.contributor());
        assertEquals("ada@example.org", c.contact());

        assertTrue(c.isTraining());
        assertFalse(c.isInference());
        assertEquals(16L, c.worldSizeFromParallelism());
        assertEquals(c.totalCount(), c.worldSizeFromParallelism());

        assertEquals(Hashes.sha256Hex(resource(FULL)), c.cardHash());
        assertEquals(4L, c.get(CardField.TP));
        assertEquals(CardField.values().length - 2, c.values().size(), "all but input_len/output_len");
        for (String source : c.fieldSources().values()) {
            assertEquals(WorkloadCard.SOURCE_CARD, source);
        }
        assertEquals(CardField.values().length - 2, c.fieldSources().size());
    }

    @Test
    void flatVariantReadsModelArchKeysDirectlyUnderModel() throws Exception {
        WorkloadCard c = loadResource(FLAT);
        assertEquals("inference", c.phase());
        assertTrue(c.isInference());
        assertFalse(c.isTraining());
        assertEquals(4_022_468_096L, c.numParams());
        assertEquals(36L, c.numLayers());
        assertEquals(32L, c.numHeads());
        assertEquals(128L, c.headDim());
        assertNull(c.numParamsActive());
        assertEquals(8L, c.batchSize());
        assertNull(c.seqLen());
        assertEquals(1024L, c.inputLen());
        assertEquals(128L, c.outputLen());
        assertEquals(List.of(800.0), c.bandwidthsGbps());
        assertEquals(800.0, c.bandwidthGbps());
        assertEquals("TPU", c.xpuType());
        assertEquals("0.9.2", c.frameworkVersion());
        assertEquals(List.of("xla"), c.traces(), "a single string is a one-item list");
        assertEquals(4L, c.tp());
        assertNull(c.dpShard());
        assertEquals(4L, c.worldSizeFromParallelism(), "absent degrees count as 1");
        assertNull(c.commLibraryEnv());
        assertNull(c.commLibraryVersion());
        assertFalse(c.fieldSources().containsKey("dp_shard"));
        assertEquals("card", c.fieldSources().get("num_layers"));
    }

    @Test
    void modelArchIsPreferredWhenBothPlacesAreWritten() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "workload:\n  model:\n    num_layers: 30\n" + "    model_arch:\n      num_layers: 32\n", "both.yaml");
        assertEquals(32L, c.numLayers());
    }

    @Test
    void unknownKeysAreKeptInRawJsonAndFlatten() throws Exception {
        WorkloadCard c = loadResource(FULL);
        Map<String, Object> raw = c.raw();
        assertEquals(1L, raw.get("version"));
        Map<?, ?> model = (Map<?, ?>) ((Map<?, ?>) raw.get("workload")).get("model");
        assertEquals(Boolean.FALSE, model.get("moe"));
        assertEquals("model_fwd_bwd_pass", model.get("granularity"));
        Map<?, ?> executor = (Map<?, ?>) raw.get("Model-executor");
        assertEquals(List.of("infiniband", "nvlink"), executor.get("protocol_selection"));
        assertEquals(8_030_261_248L, ((Map<?, ?>) model.get("model_arch")).get("num_params"));

        Map<String, String> flat = c.flatten();
        assertEquals("training", flat.get("workload.model.phase"));
        assertEquals("false", flat.get("workload.model.moe"));
        assertEquals("80", flat.get("workload.hardware.xpu_spec.memory_gb"));
        assertEquals("cuda_12.4", flat.get("workload.hardware.driver_version"));
        assertEquals("nvlink", flat.get("Model-executor.protocol_selection[1]"));
        assertEquals("json", flat.get("metric_source.metrics_specific_trace[0]"));
        assertEquals("3600", flat.get("workload.hardware.network_topo.bandwidth_gbps[1]"));
        assertEquals("8030261248", flat.get("workload.model.model_arch.num_params"));
        assertEquals("8", flat.get("Model-executor.communication_library.env.NCCL_IB_QPS_PER_CONNECTION"));
        assertEquals("1", flat.get("version"));
        assertFalse(flat.containsKey("workload"), "only scalars (and empty collections) are flattened");
        assertEquals(List.copyOf(new java.util.TreeMap<>(flat).keySet()), List.copyOf(flat.keySet()), "sorted");

        String json = c.toJson();
        assertTrue(json.contains("\"protocol_selection\":[\"infiniband\",\"nvlink\"]"), json);
        assertTrue(json.contains("\"moe\":false"), json);
        assertTrue(json.contains("\"num_params\":8030261248"), json);
        assertThrows(UnsupportedOperationException.class, () -> raw.put("x", 1));
        assertThrows(UnsupportedOperationException.class, () -> flat.put("x", "1"));
    }

    @Test
    void toJsonIsDeterministicWithSortedKeysAndEscapes() throws Exception {
        WorkloadCard a = WorkloadCardLoader.parse("b: 1\na: {y: [1, 2.5, true, ~], x: \"q\\\"<\\n\"}\n", "a.yaml");
        WorkloadCard b =
                WorkloadCardLoader.parse("a:\n  x: \"q\\\"<\\n\"\n  y: [1, 2.5, true, null]\nb: 1\n", "b.yaml");
        String expected = "{\"a\":{\"x\":\"q\\\"\\u003c\\n\",\"y\":[1,2.5,true,null]},\"b\":1}";
        assertEquals(expected, a.toJson());
        assertEquals(expected, b.toJson());
        assertEquals(List.of("b", "a"), List.copyOf(a.raw().keySet()), "raw keeps card order");
        WorkloadCard empties = WorkloadCardLoader.parse("x: {}\ny: []\nz:\n", "e.yaml");
        assertEquals("{\"x\":{},\"y\":[],\"z\":null}", empties.toJson());
        assertEquals("{}", empties.flatten().get("x"));
        assertEquals("[]", empties.flatten().get("y"));
        assertTrue(empties.flatten().containsKey("z"));
        assertNull(empties.flatten().get("z"));
    }

    @Test
    void numbersWrittenAsStringsOrFloatsAreReadAsWholeNumbers() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                String.join(
                        "\n",
                        "workload:",
                        "  model:",
                        "    model_arch:",
                        "      num_params: \"8030261248\"",
                        "      num_params_active: 8.03e9",
                        "      num_params_embedding: \"5.25e8\"",
                        "      num_layers: ' 32 '",
                        "      head_dim: 128.0",
                        "  data:",
                        "    batch_size: \"1_024\"",
                        "    seq_len: 0x2000",
                        "  hardware:",
                        "    network_topo:",
                        "      bandwidth_gbps: \"400.5\"",
                        "Model-executor:",
                        "  model_plan_parallelization:",
                        "    tp: \"4\"",
                        "    dp_shard: 4.0",
                        "    pp: ''",
                        ""),
                "strings.yaml");
        assertEquals(8_030_261_248L, c.numParams());
        assertEquals(8_030_000_000L, c.numParamsActive());
        assertEquals(525_000_000L, c.numParamsEmbedding());
        assertEquals(32L, c.numLayers());
        assertEquals(128L, c.headDim());
        assertEquals(1024L, c.batchSize());
        assertEquals(8192L, c.seqLen());
        assertEquals(400.5, c.bandwidthGbps());
        assertEquals(4L, c.tp());
        assertEquals(4L, c.dpShard());
        assertNull(c.pp(), "blank counts as absent");
        assertEquals(16L, c.worldSizeFromParallelism());
    }

    @Test
    void valueOfTheWrongTypeNamesKeyPathAndValue() {
        CardException e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse("workload:\n  data:\n    batch_size: 8B\n", "cards/w/w.yaml"));
        assertEquals("cards/w/w.yaml: workload.data.batch_size: expected a whole number, found \"8B\"", e.getMessage());
        assertEquals("cards/w/w.yaml", e.sourceName());

        e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse(
                        "Model-executor:\n  model_plan_parallelization:\n    tp: 1.5\n", "w.yaml"));
        assertTrue(e.getMessage().startsWith("w.yaml: Model-executor.model_plan_parallelization.tp:"), e.getMessage());
        assertTrue(e.getMessage().endsWith("found 1.5"), e.getMessage());

        e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse("workload:\n  model:\n    num_params: 1e30\n", "w.yaml"));
        assertTrue(
                e.getMessage().contains("workload.model.num_params: expected a whole number, found 1e30"),
                e.getMessage());

        e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse("workload:\n  model:\n    phase: [training]\n", "w.yaml"));
        assertEquals("w.yaml: workload.model.phase: expected a text value, found a list", e.getMessage());

        e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse(
                        "workload:\n  hardware:\n    network_topo:\n      bandwidth_gbps: [200, fast]\n", "w.yaml"));
        assertTrue(
                e.getMessage()
                        .contains("workload.hardware.network_topo.bandwidth_gbps[1]: expected a number,"
                                + " found \"fast\""),
                e.getMessage());

        e = assertThrows(CardException.class, () -> WorkloadCardLoader.parse("workload:\n  data: 32\n", "w.yaml"));
        assertTrue(e.getMessage().startsWith("w.yaml: workload.data must be a mapping"), e.getMessage());
    }

    @Test
    void textFieldsKeepNumbersAsWritten() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "Model-executor:\n  framework:\n    name: vllm\n"
                        + "    version: 2.10\n  communication_library:\n    name: NCCL\n    version: 2.21\n"
                        + "workload:\n  model:\n    precision: 16\n",
                "v.yaml");
        assertEquals("2.10", c.frameworkVersion());
        assertEquals("2.21", c.commLibraryVersion());
        assertEquals("16", c.precision());
        assertEquals("2.10", c.flatten().get("Model-executor.framework.version"));
        assertEquals(2.1, ((Map<?, ?>) ((Map<?, ?>) c.raw().get("Model-executor")).get("framework")).get("version"));
    }

    @Test
    void environmentMayBeAListOfAssignments() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "Model-executor:\n  communication_library:\n    env:\n"
                        + "      - NCCL_ALGO=Ring\n      - NCCL_PROTO=LL128=x\n",
                "env.yaml");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("NCCL_ALGO", "Ring");
        expected.put("NCCL_PROTO", "LL128=x");
        assertEquals(expected, c.commLibraryEnv());
        CardException e = assertThrows(
                CardException.class,
                () -> WorkloadCardLoader.parse(
                        "Model-executor:\n  communication_library:\n    env: [NCCL_ALGO]\n", "env.yaml"));
        assertTrue(e.getMessage().contains("env[0]: expected NAME=VALUE"), e.getMessage());
    }

    @Test
    void cardWithoutWorkloadStillLoads() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "description: a card someone forgot to fill in\n" + "contributor: someone\n", "bare.yaml");
        assertNull(c.phase());
        assertNull(c.batchSize());
        assertNull(c.totalCount());
        assertNull(c.traces());
        assertNull(c.bandwidthGbps());
        assertNull(c.worldSizeFromParallelism());
        assertFalse(c.isTraining());
        assertFalse(c.isInference());
        assertEquals("someone", c.contributor());
        assertEquals(Map.of("description", "card", "contributor", "card"), c.fieldSources());
        assertEquals("a card someone forgot to fill in", c.flatten().get("description"));
    }

    @Test
    void fillMissingRecordsWhereEachValueCameFrom() throws Exception {
        WorkloadCard card = WorkloadCardLoader.parse(
                String.join(
                        "\n",
                        "workload:",
                        "  model: {phase: training, model_family: llama-3.1-8b}",
                        "  hardware: {xpu_spec: {total_count: 8}}",
                        "Model-executor:",
                        "  model_plan_parallelization: {tp: 2}",
                        ""),
                "card.yaml");
        String toml = "toml:train_config.toml";
        WorkloadCard filled = card.fillMissing("batch_size", 16, toml)
                .fillMissing("seq_len", "8192", toml)
                .fillMissing("tp", 8L, toml) // the card's own value wins
                .fillMissing("dp_shard", 4.0, toml)
                .fillMissing("pp", null, toml) // nothing to fill
                .fillMissing("num_layers", 32, "hf:config.json");

        assertEquals(16L, filled.batchSize());
        assertEquals(8192L, filled.seqLen());
        assertEquals(2L, filled.tp());
        assertEquals(4L, filled.dpShard());
        assertNull(filled.pp());
        assertEquals(32L, filled.numLayers());
        assertEquals(8L, filled.worldSizeFromParallelism());

        Map<String, String> sources = filled.fieldSources();
        assertEquals("card", sources.get("phase"));
        assertEquals("card", sources.get("tp"));
        assertEquals("card", sources.get("total_count"));
        assertEquals(toml, sources.get("batch_size"));
        assertEquals(toml, sources.get("seq_len"));
        assertEquals(toml, sources.get("dp_shard"));
        assertEquals("hf:config.json", sources.get("num_layers"));
        assertFalse(sources.containsKey("pp"));

        // the original is untouched, and the as-written views do not change
        assertNull(card.batchSize());
        assertFalse(card.fieldSources().containsKey("batch_size"));
        assertEquals(card.toJson(), filled.toJson());
        assertEquals(card.flatten(), filled.flatten());
        assertEquals(card.cardHash(), filled.cardHash());
        assertSame(filled, filled.fillMissing("batch_size", 64, toml), "present value: same card back");

        WorkloadCard viaMap =
                card.withDefaults(Map.of("batch_size", 16, "seq_len", "8192", "dp_shard", 4.0, "tp", 8), toml);
        assertEquals(16L, viaMap.batchSize());
        assertEquals(2L, viaMap.tp());
        assertEquals(toml, viaMap.fieldSources().get("dp_shard"));

        CardException bad = assertThrows(CardException.class, () -> card.fillMissing("pp", "two", toml));
        assertEquals("toml:train_config.toml: value for pp: expected a whole number, found \"two\"", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> card.fillMissing("no_such_field", 1, toml));
        assertThrows(IllegalArgumentException.class, () -> card.fillMissing("description", "x", toml));
        assertThrows(IllegalArgumentException.class, () -> card.fillMissing("batch_size", 1, " "));
        assertThrows(IllegalArgumentException.class, () -> card.fillMissing("batch_size", 1, "card"));
        assertTrue(CardField.fillableKeys()
                .containsAll(List.of(
                        "batch_size",
                        "seq_len",
                        "dp_replicate",
                        "dp_shard",
                        "tp",
                        "pp",
                        "cp",
                        "ep",
                        "pp_mb",
                        "total_count",
                        "num_layers")));
    }

    @Test
    void worldSizeIsUnknownWhenADegreeIsInferred() throws Exception {
        WorkloadCard c = WorkloadCardLoader.parse(
                "Model-executor:\n  model_plan_parallelization:\n" + "    dp_shard: -1\n    tp: 8\n", "auto.yaml");
        assertEquals(-1L, c.dpShard());
        assertNull(c.worldSizeFromParallelism());
    }

    @Test
    void cardIsSerializableAndEqualAfterRoundTrip() throws Exception {
        WorkloadCard c = loadResource(FULL).fillMissing("input_len", 4096, "toml:x.toml");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c);
        }
        WorkloadCard back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (WorkloadCard) in.readObject();
        }
        assertEquals(c, back);
        assertEquals(c.hashCode(), back.hashCode());
        assertEquals(c.toJson(), back.toJson());
        assertEquals("toml:x.toml", back.fieldSources().get("input_len"));
    }

    @Test
    void sha256HexMatchesKnownVector() {
        assertEquals(
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                Hashes.sha256Hex("abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(Hashes.sha256Hex(new byte[0]), WorkloadCardLoader.sha256Hex(new byte[0]));
    }
}
