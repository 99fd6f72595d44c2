package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The rank's FSDP::* annotations (METRICS.md §4 fsdp_*): whether any, and Σ dur per fsdp_* metric. */
public final class FsdpPart implements RankPart {
    private boolean any;
    private final Map<String, Long> ns = new HashMap<>();

    @Override
    public void accept(RankEvent e) {
        // Kineto's GPU-side copy of a CPU annotation is not counted again
        if (e.isGpu() || GPU_USER_ANNOTATION.equals(e.cat) || e.name == null || !e.name.startsWith("FSDP::")) return;
        any = true;
        String metric = fsdpMetric(e.name);
        if (metric != null) ns.merge(metric, e.dur, Long::sum);
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new Fsdp(any, ns);
    }

    /** Whether the rank has FSDP::* annotations, and Σ dur (ns) per fsdp_* metric. */
    public record Fsdp(boolean any, Map<String, Long> ns) implements Serializable {}

    private static final String GPU_USER_ANNOTATION = "gpu_user_annotation";
    private static final Pattern FSDP_SUFFIX = Pattern.compile("^FSDP::(\\w+)");

    /**
     * The fsdp_* metric of an FSDP::&lt;suffix&gt; annotation: all_gather, reduce_scatter (FSDP2 names it
     * post_backward_reduce), copy_in (all_gather_copy_in), copy_out (all_gather_copy_out), pre/post forward/backward;
     * null for other suffixes (post_backward's nested _reshard/_accumulate are not counted twice).
     */
    static String fsdpMetric(String name) {
        Matcher m = FSDP_SUFFIX.matcher(name);
        String suffix = m.find() ? m.group(1) : "";
        return switch (suffix) {
            case "all_gather" -> "fsdp_all_gather";
            case "reduce_scatter", "post_backward_reduce" -> "fsdp_reduce_scatter";
            case "all_gather_copy_in", "copy_in" -> "fsdp_copy_in";
            case "all_gather_copy_out", "copy_out" -> "fsdp_copy_out";
            case "pre_forward", "post_forward", "pre_backward", "post_backward" ->
                "fsdp_" + suffix.toLowerCase(Locale.ROOT);
            default -> null;
        };
    }
}
