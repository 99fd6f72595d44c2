package org.tracelake.jobs.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.ingest.toml.TorchtitanConfigs;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.RegularFiles;
import org.tracelake.jobs.readers.ScalaMaps;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.schemas.WorkloadSchema;
import org.tracelake.schemas.card.CardException;
import org.tracelake.schemas.card.Hashes;
import org.tracelake.schemas.card.WorkloadCard;
import org.tracelake.schemas.card.WorkloadCardLoader;

/** Reads a workload's card on the driver (a few KB of YAML) and turns it into its {@code workloads} row. */
public final class WorkloadCards {
    private WorkloadCards() {}

    /** Cards larger than this are not cards. */
    static final int MAX_CARD_BYTES = 4 << 20;

    /** The card, or the reason the workload has no usable one. */
    public record Outcome(WorkloadCard card, String cardPath, String cardHash, String error) {
        public boolean ok() {
            return error == null;
        }
    }

    public static Outcome read(WorkloadFolder w, Configuration conf) {
        List<WorkloadFolder.InputFile> cards = w.cards();
        if (cards.isEmpty()) {
            return new Outcome(
                    null, null, null, "no workload card: put exactly one <name>.yaml at the top of " + w.path());
        }
        if (cards.size() > 1) {
            StringBuilder names = new StringBuilder();
            for (WorkloadFolder.InputFile c : cards)
                names.append(names.length() == 0 ? "" : ", ").append(c.fileName());
            return new Outcome(
                    null,
                    cards.get(0).path(),
                    null,
                    "two or more workload cards (" + names + "): keep exactly one *.yaml at the top of " + w.path());
        }
        WorkloadFolder.InputFile file = cards.get(0);
        if (file.sizeBytes() > MAX_CARD_BYTES) {
            return new Outcome(
                    null,
                    file.path(),
                    null,
                    "card is " + file.sizeBytes() + " bytes; a card is plain YAML of a few KB");
        }
        try (InputStream in = RegularFiles.open(new Path(file.path()).getFileSystem(conf), new Path(file.path()))) {
            // bounded: a card that grew after it was listed is still read no further than a card can be
            byte[] bytes = in.readNBytes(MAX_CARD_BYTES + 1);
            if (bytes.length > MAX_CARD_BYTES) {
                return new Outcome(
                        null,
                        file.path(),
                        null,
                        "card is over " + MAX_CARD_BYTES + " bytes; a card is plain YAML of a few KB");
            }
            String hash = "sha256:" + Hashes.sha256Hex(bytes);
            WorkloadCard card = WorkloadCardLoader.parse(new String(bytes, StandardCharsets.UTF_8), file.fileName());
            return new Outcome(card, file.path(), hash, null);
        } catch (CardException e) {
            return new Outcome(null, file.path(), null, e.getMessage());
        } catch (IOException e) {
            return new Outcome(null, file.path(), null, "cannot read card: " + e.getMessage());
        }
    }

    /** The card after torchtitan configs filled what it lacked, and the configs' trace_files reports. */
    public record Filled(Outcome card, List<FileReport> reports) {}

    /**
     * Fills what the card lacks (batch_size, seq_len, parallelism degrees) from the workload's torchtitan TOML
     * configs, read here on the driver as plain data ({@link TorchtitanConfigs}); each filled value is recorded in
     * {@code workloads.field_sources} as {@code toml:<file name>}. A bad config is an error row for that file only.
     */
    @SuppressWarnings("ReferenceEquality") // TorchtitanConfigs.fill returns the same card when it fills nothing
    public static Filled fillFromTorchtitanConfigs(Outcome o, List<FileTask> configs, Configuration conf) {
        if (configs.isEmpty()) return new Filled(o, List.of());
        TorchtitanConfigs.Result r = TorchtitanConfigs.fill(o.card(), configs, conf);
        Outcome filled = r.card() == o.card() ? o : new Outcome(r.card(), o.cardPath(), o.cardHash(), o.error());
        return new Filled(filled, r.reports());
    }

    /** This workload's row of the workloads table, in WorkloadSchema order. */
    public static Row toRow(String workload, Outcome o, String runId) {
        WorkloadCard c = o.card();
        String status = o.ok() ? TraceFileSchema.STATUS_OK : TraceFileSchema.STATUS_ERROR;
        if (c == null) {
            Object[] values = new Object[WorkloadSchema.SCHEMA.size()];
            values[0] = workload;
            values[1] = o.cardPath();
            values[values.length - 3] = status;
            values[values.length - 2] = o.error();
            values[values.length - 1] = runId;
            return RowFactory.create(values);
        }
        return RowFactory.create(
                workload,
                o.cardPath(),
                o.cardHash(),
                c.phase(),
                c.modelFamily(),
                c.precision(),
                c.iteration(),
                c.numParams(),
                c.numParamsEmbedding(),
                c.numParamsActive(),
                c.numLayers(),
                c.numHeads(),
                c.headDim(),
                c.batchSize(),
                c.seqLen(),
                c.inputLen(),
                c.outputLen(),
                c.dataset(),
                c.topology(),
                c.bandwidthGbps(),
                c.xpuType(),
                c.xpuModel(),
                c.totalCount(),
                c.countPerNode(),
                c.frameworkName(),
                c.frameworkVersion(),
                c.dpReplicate(),
                c.dpShard(),
                c.tp(),
                c.pp(),
                c.cp(),
                c.ep(),
                c.ppMb(),
                c.commLibraryName(),
                c.commLibraryVersion(),
                ScalaMaps.of(c.flatten()),
                ScalaMaps.of(c.fieldSources()),
                status,
                o.error(),
                runId);
    }
}
