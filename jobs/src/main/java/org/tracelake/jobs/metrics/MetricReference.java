package org.tracelake.jobs.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's metric reference (docs/METRICS-REFERENCE.md), made from the metric catalog so that a clone can answer
 * "what does this number mean": every metric and figure, its unit, what it needs from the traces or the card, and
 * what it says; docs/METRICS.md beside it says how each is computed. {@code MetricReferenceTest} keeps the committed file equal to this.
 */
public final class MetricReference {
    private MetricReference() {}

    /** What each requirement of the catalog asks of a workload, in words. */
    public static final Map<String, String> NEEDS = needs();

    private static Map<String, String> needs() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernels", "GPU activity (kernels, copies) in the traces");
        m.put("comm", "communication kernels (NCCL/RCCL, XLA collectives, DeepEP)");
        m.put("comm_sized", "communication with a known message size, group size >= 2 and duration > 0");
        m.put("allreduce_fit", ">= 5 all_reduce instances with known size and >= 2 distinct sizes");
        m.put("rank0", "a trace of rank 0");
        m.put("steps", "step annotations: ProfilerStep#N, vLLM/SGLang/TPU-vLLM steps, or an XLA device Steps line");
        m.put("multi_rank", "traces of two or more ranks");
        m.put("matched", "collectives matched across two or more ranks (the straggler_lag join)");
        m.put(
                "matched_sized",
                "collectives matched across two or more ranks with a known message size and group size" + " >= 2");
        m.put("training", "a training workload (card workload.model.phase)");
        m.put("inference", "an inference workload (card workload.model.phase) with step annotations");
        m.put(
                "card_mfu",
                "the card's model_arch (num_params, num_layers, num_heads, head_dim), batch and sequence"
                        + " length, total_count, and the device's peak FLOPS (conf/device_peak_flops.csv)");
        m.put("phases", "forward/backward/optimizer annotations inside steps");
        m.put("gpu_activity", "GPU activity of any kind (kernels, copies, XLA ops) in the traces");
        m.put("launch_links", "GPU activity linked to the runtime calls that launched it (correlation ids)");
        m.put("fsdp", "FSDP::* annotations");
        m.put("sm_args", "kernels with the \"blocks per SM\" arg");
        m.put("copies", "GPU-side copies with a byte count");
        m.put("xla", "XLA/TPU device ops (XLA trace JSON or XSpace)");
        m.put("memory", "a CUDA memory snapshot");
        m.put("telemetry", "AORTA iteration telemetry (rank_NN_metrics.jsonl)");
        m.put("flight_recorder", "NCCL Flight Recorder dumps");
        m.put("a2a_splits", "all_to_all with split sizes (Kineto In split size, or an execution trace)");
        m.put("node_layout", "the card's hardware.xpu_spec.count_per_node, and communication");
        m.put("simulator", "a network simulator (not computed from traces)");
        return m;
    }

    /** The reference as Markdown. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Metric reference\n\n");
        sb.append("Generated from `jobs/src/main/resources/metrics/catalog.csv` (the metrics) and `figures.csv` beside"
                + " it (what each figure means and which way is better: `higher`, `lower`, or `none` for identifiers,"
                + " counts of things and mixes) by `MetricReference` (a test keeps it in step). How each metric is"
                + " computed, rule by rule, is [METRICS.md](METRICS.md); this lists what each row of the `metrics`"
                + " table is. Every metric has a workload-scope row for every workload: a value, or a null with a"
                + " `status` and a `reason` saying which input was missing. The first figure of a metric is its"
                + " headline (the leaderboard number). `bin/tracelake sql` answers the same from the `metric_reference`"
                + " view where the server offers it.\n\n");
        for (String category : MetricCatalog.CATEGORIES) {
            sb.append("## ").append(category.replace('_', ' ')).append("\n\n");
            sb.append("| metric | figure | unit | better | needs | meaning |\n|---|---|---|---|---|---|\n");
            List<MetricCatalog.Entry> entries = MetricCatalog.entries().stream()
                    .filter(e -> e.category().equals(category))
                    .toList();
            for (MetricCatalog.Entry e : entries) {
                sb.append("| `")
                        .append(e.metric())
                        .append("` | ")
                        .append(e.figure() == null ? "" : "`" + e.figure() + "`")
                        .append(" | ")
                        .append(e.unit())
                        .append(" | ")
                        .append(figure(e).direction().word())
                        .append(" | ")
                        .append(NEEDS.getOrDefault(e.requires(), e.requires()))
                        .append(" | ")
                        .append(figure(e).meaning().replace("|", "\\|"))
                        .append(" |\n");
            }
            sb.append('\n');
        }
        // one line break at the end, as the build's formatter keeps Markdown files
        return sb.toString().stripTrailing() + "\n";
    }

    /** The figure-level entry of a catalog entry (FigureReferenceTest: every catalog entry has one). */
    static FigureReference.Figure figure(MetricCatalog.Entry e) {
        FigureReference.Figure f = FigureReference.of(e.metric(), e.figure());
        if (f == null)
            throw new IllegalStateException(
                    "metrics/figures.csv has no row for " + e.metric() + " " + e.figure() + " of catalog.csv");
        return f;
    }
}
