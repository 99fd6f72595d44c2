package org.tracelake.jobs.ingest.toml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.schemas.card.WorkloadCard;
import org.tracelake.schemas.card.WorkloadCardLoader;

/** torchtitan TOML spellings (FORMATS.md §8) and what they fill on a card; expected values worked out by hand. */
class TorchtitanConfigTest {
    @TempDir
    Path tmp;

    /** torchtitan/models/llama3/train_configs/llama3_8b.toml at 238fa995, as FORMATS.md §8 quotes it. */
    static final String LLAMA3_8B = """
            # NOTE: this toml config is a preset for 64 A100 GPUs.
            [job]
            dump_folder = "./outputs"
            description = "Llama 3 8B training"
            [profiling]
            enable_profiling = true
            save_traces_folder = "profile_trace"
            profile_freq = 100
            [model]
            name = "llama3"
            flavor = "8B"
            hf_assets_path = "./assets/hf/Llama-3.1-8B"
            [optimizer]
            name = "AdamW"
            lr = 3e-4
            [training]
            local_batch_size = 1
            seq_len = 8192
            max_norm = 1.0  # grad norm clipping
            steps = 1000
            dataset = "c4"
            [parallelism]
            data_parallel_replicate_degree = 1
            data_parallel_shard_degree = -1
            tensor_parallel_degree = 1
            pipeline_parallel_degree = 1
            context_parallel_degree = 1
            """;

    /** The pre-2025-03 layout (e.g. 3f20451b): batch and dp/tp degrees under [training], pp/cp under [experimental]. */
    static final String OLD_SPELLING = """
            [job]
            description = "Llama 3 8B training"
            [training]
            batch_size = 8
            seq_len = 2048
            data_parallel_replicate_degree = 1
            data_parallel_shard_degree = -1
            tensor_parallel_degree = 2
            warmup_steps = 200
            compile = false
            [experimental]
            pipeline_parallel_degree = 2
            context_parallel_degree = 1
            """;

    private static Map<String, Object> fills(String toml, Long totalCount, Map<String, String> notes) throws Exception {
        return TorchtitanConfig.fills(TorchtitanConfig.parse(toml), totalCount, null, null, null, null, null, notes);
    }

    @Test
    void currentLayoutResolvesDpShardFromTheWorld() throws Exception {
        // 64 GPUs (the preset's own note), dp_shard -1 = 64 / (1·1·1·1) = 64; global batch = 1 × 1 × 64.
        Map<String, Object> f = fills(LLAMA3_8B, 64L, new LinkedHashMap<>());
        assertEquals(8192L, f.get("seq_len"));
        assertEquals(1L, f.get("dp_replicate"));
        assertEquals(64L, f.get("dp_shard"));
        assertEquals(1L, f.get("tp"));
        assertEquals(64L, f.get("batch_size"));
        assertNull(f.get("ep"));
    }

    @Test
    void oldSpelling() throws Exception {
        // 16 GPUs: dp_shard = 16 / (dp_replicate 1 · tp 2 · pp 2 · cp 1) = 4; batch = 8 (per rank) × 1 × 4 = 32.
        Map<String, Object> f = fills(OLD_SPELLING, 16L, new LinkedHashMap<>());
        assertEquals(2048L, f.get("seq_len"));
        assertEquals(2L, f.get("tp"));
        assertEquals(2L, f.get("pp"));
        assertEquals(1L, f.get("cp"));
        assertEquals(4L, f.get("dp_shard"));
        assertEquals(32L, f.get("batch_size"));
    }

    @Test
    void globalBatchWinsAndUnknownWorldIsANote() throws Exception {
        String toml = "[training]\nlocal_batch_size = 4\nglobal_batch_size = 512\nseq_len = 4096\n"
                + "[parallelism]\ndata_parallel_shard_degree = -1\nexpert_parallel_degree = 4\n";
        Map<String, String> notes = new LinkedHashMap<>();
        Map<String, Object> f = fills(toml, null, notes);
        assertEquals(512L, f.get("batch_size"));
        assertEquals(4L, f.get("ep"));
        assertNull(f.get("dp_shard")); // -1 cannot be resolved without the card's total_count
        assertTrue(notes.get("dp_shard").contains("total_count"));

        Map<String, String> notes2 = new LinkedHashMap<>();
        Map<String, Object> g = fills("[training]\nlocal_batch_size = 4\nseq_len = 128\n", null, notes2);
        assertNull(g.get("batch_size")); // torchtitan's default dp_shard is -1 too
        assertTrue(notes2.get("batch_size").contains("data-parallel degree"));
        // An explicit dp_shard needs no world size: 4 × 2 × 3.
        assertEquals(
                24L,
                fills(
                                "[training]\nlocal_batch_size = 4\n[parallelism]\ndata_parallel_replicate_degree = 2\n"
                                        + "data_parallel_shard_degree = 3\n",
                                null,
                                new LinkedHashMap<>())
                        .get("batch_size"));
    }

