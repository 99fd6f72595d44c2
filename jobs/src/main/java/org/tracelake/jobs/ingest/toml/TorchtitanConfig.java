package org.tracelake.jobs.ingest.toml;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The numbers a torchtitan train config (FORMATS.md §8) gives about a run, in every spelling torchtitan has used:
 * <ul>
 *   <li>batch: {@code [training] local_batch_size} (since 2025-06), {@code [training] batch_size} (before: also
 *       per data-parallel rank), {@code [training] global_batch_size} (−1 or absent: local × dp);</li>
 *   <li>{@code [training] seq_len};</li>
 *   <li>degrees: {@code [parallelism] data_parallel_replicate_degree, data_parallel_shard_degree,
 *       tensor_parallel_degree, pipeline_parallel_degree, context_parallel_degree, expert_parallel_degree} (since
 *       2025-03); before that the dp/tp degrees under {@code [training]} and pp/cp under {@code [experimental]}
 *       ({@code [training] data_parallel_degree} in 2024 builds is the FSDP degree, i.e. dp_shard).</li>
 * </ul>
 * TOML is parsed as plain data (Jackson's TOML module builds a JSON tree; nothing is instantiated from it). A value
 * of the wrong type is an error for the file, not a guess.
 */
public final class TorchtitanConfig {
    private static final TomlMapper TOML = new TomlMapper();

    /** What the file states; null where it says nothing. */
    public record Values(
            Long localBatchSize,
            Long globalBatchSize,
            Long seqLen,
            Long dpReplicate,
            Long dpShard,
            Long tp,
            Long pp,
            Long cp,
            Long ep) {}

    /** The file is not TOML, or not a torchtitan config, or holds a value of the wrong type. */
    public static final class BadConfig extends Exception {
        public final boolean notTorchtitan;

        BadConfig(String message, boolean notTorchtitan) {
            super(message);
            this.notTorchtitan = notTorchtitan;
        }
    }

    private TorchtitanConfig() {}

    public static Values parse(String text) throws BadConfig {
        JsonNode root;
        try {
            root = TOML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadConfig(
                    "malformed TOML: " + firstLine(e.getOriginalMessage())
                            + (e.getLocation() == null
                                    ? ""
                                    : " (line " + e.getLocation().getLineNr() + ")"),
                    false);
        }
        if (root == null || !root.isObject()) throw new BadConfig("malformed TOML: no table at the top", false);
        boolean torchtitan = false;
        for (String s : new String[] {"job", "training", "parallelism", "experimental"}) {
            if (root.path(s).isObject()) torchtitan = true;
        }
        if (!torchtitan) {
            throw new BadConfig(
                    "a TOML file without the sections of a torchtitan train config ([job], [training], "
                            + "[parallelism]): not read",
                    true);
        }
        JsonNode training = root.path("training");
        JsonNode parallelism = root.path("parallelism");
        JsonNode experimental = root.path("experimental");
        return new Values(
                first(training, "local_batch_size", training, "batch_size"),
                first(training, "global_batch_size", null, null),
                first(training, "seq_len", null, null),
                first(parallelism, "data_parallel_replicate_degree", training, "data_parallel_replicate_degree"),
                firstOf(
                        first(parallelism, "data_parallel_shard_degree", training, "data_parallel_shard_degree"),
                        training,
                        "data_parallel_degree"),
                first(parallelism, "tensor_parallel_degree", training, "tensor_parallel_degree"),
                first(parallelism, "pipeline_parallel_degree", experimental, "pipeline_parallel_degree"),
                first(parallelism, "context_parallel_degree", experimental, "context_parallel_degree"),
                first(parallelism, "expert_parallel_degree", null, null));
    }

    /**
     * What to fill on a card, in order: seq_len and the degrees as the file states them (dp_shard −1 resolved to
     * world ÷ the other degrees when {@code totalCount} is known, else not filled), and batch_size = the global batch:
     * global_batch_size when > 0, else local batch × dp_replicate × dp_shard. A degree the file leaves out is taken
     * from the card, else torchtitan's default (dp_replicate 1, dp_shard −1, tp/pp/cp 1). {@code notes} receives why a
     * value could not be derived.
     */
    public static Map<String, Object> fills(
            Values v,
            Long totalCount,
            Long cardDpReplicate,
            Long cardDpShard,
            Long cardTp,
            Long cardPp,
            Long cardCp,
            Map<String, String> notes) {
        long dpr = pick(v.dpReplicate(), cardDpReplicate, 1);
        long tp = pick(v.tp(), cardTp, 1);
        long pp = pick(v.pp(), cardPp, 1);
        long cp = pick(v.cp(), cardCp, 1);
        long shard = pick(v.dpShard(), cardDpShard, -1);
        Long dps = shard > 0 ? Long.valueOf(shard) : null;
        if (shard < 0) {
            long others = dpr * tp * pp * cp;
            if (totalCount == null) {
                notes.put(
                        "dp_shard",
                        "data_parallel_shard_degree = -1 (all remaining ranks) and the card has no "
                                + "hardware.xpu_spec.total_count to resolve it");
            } else if (others > 0 && totalCount % others == 0 && totalCount / others > 0) {
                dps = totalCount / others;
            } else {
                notes.put(
                        "dp_shard",
                        "data_parallel_shard_degree = -1 but total_count " + totalCount
                                + " is not a multiple of dp_replicate x tp x pp x cp = " + others);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq_len", v.seqLen());
        out.put("dp_replicate", v.dpReplicate());
        out.put("dp_shard", v.dpShard() == null ? null : dps);
        out.put("tp", v.tp());
        out.put("pp", v.pp());
        out.put("cp", v.cp());
        out.put("ep", v.ep());
        Long batch = null;
        if (v.globalBatchSize() != null && v.globalBatchSize() > 0) {
            batch = v.globalBatchSize();
        } else if (v.localBatchSize() != null && dps != null) {
            try {
                batch = Math.multiplyExact(Math.multiplyExact(v.localBatchSize(), dpr), dps);
            } catch (ArithmeticException overflow) {
                notes.put("batch_size", "local batch x dp overflows");
            }
        } else if (v.localBatchSize() == null) {
            notes.put("batch_size", "the config gives neither global_batch_size > 0 nor local_batch_size/batch_size");
        } else {
            notes.put("batch_size", "local batch known but the data-parallel degree is not (see dp_shard)");
        }
        out.put("batch_size", batch);
        return out;
    }

    private static long pick(Long fromFile, Long fromCard, long dflt) {
        return fromFile != null ? fromFile : fromCard != null ? fromCard : dflt;
    }

    private static Long firstOf(Long found, JsonNode table, String key) throws BadConfig {
        return found != null ? found : first(table, key, null, null);
    }

    private static Long first(JsonNode table, String key, JsonNode fallbackTable, String fallbackKey) throws BadConfig {
        Long v = whole(table, key);
        if (v == null && fallbackTable != null) v = whole(fallbackTable, fallbackKey);
        return v;
    }

    private static Long whole(JsonNode table, String key) throws BadConfig {
        if (table == null || !table.isObject()) return null;
        JsonNode v = table.get(key);
        if (v == null || v.isNull()) return null;
        if (v.isIntegralNumber() && v.canConvertToLong()) return v.longValue();
        if (v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue()) && Math.abs(v.doubleValue()) < 0x1p62) {
            return (long) v.doubleValue();
        }
        if (v.isTextual()) {
            try {
                return Long.parseLong(v.textValue().trim());
            } catch (NumberFormatException ignored) {
                // falls through to the error
            }
        }
        throw new BadConfig(
                key + " must be a whole number, found "
                        + (v.isTextual() ? "\"" + clip(v.textValue()) + "\"" : clip(v.toString())),
                false);
    }

    private static String clip(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
