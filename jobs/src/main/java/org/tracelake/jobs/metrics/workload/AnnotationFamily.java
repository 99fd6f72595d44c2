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
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Metrics of CPU-side annotations (METRICS.md §4): phase_time_ms (forward / backward / optimizer per step), fsdp_*
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

    /** phase_time_ms: per rank per step, |union| of the step's annotations of each phase; rank and workload = mean over steps. */
    private static void phases(Workload w) {
        Map<String, List<Double>> workload = new TreeMap<>();
        for (RankSummary r : w.ranks) {
            Map<String, List<Double>> rank = new TreeMap<>();
            r.phaseNsByStep.forEach((step, byPhase) -> byPhase.forEach((phase, ns) -> {
                double ms = ns / 1e6;
                w.ok("phase_time_ms", null, ms, "ms", SCOPE_STEP, r.rank, step, phase);
                rank.computeIfAbsent(phase, k -> new ArrayList<>()).add(ms);
                workload.computeIfAbsent(phase, k -> new ArrayList<>()).add(ms);
            }));
            rank.forEach(
                    (phase, v) -> w.ok("phase_time_ms", null, Stats.mean(v), "ms", SCOPE_RANK, r.rank, null, phase));
        }
        workload.forEach(
                (phase, v) -> w.ok("phase_time_ms", null, Stats.mean(v), "ms", SCOPE_WORKLOAD, null, null, phase));
    }

    /**
     * fsdp_*: per rank Σ dur of FSDP::&lt;suffix&gt; annotations (ms), over the ranks with any FSDP annotation (0 for a
     * suffix they lack); workload = the mean over those ranks. fsdp_prefetch_overlap: |U_all_gather ∩ U_compute| ÷
     * |U_all_gather| per rank, only for workloads that run FSDP.
     */
    private static void fsdp(Workload w) {
        List<RankSummary> fsdpRanks = w.ranks.stream().filter(r -> r.hasFsdp).toList();
        if (fsdpRanks.isEmpty()) return;
        for (String metric : FSDP_METRICS) {
            List<Double> values = new ArrayList<>();
            for (RankSummary r : fsdpRanks) {
                double ms = r.fsdpNs.getOrDefault(metric, 0L) / 1e6;
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
