package org.tracelake.schemas.card;

import java.io.Serializable;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable CCL-Bench workload card: the whole card as plain data plus typed accessors for the fields the
 * pipeline uses (see {@link CardField} for where each one is read from).
 *
 * <p>Two views, on purpose kept apart:
 * <ul>
 *   <li>{@link #raw()}, {@link #toJson()}, {@link #flatten()} and {@link #cardHash()} are the card <em>as
 *       written</em>, unknown keys included, and never change;</li>
 *   <li>the typed accessors ({@link #batchSize()}, {@link #tp()}, {@link #get(CardField)} …) are the card's values
 *       plus any value filled in later by {@link #fillMissing(String, Object, String)} (e.g. from torchtitan's
 *       {@code train_config.toml}); {@link #fieldSources()} says where each present value came from.</li>
 * </ul>
 *
 * <p>Accessors return {@code null} when a value is absent; a card without {@code workload} is valid and simply has
 * every workload field null. Text values are returned as written (a number written where text is expected, like
 * {@code version: 2.10}, is returned as {@code "2.10"}); blank text counts as absent. Instances are created by
 * {@link WorkloadCardLoader}.
 */
public final class WorkloadCard implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The value of {@link #fieldSources()} for a value written in the card itself. */
    public static final String SOURCE_CARD = "card";

    private final String sourceName;
    private final String cardHash;
    private final Map<String, Object> raw;
    private final SortedMap<String, String> flat;
    private final EnumMap<CardField, Object> values;
    private final EnumMap<CardField, String> sources;

    /** Builds the typed view of a normalised card; throws if a known field holds a value of the wrong type. */
    WorkloadCard(String sourceName, String cardHash, Map<String, Object> raw, SortedMap<String, String> flat)
            throws CardException {
        this.sourceName = CardException.displayName(sourceName);
        this.cardHash = cardHash;
        this.raw = raw;
        this.flat = Collections.unmodifiableSortedMap(flat);
        this.values = new EnumMap<>(CardField.class);
        this.sources = new EnumMap<>(CardField.class);
        for (CardField f : CardField.values()) {
            for (List<String> path : f.paths()) {
                Object v = lookup(path);
                Object typed = PlainData.convert(f, v, flat, this.sourceName, String.join(".", path));
                if (typed != null) {
                    values.put(f, typed);
                    sources.put(f, SOURCE_CARD);
                    break;
                }
            }
        }
    }

    private WorkloadCard(WorkloadCard base, EnumMap<CardField, Object> values, EnumMap<CardField, String> sources) {
        this.sourceName = base.sourceName;
        this.cardHash = base.cardHash;
        this.raw = base.raw;
        this.flat = base.flat;
        this.values = values;
        this.sources = sources;
    }

    /** Follows {@code path} through nested mappings; null when a step is missing or null. */
    private Object lookup(List<String> path) throws CardException {
        Object node = raw;
        String at = "";
        for (String key : path) {
            if (node == null) {
                return null;
            }
            if (!(node instanceof Map)) {
                throw new CardException(
                        sourceName,
                        at + " must be a mapping (it holds the key \"" + key + "\"), found "
                                + PlainData.describe(node, flat.get(at)));
            }
            node = ((Map<?, ?>) node).get(key);
            at = PlainData.join(at, key);
        }
        return node;
    }

    // ------------------------------------------------------------------ identity and plain-data views

    /** Where the card was read from (its path), as given to the loader. */
    public String sourceName() {
        return sourceName;
    }

    /** Lower-case hex SHA-256 of the card's bytes as read (of its UTF-8 text when parsed from a string). */
    public String cardHash() {
        return cardHash;
    }

    /**
     * The whole card as written, unknown keys included: an unmodifiable tree of {@code Map<String,Object>} (card
     * order), {@code List<Object>}, {@code String}, {@code Long} (or {@code BigInteger} beyond long),
     * {@code Double}, {@code Boolean} and {@code null}.
     */
    public Map<String, Object> raw() {
        return raw;
    }

    /** {@link #raw()} as compact JSON with keys sorted: the same card always gives the same string. */
    public String toJson() {
        return PlainData.toJson(raw);
    }

    /**
     * Every scalar of the card as written, keyed by its dotted path, sorted by path: {@code workload.model.phase}
     * → {@code "training"}; list items as {@code metric_source.traces[0]}. Numbers keep their written text
     * ({@code "2.10"}), booleans are {@code "true"}/{@code "false"}, an empty value maps to {@code null}, an empty
     * mapping or list to {@code "{}"} or {@code "[]"}. Values filled in later are not included.
     */
    public Map<String, String> flatten() {
        return flat;
    }

    // ------------------------------------------------------------------ generic typed access

    /** The value of {@code field} (card or filled in), typed as {@link CardField.Kind#javaType()}, or null. */
    public Object get(CardField field) {
        return values.get(Objects.requireNonNull(field, "field"));
    }

    /** All present typed values, in {@link CardField} order. */
    public Map<CardField, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    /**
     * Where each present typed value came from, keyed by {@link CardField#key()} in {@link CardField} order:
     * {@link #SOURCE_CARD} or the source given to {@link #fillMissing}, e.g. {@code "toml:train_config.toml"}.
     * Absent fields are not listed.
     */
    public Map<String, String> fieldSources() {
        Map<String, String> out = new LinkedHashMap<>();
        sources.forEach((f, s) -> out.put(f.key(), s));
        return Collections.unmodifiableMap(out);
    }

    // ------------------------------------------------------------------ filling absent values

    /**
     * A card with {@code field} set to {@code value} if the card has no value for it; the card's own value always
     * wins (then this card is returned unchanged), as does a null {@code value}. The value is read like a card value
     * ({@code "8"}, {@code 8}, {@code 8.0} all give 8 for a count) and recorded in {@link #fieldSources()} under
     * {@code source}.
     *
     * @param field  a fillable {@link CardField#key()}: batch_size, seq_len, dp_replicate, dp_shard, tp, pp, cp,
     *               ep, pp_mb, total_count, num_layers, precision, … (see {@link CardField#fillableKeys()})
     * @param source where the value comes from, e.g. {@code "toml:train_config.toml"}
     * @throws IllegalArgumentException if {@code field} is not a fillable field or {@code source} is blank
     * @throws CardException            if {@code value} cannot be read as the field's type (message starts with
     *                                  {@code source})
     */
    public WorkloadCard fillMissing(String field, Object value, String source) throws CardException {
        CardField f = CardField.byKey(field);
        if (f == null) {
            throw new IllegalArgumentException(
                    "unknown card field \"" + field + "\"; fillable fields are " + CardField.fillableKeys());
        }
        return fillMissing(f, value, source);
    }

    /** {@link #fillMissing(String, Object, String)} by enum constant. */
    public WorkloadCard fillMissing(CardField field, Object value, String source) throws CardException {
        Objects.requireNonNull(field, "field");
        if (!field.isFillable()) {
            throw new IllegalArgumentException("card field \"" + field.key() + "\" cannot be filled from another"
                    + " source; fillable fields are " + CardField.fillableKeys());
        }
        if (source == null || source.isBlank() || SOURCE_CARD.equals(source)) {
            throw new IllegalArgumentException("fillMissing needs the name of the value's source (not blank, not \""
                    + SOURCE_CARD + "\"), e.g. \"toml:train_config.toml\"");
        }
        if (values.containsKey(field) || value == null) {
            return this;
        }
        Object typed = PlainData.convert(field, value, Map.of(), source, "value for " + field.key());
        if (typed == null) {
            return this;
        }
        EnumMap<CardField, Object> v = new EnumMap<>(values);
        EnumMap<CardField, String> s = new EnumMap<>(sources);
        v.put(field, typed);
        s.put(field, source);
        return new WorkloadCard(this, v, s);
    }

    /**
     * {@link #fillMissing(String, Object, String)} for each entry, in the map's order, all from one source.
     * Null values are skipped.
     */
    public WorkloadCard withDefaults(Map<String, ?> filled, String source) throws CardException {
        WorkloadCard card = this;
        for (Map.Entry<String, ?> e : filled.entrySet()) {
            card = card.fillMissing(e.getKey(), e.getValue(), source);
        }
        return card;
    }

    // ------------------------------------------------------------------ derived helpers

    /** Phase is "training" (case-insensitive). */
    public boolean isTraining() {
        return "training".equals(normalizedPhase());
    }

    /** Phase is "inference" (case-insensitive). */
    public boolean isInference() {
        return "inference".equals(normalizedPhase());
    }

    private String normalizedPhase() {
        String p = phase();
        return p == null ? null : p.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * dp_replicate × dp_shard × tp × pp × cp, an absent degree counting as 1 (ep and pp_mb do not add ranks);
     * null when none of the five is given, or when one is below 1 (torchtitan's {@code -1} means "the remaining
     * ranks", which the degrees alone cannot tell), or on overflow.
     */
    public Long worldSizeFromParallelism() {
        Long[] degrees = {dpReplicate(), dpShard(), tp(), pp(), cp()};
        long product = 1;
        boolean any = false;
        for (Long d : degrees) {
            if (d == null) {
                continue;
            }
            if (d < 1) {
                return null;
            }
            any = true;
            try {
                product = Math.multiplyExact(product, d);
            } catch (ArithmeticException e) {
                return null;
            }
        }
        return any ? product : null;
    }

    /**
     * The network bandwidth in Gbit/s: the only value given, or when the card lists several (e.g. inter-node and
     * NVLink, {@code [200, 2400]}) the smallest, i.e. the bottleneck link. {@link #bandwidthsGbps()} has them all.
     */
    public Double bandwidthGbps() {
        List<Double> all = bandwidthsGbps();
        if (all == null || all.isEmpty()) {
            return null;
        }
        return all.stream().min(Double::compare).orElse(null);
    }

    // ------------------------------------------------------------------ typed accessors

    public String phase() {
        return text(CardField.PHASE);
    }

    public String modelFamily() {
        return text(CardField.MODEL_FAMILY);
    }

    public String precision() {
        return text(CardField.PRECISION);
    }

    public Long iteration() {
        return count(CardField.ITERATION);
    }

    public Long numParams() {
        return count(CardField.NUM_PARAMS);
    }

    public Long numParamsEmbedding() {
        return count(CardField.NUM_PARAMS_EMBEDDING);
    }

    public Long numParamsActive() {
        return count(CardField.NUM_PARAMS_ACTIVE);
    }

    public Long numLayers() {
        return count(CardField.NUM_LAYERS);
    }

    public Long numHeads() {
        return count(CardField.NUM_HEADS);
    }

    public Long headDim() {
        return count(CardField.HEAD_DIM);
    }

    public Long batchSize() {
        return count(CardField.BATCH_SIZE);
    }

    public Long seqLen() {
        return count(CardField.SEQ_LEN);
    }

    public Long inputLen() {
        return count(CardField.INPUT_LEN);
    }

    public Long outputLen() {
        return count(CardField.OUTPUT_LEN);
    }

    public String dataset() {
        return text(CardField.DATASET);
    }

    /** {@code workload.hardware.network_topo.topology}. */
    public String topology() {
        return text(CardField.TOPOLOGY);
    }

    /** Every value of {@code workload.hardware.network_topo.bandwidth_gbps} in card order (one number → one item). */
    @SuppressWarnings("unchecked")
    public List<Double> bandwidthsGbps() {
        return (List<Double>) values.get(CardField.BANDWIDTH_GBPS);
    }

    /** {@code workload.hardware.xpu_spec.type}, e.g. GPU, TPU. */
    public String xpuType() {
        return text(CardField.XPU_TYPE);
    }

    /** {@code workload.hardware.xpu_spec.model}, e.g. nvidia_h100. */
    public String xpuModel() {
        return text(CardField.XPU_MODEL);
    }

    /** {@code workload.hardware.xpu_spec.total_count}: devices in the run. */
    public Long totalCount() {
        return count(CardField.TOTAL_COUNT);
    }

    public Long countPerNode() {
        return count(CardField.COUNT_PER_NODE);
    }

    public String frameworkName() {
        return text(CardField.FRAMEWORK_NAME);
    }

    public String frameworkVersion() {
        return text(CardField.FRAMEWORK_VERSION);
    }

    public Long dpReplicate() {
        return count(CardField.DP_REPLICATE);
    }

    public Long dpShard() {
        return count(CardField.DP_SHARD);
    }

    public Long tp() {
        return count(CardField.TP);
    }

    public Long pp() {
        return count(CardField.PP);
    }

    public Long cp() {
        return count(CardField.CP);
    }

    public Long ep() {
        return count(CardField.EP);
    }

    public Long ppMb() {
        return count(CardField.PP_MB);
    }

    public String commLibraryName() {
        return text(CardField.COMM_LIBRARY_NAME);
    }

    public String commLibraryVersion() {
        return text(CardField.COMM_LIBRARY_VERSION);
    }

    /** {@code Model-executor.communication_library.env}, card order; an empty value is "". */
    @SuppressWarnings("unchecked")
    public Map<String, String> commLibraryEnv() {
        return (Map<String, String>) values.get(CardField.COMM_LIBRARY_ENV);
    }

    /** {@code metric_source.traces}: the trace kinds the card declares (a single string gives one item). */
    @SuppressWarnings("unchecked")
    public List<String> traces() {
        return (List<String>) values.get(CardField.TRACES);
    }

    public String description() {
        return text(CardField.DESCRIPTION);
    }

    public String hfUrl() {
        return text(CardField.HF_URL);
    }

    public String traceUrl() {
        return text(CardField.TRACE_URL);
    }

    public String contributor() {
        return text(CardField.CONTRIBUTOR);
    }

    public String contact() {
        return text(CardField.CONTACT);
    }

    private String text(CardField f) {
        return (String) values.get(f);
    }

    private Long count(CardField f) {
        return (Long) values.get(f);
    }

    // ------------------------------------------------------------------ Object

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof WorkloadCard)) {
            return false;
        }
        WorkloadCard c = (WorkloadCard) o;
        return sourceName.equals(c.sourceName)
                && Objects.equals(cardHash, c.cardHash)
                && raw.equals(c.raw)
                && flat.equals(c.flat)
                && values.equals(c.values)
                && sources.equals(c.sources);
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceName, cardHash, values, sources);
    }

    @Override
    public String toString() {
        return "WorkloadCard[" + sourceName + ": phase=" + phase() + ", model_family=" + modelFamily()
                + ", devices=" + totalCount() + ", framework=" + frameworkName() + ", filled="
                + new TreeMap<>(fieldSources())
                        .entrySet().stream()
                                .filter(e -> !SOURCE_CARD.equals(e.getValue()))
                                .map(Map.Entry::getKey)
                                .collect(java.util.stream.Collectors.toList())
                + "]";
    }
}
