package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_RANK;
import static org.tracelake.schemas.MetricSchema.SCOPE_STEP;
import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_APPLICABLE;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Overlap and idle time (METRICS.md §4) from each rank's interval facts: comm_comp_overlap, time_breakdown,
 * CCL-Bench's compute_comm_overlap, gpu_utilization, aggregate_gpu_utilization, pipeline_bubble.
 */
final class OverlapFamily {
    private OverlapFamily() {}

    private static final String[] FIGURES = {
        "overlap_ratio_of_comm",
        "overlap_ratio_of_comp",
        "comm_time_ms",
        "comp_time_ms",
        "overlap_time_ms",
        "exposed_comm_ms"
    };
    private static final String[] UNITS = {"ratio", "ratio", "ms", "ms", "ms", "ms"};

    static void compute(Workload w) {
        commCompOverlap(w);
        timeBreakdown(w);
        cclOverlap(w);
        utilization(w);
        bubble(w);
    }

    private static Double[] overlapFigures(Map<String, Long> f) {
        long comm = f.getOrDefault(RankFactNames.COMM_UNION, 0L);
        long comp = f.getOrDefault(RankFactNames.COMPUTE_UNION, 0L);
        long o = f.getOrDefault(RankFactNames.OVERLAP, 0L);
        return new Double[] {
            comm > 0 ? (double) o / comm : null,
            comp > 0 ? (double) o / comp : null,
            comm / 1e6,
            comp / 1e6,
            o / 1e6,
            (comm - o) / 1e6
        };
    }

    /** comm_comp_overlap per rank and per step; workload = the mean over ranks (ratios over ranks that communicate). */
    private static void commCompOverlap(Workload w) {
        Map<String, List<Double>> workload = new LinkedHashMap<>();
        for (String f : FIGURES) workload.put(f, new ArrayList<>());
        for (RankSummary r : w.ranks) {
            if (r.whole.containsKey(RankFactNames.GPU_FIRST)) {
                Double[] v = overlapFigures(r.whole);
                boolean communicates = r.whole.getOrDefault(RankFactNames.COMM_UNION, 0L) > 0;
                for (int i = 0; i < FIGURES.length; i++) {
                    emit(w, FIGURES[i], v[i], UNITS[i], SCOPE_RANK, r.rank, null);
                    if (v[i] != null && (i >= 2 || communicates))
                        workload.get(FIGURES[i]).add(v[i]);
                }
            }
            r.steps.forEach((step, f) -> {
                if (!f.containsKey(RankFactNames.GPU_UNION)) return;
                Double[] v = overlapFigures(f);
                for (int i = 0; i < FIGURES.length; i++) emit(w, FIGURES[i], v[i], UNITS[i], SCOPE_STEP, r.rank, step);
            });
        }
        for (int i = 0; i < FIGURES.length; i++) {
            List<Double> values = workload.get(FIGURES[i]);
            if (!values.isEmpty()) {
                w.ok("comm_comp_overlap", FIGURES[i], Stats.mean(values), UNITS[i], SCOPE_WORKLOAD, null, null, null);
            }
        }
    }

    private static void emit(Workload w, String figure, Double value, String unit, String scope, int rank, Long step) {
        w.row(
                "comm_comp_overlap",
                figure,
                value,
                unit,
                scope,
                rank,
                step,
                null,
                value == null ? STATUS_NOT_APPLICABLE : STATUS_OK,
                value == null ? "no communication (or no computation) on this rank" : null);
    }

