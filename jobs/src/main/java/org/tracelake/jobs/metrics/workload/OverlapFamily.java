package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Overlap and idle time (METRICS.md §4) from each rank's interval facts: comm_comp_overlap, time_breakdown,
 * CCL-Bench's compute_comm_overlap, gpu_utilization, aggregate_gpu_utilization, pipeline_bubble.
 */
final class OverlapFamily {
    private OverlapFamily() {}

    static final Metric COMM_COMP_OVERLAP = Metric.of("comm_comp_overlap");
    static final Metric TIME_BREAKDOWN = Metric.of("time_breakdown");
    static final Metric COMPUTE_COMM_OVERLAP = Metric.of("compute_comm_overlap");
    static final Metric GPU_UTILIZATION = Metric.of("gpu_utilization");
    static final Metric AGGREGATE_GPU_UTILIZATION = Metric.of("aggregate_gpu_utilization");
    static final Metric PIPELINE_BUBBLE = Metric.of("pipeline_bubble");
    /** A rank's idle GPU time within its span (gpu_utilization's per-rank complement). */
    static final Figure GPU_UTILIZATION_IDLE_MS = GPU_UTILIZATION.unlisted("idle_ms", "ms");

    /** comm_comp_overlap's figures, in the order of {@link #overlapFigures}. */
    private static final List<Figure> FIGURES = Stream.of(
                    "overlap_ratio_of_comm",
                    "overlap_ratio_of_comp",
                    "comm_time_ms",
                    "comp_time_ms",
                    "overlap_time_ms",
                    "exposed_comm_ms")
            .map(COMM_COMP_OVERLAP::figure)
            .toList();

    /** time_breakdown's figures, in the order timeBreakdown computes them. */
    private static final List<Figure> BREAKDOWN = Stream.of(
                    "compute_ms", "exposed_comm_ms", "exposed_copy_ms", "idle_ms", "span_ms")
            .map(TIME_BREAKDOWN::figure)
            .toList();

    private static final Figure BUBBLE_RATIO = PIPELINE_BUBBLE.figure("bubble_ratio");
    private static final Figure BUBBLE_TIME = PIPELINE_BUBBLE.figure("bubble_time_ms");
    private static final Figure BUBBLE_TOTAL = PIPELINE_BUBBLE.figure("total_time_ms");

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
        Map<Figure, List<Double>> workload = new LinkedHashMap<>();
        for (Figure f : FIGURES) workload.put(f, new ArrayList<>());
        for (RankSummary r : w.ranks) {
            if (r.whole.containsKey(RankFactNames.GPU_FIRST)) {
                Double[] v = overlapFigures(r.whole);
                boolean communicates = r.whole.getOrDefault(RankFactNames.COMM_UNION, 0L) > 0;
                for (int i = 0; i < FIGURES.size(); i++) {
                    emit(w, FIGURES.get(i), v[i], Where.rank(r.rank));
                    if (v[i] != null && (i >= 2 || communicates))
                        workload.get(FIGURES.get(i)).add(v[i]);
                }
            }
            r.steps.forEach((step, f) -> {
                if (!f.containsKey(RankFactNames.GPU_UNION)) return;
                Double[] v = overlapFigures(f);
                for (int i = 0; i < FIGURES.size(); i++) emit(w, FIGURES.get(i), v[i], Where.step(r.rank, step));
            });
        }
        for (Figure f : FIGURES) {
            List<Double> values = workload.get(f);
            if (!values.isEmpty()) w.add(f.workload().value(Stats.mean(values)));
        }
    }

    private static void emit(Workload w, Figure figure, Double value, Where where) {
        w.add(
                value == null
                        ? figure.at(where).notApplicable("no communication (or no computation) on this rank")
                        : figure.at(where).value(value));
    }

    /**
     * time_breakdown: each rank's GPU span in four parts that add up to it: compute |U_compute|, exposed
     * communication |U_comm| − O, exposed copies |U_gpu| − |U_compute ∪ U_comm|, idle span − |U_gpu|.
     */
    private static void timeBreakdown(Workload w) {
        List<List<Double>> workload = new ArrayList<>();
        for (int i = 0; i < BREAKDOWN.size(); i++) workload.add(new ArrayList<>());
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
            for (int i = 0; i < BREAKDOWN.size(); i++) {
                w.add(BREAKDOWN.get(i).at(r.rank).value(v[i]));
                workload.get(i).add(v[i]);
            }
        }
        for (int i = 0; i < BREAKDOWN.size(); i++) {
            if (!workload.get(i).isEmpty()) {
                w.add(BREAKDOWN.get(i).workload().value(Stats.mean(workload.get(i))));
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
            w.add(COMPUTE_COMM_OVERLAP.at(r.rank).value(pct));
        }
        if (!values.isEmpty()) w.add(COMPUTE_COMM_OVERLAP.workload().value(Stats.mean(values)));
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
                w.add(GPU_UTILIZATION.at(r.rank).value(pct));
            }
            w.add(GPU_UTILIZATION_IDLE_MS.at(r.rank).value((span - busy) / 1e6));
            Long kernelBusy = f.get(RankFactNames.KERNEL_UNION);
            if (kernelBusy != null) {
                long kernelSpan = f.get(RankFactNames.KERNEL_LAST) - f.get(RankFactNames.KERNEL_FIRST);
                if (kernelSpan > 0) {
                    double pct = 100.0 * kernelBusy / kernelSpan;
                    kernels.add(pct);
                    w.add(AGGREGATE_GPU_UTILIZATION.at(r.rank).value(pct));
                }
            }
        }
        if (!gpu.isEmpty()) w.add(GPU_UTILIZATION.workload().value(Stats.mean(gpu)));
        if (!kernels.isEmpty()) {
            w.add(AGGREGATE_GPU_UTILIZATION.workload().value(Stats.mean(kernels)));
        }
        for (RankSummary r : w.ranks) {
            forEachWindow(
                    r,
                    (step, dur, inWindow) ->
                            w.add(GPU_UTILIZATION.step(r.rank, step).value(100.0 * inWindow / dur)));
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
                Where where = Where.step(r.rank, step).keyed(GAPS);
                w.add(BUBBLE_RATIO.at(where).value(ratio));
                w.add(BUBBLE_TIME.at(where).value(bubble));
                w.add(BUBBLE_TOTAL.at(where).value(total));
                ratios.add(ratio);
                bubbles.add(bubble);
                totals.add(total);
            });
        }
        if (ratios.isEmpty()) return;
        Where where = Where.workload().keyed(GAPS);
        w.add(BUBBLE_RATIO.at(where).value(Stats.mean(ratios)));
        w.add(BUBBLE_TIME.at(where).value(Stats.mean(bubbles)));
        w.add(BUBBLE_TOTAL.at(where).value(Stats.mean(totals)));
    }

    /** pipeline_bubble's key: the bubble is measured as the gaps in GPU activity (METRICS.md §4). */
    private static final String GAPS = "gaps";

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
