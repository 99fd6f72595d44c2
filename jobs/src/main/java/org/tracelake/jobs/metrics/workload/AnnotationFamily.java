package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_RANK;
import static org.tracelake.schemas.MetricSchema.SCOPE_STEP;
import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;
import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.rank.FsdpPart.Fsdp;
import org.tracelake.jobs.rank.PhasePart;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Metrics of annotations (METRICS.md §4): phase_time_ms (forward / backward / optimizer GPU time per step), fsdp_*
 * (time in FSDP::* annotations by suffix) and fsdp_prefetch_overlap.
 */
final class AnnotationFamily {
    private AnnotationFamily() {}

    static final List<String> FSDP_METRICS = List.of(
            "fsdp_all_gather",
            "fsdp_reduce_scatter",
            "fsdp_copy_in",
            "fsdp_copy_out",
            "fsdp_pre_forward",
            "fsdp_post_forward",
            "fsdp_pre_backward",
            "fsdp_post_backward");

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
                        w.ok(PHASE_TIME, DISPATCH_MS, dispatchMs, "ms", SCOPE_STEP, r.rank, step, phase);
                        rankDispatch
                                .computeIfAbsent(phase, k -> new ArrayList<>())
                                .add(dispatchMs);
                        workloadDispatch
                                .computeIfAbsent(phase, k -> new ArrayList<>())
                                .add(dispatchMs);
                        rankGpu.computeIfAbsent(phase, k -> new ArrayList<>());
                        workloadGpu.computeIfAbsent(phase, k -> new ArrayList<>());
                        if (t.gpuNs() == null) {
                            w.row(
                                    PHASE_TIME,
                                    null,
                                    null,
                                    "ms",
                                    SCOPE_STEP,
                                    r.rank,
                                    step,
                                    phase,
                                    STATUS_MISSING_INPUT,
                                    NO_GPU);
                            return;
                        }
                        double ms = t.gpuNs() / 1e6;
                        w.ok(PHASE_TIME, null, ms, "ms", SCOPE_STEP, r.rank, step, phase);
                        rankGpu.get(phase).add(ms);
                        workloadGpu.get(phase).add(ms);
                    }));
            rankGpu.forEach((phase, v) -> mean(w, null, v, SCOPE_RANK, r.rank, phase));
            rankDispatch.forEach((phase, v) -> mean(w, DISPATCH_MS, v, SCOPE_RANK, r.rank, phase));
        }
        workloadGpu.forEach((phase, v) -> mean(w, null, v, SCOPE_WORKLOAD, null, phase));
        workloadDispatch.forEach((phase, v) -> mean(w, DISPATCH_MS, v, SCOPE_WORKLOAD, null, phase));
    }

    private static final String PHASE_TIME = "phase_time_ms";
    private static final String DISPATCH_MS = "dispatch_ms";
    private static final String NO_GPU = "no GPU activity of this trace is linked to the runtime call that launched it,"
            + " and no GPU-side copy of the phase annotation exists: the phase's GPU time is unknown (dispatch_ms is"
            + " the CPU annotation's time)";

    /** The mean of a phase's step values, or a null row that says why there is none. */
    private static void mean(Workload w, String figure, List<Double> v, String scope, Integer rank, String phase) {
        if (v.isEmpty()) w.row(PHASE_TIME, figure, null, "ms", scope, rank, null, phase, STATUS_MISSING_INPUT, NO_GPU);
        else w.ok(PHASE_TIME, figure, Stats.mean(v), "ms", scope, rank, null, phase);
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
        for (String metric : FSDP_METRICS) {
            List<Double> values = new ArrayList<>();
            for (RankSummary r : fsdpRanks) {
                double ms = r.part(Fsdp.class).ns().getOrDefault(metric, 0L) / 1e6;
                values.add(ms);
                w.ok(metric, null, ms, "ms", SCOPE_RANK, r.rank, null, null);
            }
            w.ok(metric, null, Stats.mean(values), "ms", SCOPE_WORKLOAD, null, null, null);
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
                w.ok("fsdp_prefetch_overlap", null, ratio, "ratio", SCOPE_RANK, r.rank, null, null);
            }
        }
        if (!anyRank) return;
        w.workloadRow(
                "fsdp_prefetch_overlap",
                null,
                ratios.isEmpty() ? null : Stats.mean(ratios),
                "ratio",
                anyAllGather ? STATUS_OK : STATUS_MISSING_INPUT,
                anyAllGather ? null : "no all_gather communication in the traces");
    }
}
