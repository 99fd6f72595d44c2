package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.sql.Row;

/** The workload card's numbers the metric formulas read (a row of {@code workloads}). */
public record Card(
        String phase,
        Long batchSize,
        Long seqLen,
        Long deviceCount,
        String xpuModel,
        Long numParams,
        Long numParamsActive,
        Long numParamsEmbedding,
        Long numLayers,
        Long numHeads,
        Long headDim,
        Long outputLen,
        Long tp,
        Long pp,
        Long countPerNode,
        String modelFamily)
        implements Serializable {

    /** A card without a model family (the tests' hand-built cards). */
    public Card(
            String phase,
            Long batchSize,
            Long seqLen,
            Long deviceCount,
            String xpuModel,
            Long numParams,
            Long numParamsActive,
            Long numParamsEmbedding,
            Long numLayers,
            Long numHeads,
            Long headDim,
            Long outputLen,
            Long tp,
            Long pp,
            Long countPerNode) {
        this(
                phase,
                batchSize,
                seqLen,
                deviceCount,
                xpuModel,
                numParams,
                numParamsActive,
                numParamsEmbedding,
                numLayers,
                numHeads,
                headDim,
                outputLen,
                tp,
                pp,
                countPerNode,
                null);
    }

    /** Model families that generate images or video by denoising, not tokens: no time to first token. */
    private static final java.util.regex.Pattern DIFFUSION = java.util.regex.Pattern.compile(
            "diffusion|\\bflux|sdxl|\\bsd3|\\bdit\\b|unet|hunyuan-?video|\\bwan[0-9. -]",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Whether the card's model family names a diffusion model (METRICS.md §4 ttft: not a token generator). */
    public boolean isDiffusion() {
        return modelFamily != null && DIFFUSION.matcher(modelFamily).find();
    }

    /** The card of a {@code workloads} row. */
    public static Card of(Row r) {
        return new Card(
                r.getAs("phase"),
                r.getAs("batch_size"),
                r.getAs("seq_len"),
                r.getAs("device_count"),
                r.getAs("xpu_model"),
                r.getAs("num_params"),
                r.getAs("num_params_active"),
                r.getAs("num_params_embedding"),
                r.getAs("num_layers"),
                r.getAs("num_heads"),
                r.getAs("head_dim"),
                r.getAs("output_len"),
                r.getAs("tp"),
                r.getAs("pp"),
                r.getAs("count_per_node"),
                hasField(r, "model_family") ? r.getAs("model_family") : null);
    }

    private static boolean hasField(Row r, String name) {
        return r.schema() != null
                && java.util.Arrays.asList(r.schema().fieldNames()).contains(name);
    }

    /** A workload with no card row (cannot happen after ingest; the formulas then say what the card lacks). */
    public static final Card NONE =
            new Card(null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

    /** The phase in lower case (null when the card gives none). */
    public String phaseLower() {
        return phase == null ? null : phase.toLowerCase(Locale.ROOT);
    }

    public boolean isTraining() {
        return "training".equals(phaseLower());
    }

    public boolean isInference() {
        return "inference".equals(phaseLower());
    }

    /** Active parameters when the card gives them, else all. */
    public Long params() {
        return numParamsActive != null ? numParamsActive : numParams;
    }
}
