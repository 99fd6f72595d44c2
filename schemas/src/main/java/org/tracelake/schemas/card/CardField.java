package org.tracelake.schemas.card;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The typed fields of a CCL-Bench workload card: where each one lives in the YAML and what type it is read as.
 *
 * <p>{@link #key()} is the short name used by {@link WorkloadCard#fillMissing(String, Object, String)} and
 * {@link WorkloadCard#fieldSources()}. {@link #paths()} lists the places the value may be written, most preferred
 * first: the {@code model_arch} numbers may sit either under {@code workload.model.model_arch} or directly under
 * {@code workload.model}.
 */
public enum CardField {
    PHASE("phase", Kind.TEXT, true, "workload.model.phase"),
    MODEL_FAMILY("model_family", Kind.TEXT, true, "workload.model.model_family"),
    PRECISION("precision", Kind.TEXT, true, "workload.model.precision"),
    ITERATION("iteration", Kind.COUNT, true, "workload.model.iteration"),
    NUM_PARAMS("num_params", Kind.COUNT, true, arch("num_params")),
    NUM_PARAMS_EMBEDDING("num_params_embedding", Kind.COUNT, true, arch("num_params_embedding")),
    NUM_PARAMS_ACTIVE("num_params_active", Kind.COUNT, true, arch("num_params_active")),
    NUM_LAYERS("num_layers", Kind.COUNT, true, arch("num_layers")),
    NUM_HEADS("num_heads", Kind.COUNT, true, arch("num_heads")),
    HEAD_DIM("head_dim", Kind.COUNT, true, arch("head_dim")),

    BATCH_SIZE("batch_size", Kind.COUNT, true, "workload.data.batch_size"),
    SEQ_LEN("seq_len", Kind.COUNT, true, "workload.data.seq_len"),
    INPUT_LEN("input_len", Kind.COUNT, true, "workload.data.input_len"),
    OUTPUT_LEN("output_len", Kind.COUNT, true, "workload.data.output_len"),
    DATASET("dataset", Kind.TEXT, true, "workload.data.dataset"),

    TOPOLOGY("topology", Kind.TEXT, true, "workload.hardware.network_topo.topology"),
    BANDWIDTH_GBPS("bandwidth_gbps", Kind.NUMBER_LIST, true, "workload.hardware.network_topo.bandwidth_gbps"),
    XPU_TYPE("xpu_type", Kind.TEXT, true, "workload.hardware.xpu_spec.type"),
    XPU_MODEL("xpu_model", Kind.TEXT, true, "workload.hardware.xpu_spec.model"),
    TOTAL_COUNT("total_count", Kind.COUNT, true, "workload.hardware.xpu_spec.total_count"),
    COUNT_PER_NODE("count_per_node", Kind.COUNT, true, "workload.hardware.xpu_spec.count_per_node"),

    FRAMEWORK_NAME("framework_name", Kind.TEXT, true, "Model-executor.framework.name"),
    FRAMEWORK_VERSION("framework_version", Kind.TEXT, true, "Model-executor.framework.version"),
    DP_REPLICATE("dp_replicate", Kind.COUNT, true, plan("dp_replicate")),
    DP_SHARD("dp_shard", Kind.COUNT, true, plan("dp_shard")),
    TP("tp", Kind.COUNT, true, plan("tp")),
    PP("pp", Kind.COUNT, true, plan("pp")),
    CP("cp", Kind.COUNT, true, plan("cp")),
    EP("ep", Kind.COUNT, true, plan("ep")),
    PP_MB("pp_mb", Kind.COUNT, true, plan("pp_mb")),
    COMM_LIBRARY_NAME("comm_library_name", Kind.TEXT, true, "Model-executor.communication_library.name"),
    COMM_LIBRARY_VERSION("comm_library_version", Kind.TEXT, true, "Model-executor.communication_library.version"),
    COMM_LIBRARY_ENV("comm_library_env", Kind.TEXT_MAP, false, "Model-executor.communication_library.env"),

    TRACES("traces", Kind.TEXT_LIST, false, "metric_source.traces"),

    DESCRIPTION("description", Kind.TEXT, false, "description"),
    HF_URL("hf_url", Kind.TEXT, false, "hf_url"),
    TRACE_URL("trace_url", Kind.TEXT, false, "trace_url"),
    CONTRIBUTOR("contributor", Kind.TEXT, false, "contributor"),
    CONTACT("contact", Kind.TEXT, false, "contact");

    /** How a field's value is read, and the Java type {@link WorkloadCard#get(CardField)} returns for it. */
    public enum Kind {
        /** {@code String}; a number or boolean in the card is returned as written. */
        TEXT(String.class),
        /** {@code Long}; from an integer, an integral float ({@code 8.03e9}) or a numeric string. */
        COUNT(Long.class),
        /** {@code List<Double>}; a single number becomes a one-element list. */
        NUMBER_LIST(List.class),
        /** {@code Map<String,String>}; a mapping of scalars, or a list of {@code KEY=VALUE} strings. */
        TEXT_MAP(java.util.Map.class),
        /** {@code List<String>}; a list of scalars, or one string. */
        TEXT_LIST(List.class);

        private final Class<?> javaType;

        Kind(Class<?> javaType) {
            this.javaType = javaType;
        }

        public Class<?> javaType() {
            return javaType;
        }
    }

    private final String key;
    private final Kind kind;
    private final boolean fillable;
    private final List<List<String>> paths;

    CardField(String key, Kind kind, boolean fillable, String... dottedPaths) {
        this.key = key;
        this.kind = kind;
        this.fillable = fillable;
        this.paths =
                Arrays.stream(dottedPaths).map(p -> List.of(p.split("\\."))).collect(Collectors.toUnmodifiableList());
    }

    private static String[] arch(String name) {
        return new String[] {"workload.model.model_arch." + name, "workload.model." + name};
    }

    private static String plan(String name) {
        return "Model-executor.model_plan_parallelization." + name;
    }

    /** Short name, e.g. {@code batch_size}, {@code tp}, {@code framework_version}. */
    public String key() {
        return key;
    }

    public Kind kind() {
        return kind;
    }

    /**
     * Whether {@link WorkloadCard#fillMissing} may fill this field from another source: every workload, hardware
     * and executor scalar may be; the provenance fields (description, URLs, contributor), the trace list and the
     * communication-library environment may not.
     */
    public boolean isFillable() {
        return fillable;
    }

    /** Key paths where the value may be written, most preferred first; each is a list of mapping keys. */
    public List<List<String>> paths() {
        return paths;
    }

    /** The preferred key path, dotted: {@code workload.data.batch_size}. */
    public String path() {
        return String.join(".", paths.get(0));
    }

    /** The field with this {@link #key()} (case-insensitive), or {@code null}. */
    public static CardField byKey(String key) {
        if (key == null) {
            return null;
        }
        String k = key.trim().toLowerCase(Locale.ROOT);
        for (CardField f : values()) {
            if (f.key.equals(k)) {
                return f;
            }
        }
        return null;
    }

    /** Keys of the fillable fields, in declaration order. */
    public static List<String> fillableKeys() {
        return Arrays.stream(values())
                .filter(CardField::isFillable)
                .map(CardField::key)
                .collect(Collectors.toUnmodifiableList());
    }
}