    /**
     * time_breakdown: each rank's GPU span in four parts that add up to it: compute |U_compute|, exposed
     * communication |U_comm| − O, exposed copies |U_gpu| − |U_compute ∪ U_comm|, idle span − |U_gpu|.
     */
    private static void timeBreakdown(Workload w) {
        String[] figures = {"compute_ms", "exposed_comm_ms", "exposed_copy_ms", "idle_ms", "span_ms"};
        List<List<Double>> workload = new ArrayList<>();
        for (int i = 0; i < figures.length; i++) workload.add(new ArrayList<>());
        for (RankSummary r : w.ranks) {
            Map<String, Long> f = r.whole;
            if (!f.containsKey(RankFactNames.GPU_FIRST)) continue;
            long comp = f.getOrDefault(RankFactNames.COMPUTE_UNION, 0L);
            long comm = f.getOrDefault(RankFactNames.COMM_UNION, 0L);
            long o = f.getOrDefault(RankFactNames.OVERLAP, 0L);
            long gpu = f.get(RankFactNames.GPU_UNION);
            long span = f.get(RankFactNames.GPU_LAST) - f.get(RankFactNames.GPU_FIRST);
            double[] v = {comp / 1e6, (comm - o) / 1e6, (gpu - (comp + comm - o)) / 1e6, (span - gpu) / 1e6, span / 1e6
            };
            for (int i = 0; i < figures.length; i++) {
                w.ok("time_breakdown", figures[i], v[i], "ms", SCOPE_RANK, r.rank, null, null);
                workload.get(i).add(v[i]);
            }
        }
        for (int i = 0; i < figures.length; i++) {
            if (!workload.get(i).isEmpty()) {
                w.ok("time_breakdown", figures[i], Stats.mean(workload.get(i)), "ms", SCOPE_WORKLOAD, null, null, null);
            }
        }
    }

