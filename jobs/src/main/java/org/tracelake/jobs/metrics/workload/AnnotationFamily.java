package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.jobs.metrics.workload.AnnotationFamily.FsdpPart.Fsdp;
import org.tracelake.jobs.rank.PhasePart;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Metrics of annotations (METRICS.md §4): phase_time_ms (forward / backward / optimizer GPU time per step), fsdp_*
 * (time in FSDP::* annotations by suffix) and fsdp_prefetch_overlap.
 */
final class AnnotationFamily {
    private AnnotationFamily() {}

    static final Metric PHASE_TIME_MS = Metric.of("phase_time_ms");
    static final Metric FSDP_ALL_GATHER = Metric.of("fsdp_all_gather");
    static final Metric FSDP_REDUCE_SCATTER = Metric.of("fsdp_reduce_scatter");
    static final Metric FSDP_COPY_IN = Metric.of("fsdp_copy_in");
    static final Metric FSDP_COPY_OUT = Metric.of("fsdp_copy_out");
    static final Metric FSDP_PRE_FORWARD = Metric.of("fsdp_pre_forward");
    static final Metric FSDP_POST_FORWARD = Metric.of("fsdp_post_forward");
    static final Metric FSDP_PRE_BACKWARD = Metric.of("fsdp_pre_backward");
    static final Metric FSDP_POST_BACKWARD = Metric.of("fsdp_post_backward");
    static final Metric FSDP_PREFETCH_OVERLAP = Metric.of("fsdp_prefetch_overlap");

    static final List<Metric> FSDP_METRICS = List.of(
            FSDP_ALL_GATHER,
            FSDP_REDUCE_SCATTER,
            FSDP_COPY_IN,
            FSDP_COPY_OUT,
            FSDP_PRE_FORWARD,
            FSDP_POST_FORWARD,
            FSDP_PRE_BACKWARD,
            FSDP_POST_BACKWARD);

    static void compute(Workload w) {
        phases(w);
        fsdp(w);
    }

    /**
     * phase_time_ms (METRICS.md §4): per rank per step and phase, the phase's GPU time ({@link PhasePart}: its GPU-side
     * annotation copy, else the span of the GPU activities launched inside its CPU annotations) as the value, and the
     * CPU annotations' |union| as the figure dispatch_ms; rank and workload = the mean over the steps that have one.
     * Where a rank links no GPU activity to its launch and has no GPU-side copy, the GPU time is unknown: a null row
     * that says so, beside the dispatch time.
     */
    private static void phases(Workload w) {
        Map<String, List<Double>> workloadGpu = new TreeMap<>();
        Map<String, List<Double>> workloadDispatch = new TreeMap<>();
        for (RankSummary r : w.ranks) {
            PhasePart.Phases phases = r.part(PhasePart.Phases.class);
            if (phases == null) continue;
            Map<String, List<Double>> rankGpu = new TreeMap<>();
            Map<String, List<Double>> rankDispatch = new TreeMap<>();
            phases.byStep()
                    .forEach((step, byPhase) -> byPhase.forEach((phase, t) -> {
                        double dispatchMs = t.dispatchNs() / 1e6;
                        w.add(DISPATCH_MS.step(r.rank, step).keyed(phase).value(dispatchMs));
                        rankDispatch
                                .computeIfAbsent(phase, k -> new ArrayList<>())
                                .add(dispatchMs);
                        workloadDispatch
                                .computeIfAbsent(phase, k -> new ArrayList<>())
                                .add(dispatchMs);
                        rankGpu.computeIfAbsent(phase, k -> new ArrayList<>());
                        workloadGpu.computeIfAbsent(phase, k -> new ArrayList<>());
                        if (t.gpuNs() == null) {
                            w.add(PHASE_TIME_MS.step(r.rank, step).keyed(phase).missing(NO_GPU));
                            return;
                        }
                        double ms = t.gpuNs() / 1e6;
                        w.add(PHASE_TIME_MS.step(r.rank, step).keyed(phase).value(ms));
                        rankGpu.get(phase).add(ms);
                        workloadGpu.get(phase).add(ms);
                    }));
            rankGpu.forEach((phase, v) -> mean(w, GPU_MS, v, Where.rank(r.rank).keyed(phase)));
            rankDispatch.forEach(
                    (phase, v) -> mean(w, DISPATCH_MS, v, Where.rank(r.rank).keyed(phase)));
        }
        workloadGpu.forEach((phase, v) -> mean(w, GPU_MS, v, Where.workload().keyed(phase)));
        workloadDispatch.forEach(
                (phase, v) -> mean(w, DISPATCH_MS, v, Where.workload().keyed(phase)));
    }