    @Test
    void badFiles() {
        TorchtitanConfig.BadConfig malformed = assertThrows(
                TorchtitanConfig.BadConfig.class, () -> TorchtitanConfig.parse("[training\nlocal_batch_size = 2\n"));
        assertTrue(malformed.getMessage().startsWith("malformed TOML"), malformed.getMessage());
        assertFalse(malformed.notTorchtitan);
        TorchtitanConfig.BadConfig wrongType = assertThrows(
                TorchtitanConfig.BadConfig.class, () -> TorchtitanConfig.parse("[training]\nseq_len = \"long\"\n"));
        assertEquals("seq_len must be a whole number, found \"long\"", wrongType.getMessage());
        TorchtitanConfig.BadConfig pyproject = assertThrows(
                TorchtitanConfig.BadConfig.class,
                () -> TorchtitanConfig.parse("[project]\nname = \"x\"\n[tool.black]\nline-length = 100\n"));
        assertTrue(pyproject.notTorchtitan);
    }

    private FileTask task(String name, String content) throws Exception {
        Path f = tmp.resolve(name);
        Files.createDirectories(f.getParent());
        Files.write(f, content.getBytes(StandardCharsets.UTF_8));
        return new FileTask(
                "w",
                f.toUri().toString(),
                Files.size(f),
                0,
                TraceFormat.TORCHTITAN_TOML,
                0,
                InputLimits.defaults(),
                "run");
    }

    @Test
    void fillsOnlyWhatTheCardLacksAndSaysWhere() throws Exception {
        WorkloadCard card = WorkloadCardLoader.parse(
                String.join(
                        "\n",
                        "workload:",
                        "  model:",
                        "    phase: training",
                        "  data:",
                        "    seq_len: 1024",
                        "  hardware:",
                        "    xpu_spec:",
                        "      total_count: 64",
                        ""),
                "w.yaml");
        TorchtitanConfigs.Result r = TorchtitanConfigs.fill(
                card,
                List.of(
                        task("train_configs/broken.toml", "[training\n"),
                        task("train_configs/llama3_8b.toml", LLAMA3_8B),
                        task("train_configs/llama3_old.toml", OLD_SPELLING)),
                new Configuration()); // path order: broken, llama3_8b, llama3_old
        assertEquals(64L, r.card().batchSize());
        assertEquals(1024L, r.card().seqLen()); // the card's own value wins
        assertEquals(64L, r.card().dpShard());
        assertEquals("toml:llama3_8b.toml", r.card().fieldSources().get("batch_size"));
        assertEquals("card", r.card().fieldSources().get("seq_len"));
        assertEquals("toml:llama3_8b.toml", r.card().fieldSources().get("dp_shard"));

        assertEquals(3, r.reports().size());
        assertEquals("error", r.reports().get(0).status);
        assertTrue(
                r.reports().get(0).error.startsWith("malformed TOML"),
                r.reports().get(0).error);
        assertFalse(r.reports().get(0).fatal, "a bad config never fails the workload");
        assertEquals("ok", r.reports().get(1).status);
        assertEquals(
                "dp_replicate=1, dp_shard=64, tp=1, pp=1, cp=1, batch_size=64",
                r.reports().get(1).metadata.get("filled"));
        assertEquals("seq_len", r.reports().get(1).metadata.get("card_kept"));
        assertTrue(r.reports().get(2).metadata.get("filled").contains("llama3_8b.toml filled the card"));
    }

    /**
     * A TOML over {@link TorchtitanConfigs#MAX_BYTES} is refused without being read into memory: by the size the
     * listing gave, and by the bytes read when the file grew after the listing (the task still says 30 bytes).
     */
    @Test
    void oversizedConfigIsRefusedNotRead() throws Exception {
        String huge = "[training]\nseq_len = 4096\n# " + "x".repeat(TorchtitanConfigs.MAX_BYTES) + "\n";
        FileTask listedHuge = task("big/train_config.toml", huge);
        FileTask grew = task("grew/train_config.toml", "[training]\nseq_len = 4096\n");
        Files.write(Path.of(java.net.URI.create(grew.path())), huge.getBytes(StandardCharsets.UTF_8));

        for (FileTask t : List.of(listedHuge, grew)) {
            TorchtitanConfigs.Result r = TorchtitanConfigs.fill(null, List.of(t), new Configuration());
            assertEquals("error", r.reports().get(0).status, t.path());
            assertTrue(
                    r.reports().get(0).error.contains(String.valueOf(TorchtitanConfigs.MAX_BYTES)),
                    r.reports().get(0).error);
            assertFalse(r.reports().get(0).fatal, "a bad config never fails the workload");
            assertNull(r.reports().get(0).contentHash, "refused before hashing: never read whole");
        }
        assertTrue(grew.sizeBytes() < 100);
    }
}