    /**
     * compute_comm_overlap (CCL-Bench): per rank, kernels clipped to the trimmed step windows; Σ |U_comm ∩ U_non-comm|
     * ÷ Σ |U_comm| × 100 over those steps (ranks with communication); mean over ranks.
     */
    private static void cclOverlap(Workload w) {
        List<Double> values = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            long overlap = 0;
            long comm = 0;
            boolean any = false;
            for (Map<String, Long> f : r.steps.values()) {
                if (f.getOrDefault(RankFactNames.TRIMMED, 0L) != 1) continue;
                any = true;
                overlap += f.getOrDefault(RankFactNames.CCL_OVERLAP_IN_WINDOW, 0L);
                comm += f.getOrDefault(RankFactNames.CCL_COMM_IN_WINDOW, 0L);
            }
            if (!any || comm <= 0) continue;
            double pct = 100.0 * overlap / comm;
            values.add(pct);
            w.ok("compute_comm_overlap", null, pct, "%", SCOPE_RANK, r.rank, null, null);
        }
        if (!values.isEmpty())
            w.ok("compute_comm_overlap", null, Stats.mean(values), "%", SCOPE_WORKLOAD, null, null, null);
    }

    /** gpu_utilization (all GPU activity) and aggregate_gpu_utilization (CCL-Bench: kernels only), per rank and step. */
    private static void utilization(Workload w) {
        List<Double> gpu = new ArrayList<>();
        List<Double> kernels = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            Map<String, Long> f = r.whole;
            if (!f.containsKey(RankFactNames.GPU_FIRST)) continue;
            long busy = f.get(RankFactNames.GPU_UNION);
            long span = f.get(RankFactNames.GPU_LAST) - f.get(RankFactNames.GPU_FIRST);
            if (span > 0) {
                double pct = 100.0 * busy / span;
                gpu.add(pct);
                w.ok("gpu_utilization", null, pct, "%", SCOPE_RANK, r.rank, null, null);
            }
            w.ok("gpu_utilization", "idle_ms", (span - busy) / 1e6, "ms", SCOPE_RANK, r.rank, null, null);
            Long kernelBusy = f.get(RankFactNames.KERNEL_UNION);
            if (kernelBusy != null) {
                long kernelSpan = f.get(RankFactNames.KERNEL_LAST) - f.get(RankFactNames.KERNEL_FIRST);
                if (kernelSpan > 0) {
                    double pct = 100.0 * kernelBusy / kernelSpan;
                    kernels.add(pct);
                    w.ok("aggregate_gpu_utilization", null, pct, "%", SCOPE_RANK, r.rank, null, null);
                }
            }
        }
        if (!gpu.isEmpty()) w.ok("gpu_utilization", null, Stats.mean(gpu), "%", SCOPE_WORKLOAD, null, null, null);
        if (!kernels.isEmpty()) {
            w.ok("aggregate_gpu_utilization", null, Stats.mean(kernels), "%", SCOPE_WORKLOAD, null, null, null);
        }
        for (RankSummary r : w.ranks) {
            forEachWindow(
                    r,
                    (step, dur, inWindow) ->
                            w.ok("gpu_utilization", null, 100.0 * inWindow / dur, "%", SCOPE_STEP, r.rank, step, null));
        }
    }

    /**
     * pipeline_bubble: per rank per step, 1 − |GPU activity in the step's span| ÷ that span ("gaps"); workload = mean.
     * The span is the step window, or, when the step's own GPU activities end after it (CUDA/HIP graph replay, deep
     * launch queues), from its start to the last of them (METRICS.md §1): a decode step whose 434 kernels all ran after
     * its 2.4 ms annotation was 1.0 with the GPU 99.8 % busy. Never below 0.
     */
    private static void bubble(Workload w) {
        List<Double> ratios = new ArrayList<>();
        List<Double> bubbles = new ArrayList<>();
        List<Double> totals = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            forEachGpuSpan(r, (step, span, busy) -> {
                double ratio = Math.max(0.0, 1.0 - (double) busy / span);
                double bubble = Math.max(0L, span - busy) / 1e6;
                double total = span / 1e6;
                w.ok("pipeline_bubble", "bubble_ratio", ratio, "ratio", SCOPE_STEP, r.rank, step, "gaps");
                w.ok("pipeline_bubble", "bubble_time_ms", bubble, "ms", SCOPE_STEP, r.rank, step, "gaps");
                w.ok("pipeline_bubble", "total_time_ms", total, "ms", SCOPE_STEP, r.rank, step, "gaps");
                ratios.add(ratio);
                bubbles.add(bubble);
                totals.add(total);
            });
        }
        if (ratios.isEmpty()) return;
        w.ok("pipeline_bubble", "bubble_ratio", Stats.mean(ratios), "ratio", SCOPE_WORKLOAD, null, null, "gaps");
        w.ok("pipeline_bubble", "bubble_time_ms", Stats.mean(bubbles), "ms", SCOPE_WORKLOAD, null, null, "gaps");
        w.ok("pipeline_bubble", "total_time_ms", Stats.mean(totals), "ms", SCOPE_WORKLOAD, null, null, "gaps");
    }

    interface WindowVisitor {
        void visit(long step, long dur, long gpuInWindow);
    }

    /** Each step window of the rank with a positive duration, and the GPU activity inside it. */
    /** Each step's GPU span (METRICS.md §1) and the GPU activity within it; the window itself when nothing runs past. */
    static void forEachGpuSpan(RankSummary r, WindowVisitor v) {
        r.steps.forEach((step, f) -> {
            Long start = f.get(RankFactNames.WINDOW_START);
            if (start == null) return;
            Long spanEnd = f.get(RankFactNames.GPU_SPAN_END);
            long end = spanEnd != null ? spanEnd : f.get(RankFactNames.WINDOW_END);
            long busy = spanEnd != null ? f.get(RankFactNames.GPU_IN_SPAN) : f.get(RankFactNames.GPU_IN_WINDOW);
            if (end > start) v.visit(step, end - start, busy);
        });
    }

    static void forEachWindow(RankSummary r, WindowVisitor v) {
        r.steps.forEach((step, f) -> {
            Long start = f.get(RankFactNames.WINDOW_START);
            if (start == null) return;
            long dur = f.get(RankFactNames.WINDOW_END) - start;
            if (dur > 0) v.visit(step, dur, f.get(RankFactNames.GPU_IN_WINDOW));
        });
    }
}