    /** A phase's GPU time (the metric's value) and its CPU annotations' time. */
    private static final Figure GPU_MS = PHASE_TIME_MS.figure(null);

    private static final Figure DISPATCH_MS = PHASE_TIME_MS.figure("dispatch_ms");
    private static final String NO_GPU = "no GPU activity of this trace is linked to the runtime call that launched it,"
            + " and no GPU-side copy of the phase annotation exists: the phase's GPU time is unknown (dispatch_ms is"
            + " the CPU annotation's time)";

    /** The mean of a phase's step values, or a null row that says why there is none. */
    private static void mean(Workload w, Figure figure, List<Double> v, Where where) {
        if (v.isEmpty()) w.add(figure.at(where).missing(NO_GPU));
        else w.add(figure.at(where).value(Stats.mean(v)));
    }

    /**
     * fsdp_*: per rank Σ dur of FSDP::&lt;suffix&gt; annotations (ms), over the ranks with any FSDP annotation (0 for a
     * suffix they lack); workload = the mean over those ranks. fsdp_prefetch_overlap: |U_all_gather ∩ U_compute| ÷
     * |U_all_gather| per rank, only for workloads that run FSDP.
     */
    private static void fsdp(Workload w) {
        List<RankSummary> fsdpRanks =
                w.ranks.stream().filter(r -> r.part(Fsdp.class).any()).toList();
        if (fsdpRanks.isEmpty()) return;
        for (Metric metric : FSDP_METRICS) {
            List<Double> values = new ArrayList<>();
            for (RankSummary r : fsdpRanks) {
                double ms = r.part(Fsdp.class).ns().getOrDefault(metric.name(), 0L) / 1e6;
                values.add(ms);
                w.add(metric.at(r.rank).value(ms));
            }
            w.add(metric.workload().value(Stats.mean(values)));
        }
        List<Double> ratios = new ArrayList<>();
        boolean anyRank = false;
        boolean anyAllGather = false;
        for (RankSummary r : w.ranks) {
            if (r.whole.isEmpty()) continue;
            anyRank = true;
            Long union = r.whole.get(RankFactNames.ALLGATHER_UNION);
            if (union != null && union > 0) {
                anyAllGather = true;
                double ratio = (double) r.whole.get(RankFactNames.ALLGATHER_OVERLAP) / union;
                ratios.add(ratio);
                w.add(FSDP_PREFETCH_OVERLAP.at(r.rank).value(ratio));
            }
        }
        if (!anyRank) return;
        w.add(FSDP_PREFETCH_OVERLAP
                .workload()
                .row(
                        ratios.isEmpty() ? null : Stats.mean(ratios),
                        anyAllGather ? STATUS_OK : STATUS_MISSING_INPUT,
                        anyAllGather ? null : "no all_gather communication in the traces"));
    }

    /** The rank's FSDP::* annotations (METRICS.md §4 fsdp_*): whether any, and Σ dur per fsdp_* metric. */
    static final class FsdpPart implements RankPart {
        private boolean any;
        private final Map<String, Long> ns = new HashMap<>();

        @Override
        public void accept(RankEvent e) {
            // Kineto's GPU-side copy of a CPU annotation is not counted again
            if (e.isGpu() || GPU_USER_ANNOTATION.equals(e.cat) || e.name == null || !e.name.startsWith("FSDP::"))
                return;
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
}
