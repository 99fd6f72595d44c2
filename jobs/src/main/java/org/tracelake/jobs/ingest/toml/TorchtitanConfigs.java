package org.tracelake.jobs.ingest.toml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.RegularFiles;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.schemas.card.CardException;
import org.tracelake.schemas.card.Hashes;
import org.tracelake.schemas.card.WorkloadCard;

/**
 * A workload's torchtitan TOML configs, read on the driver (a few KB each): the first usable one in path order — a
 * file named {@code train_config.toml} first — fills what the card lacks through {@link WorkloadCard#fillMissing}
 * with source {@code toml:<file name>} (so {@code workloads.field_sources} says where each value came from). A card
 * value always wins. A malformed config is an error row in {@code trace_files} for that file and nothing more: the
 * card alone still makes the workload.
 */
public final class TorchtitanConfigs {
    private TorchtitanConfigs() {}

    /** Larger than any train config. */
    public static final int MAX_BYTES = 1 << 20;

    /** The card after filling (null stays null) and one report per TOML file. */
    public record Result(WorkloadCard card, List<FileReport> reports) {}

    @SuppressWarnings("ReferenceEquality") // fillMissing returns the same card when it fills nothing
    public static Result fill(WorkloadCard card, List<FileTask> tomlTasks, Configuration conf) {
        List<FileTask> ordered = new ArrayList<>(tomlTasks);
        ordered.sort(Comparator.comparing((FileTask t) -> !t.fileName().equals("train_config.toml"))
                .thenComparing(FileTask::path));
        List<FileReport> reports = new ArrayList<>();
        WorkloadCard current = card;
        String used = null;
        for (FileTask t : ordered) {
            FileTask task = t.format() == TraceFormat.TORCHTITAN_TOML
                    ? t
                    : new FileTask(
                            t.workload(),
                            t.path(),
                            t.sizeBytes(),
                            t.modifiedAtMs(),
                            TraceFormat.TORCHTITAN_TOML,
                            t.fileOrderRank(),
                            t.limits(),
                            t.runId());
            FileReport r = new FileReport(task);
            reports.add(r);
            TorchtitanConfig.Values values;
            try {
                values = TorchtitanConfig.parse(read(task, conf, r));
            } catch (TorchtitanConfig.BadConfig e) {
                if (e.notTorchtitan) {
                    r.status = TraceFileSchema.STATUS_SKIPPED;
                    r.error = e.getMessage();
                } else {
                    error(r, e.getMessage() + " (the workload card alone is used)");
                }
                continue;
            } catch (IOException e) {
                error(r, "cannot read: " + e.getMessage() + " (the workload card alone is used)");
                continue;
            }
            describe(values, r);
            if (current == null) {
                r.metadata.put("filled", "nothing: the workload has no usable card");
                continue;
            }
            if (used != null) {
                r.metadata.put("filled", "nothing: " + used + " filled the card (one config per workload)");
                continue;
            }
            used = task.fileName();
            Map<String, String> notes = new LinkedHashMap<>();
            Map<String, Object> fills = TorchtitanConfig.fills(
                    values,
                    current.totalCount(),
                    current.dpReplicate(),
                    current.dpShard(),
                    current.tp(),
                    current.pp(),
                    current.cp(),
                    notes);
            String source = "toml:" + task.fileName();
            List<String> filled = new ArrayList<>();
            List<String> kept = new ArrayList<>();
            try {
                for (Map.Entry<String, Object> f : fills.entrySet()) {
                    if (f.getValue() == null) continue;
                    WorkloadCard next = current.fillMissing(f.getKey(), f.getValue(), source);
                    if (next != current) filled.add(f.getKey() + "=" + f.getValue());
                    else kept.add(f.getKey());
                    current = next;
                }
            } catch (CardException | IllegalArgumentException e) {
                error(r, "cannot fill the card: " + e.getMessage());
                continue;
            }
            r.metadata.put(
                    "filled",
                    filled.isEmpty()
                            ? "nothing (the card has every value this config gives)"
                            : String.join(", ", filled));
            if (!kept.isEmpty()) r.metadata.put("card_kept", String.join(", ", kept));
            notes.forEach((k, v) -> r.metadata.put("note." + k, v));
        }
        return new Result(current, reports);
    }

    private static String read(FileTask task, Configuration conf, FileReport r)
            throws IOException, TorchtitanConfig.BadConfig {
        if (task.sizeBytes() > MAX_BYTES) {
            throw new TorchtitanConfig.BadConfig(
                    "TOML of " + task.sizeBytes() + " bytes; a train config is a few KB (limit " + MAX_BYTES + ")",
                    false);
        }
        Path p = new Path(task.path());
        try (InputStream in = RegularFiles.open(p.getFileSystem(conf), p)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES)
                throw new TorchtitanConfig.BadConfig("TOML larger than " + MAX_BYTES + " bytes", false);
            r.contentHash = "sha256:" + Hashes.sha256Hex(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void describe(TorchtitanConfig.Values v, FileReport r) {
        Map<String, Long> said = new LinkedHashMap<>();
        said.put("local_batch_size", v.localBatchSize());
        said.put("global_batch_size", v.globalBatchSize());
        said.put("seq_len", v.seqLen());
        said.put("dp_replicate", v.dpReplicate());
        said.put("dp_shard", v.dpShard());
        said.put("tp", v.tp());
        said.put("pp", v.pp());
        said.put("cp", v.cp());
        said.put("ep", v.ep());
        StringBuilder sb = new StringBuilder();
        said.forEach((k, x) -> {
            if (x != null)
                sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(x);
        });
        r.metadata.put("config", sb.length() == 0 ? "none of the batch, sequence or parallelism keys" : sb.toString());
    }

    /** An error for this file only: not fatal, the workload is committed with its card as it is. */
    private static void error(FileReport r, String message) {
        r.status = TraceFileSchema.STATUS_ERROR;
        r.error = message;
    }
}
