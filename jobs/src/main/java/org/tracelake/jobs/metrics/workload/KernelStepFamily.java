package org.tracelake.jobs.metrics.workload;

import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.RankSummary;

/**
 * kernel_step_time_ms: per kernel name (key {@code name:<name>}) and per kernel category (key = the category), the mean
 * Σ duration per (rank, step) of the GPU activities assigned to a step (device syncs excluded); a (rank, step) without
 * the kernel counts 0. The workload row is all of them together. It is what the run comparison lists as the kernels
 * that moved most (METRICS.md §4 "Run comparison verdicts"), kept for every run in metrics_history like any metric, so
 * that tonight's run can be compared with last night's after the warehouse's kernel_totals were replaced.
 */
final class KernelStepFamily {
    private KernelStepFamily() {}

    static final Metric KERNEL_STEP_TIME_MS = Metric.of("kernel_step_time_ms");

    static void compute(Workload w) {
        long pairs = 0;
        long total = 0;
        Map<String, Long> byName = new TreeMap<>();
        Map<String, Long> byCategory = new TreeMap<>();
        for (RankSummary r : w.ranks) {
            pairs += StepFamily.windows(r).size();
            KernelTime t = r.part(KernelTime.class);
            total += t.stepNs();
            t.stepByName().forEach((k, v) -> byName.merge(k, v, Long::sum));
            t.stepByCategory().forEach((k, v) -> {
                if (k != null) byCategory.merge(k, v, Long::sum);
            });
        }
        if (pairs == 0) return; // Gaps says why: no steps
        double per = 1e6 * pairs;
        w.add(KERNEL_STEP_TIME_MS.workload().value(total / per));
        for (Map.Entry<String, Long> e : byCategory.entrySet())
            w.add(KERNEL_STEP_TIME_MS.key(e.getKey()).value(e.getValue() / per));
        for (Map.Entry<String, Long> e : byName.entrySet())
            w.add(KERNEL_STEP_TIME_MS.key("name:" + e.getKey()).value(e.getValue() / per));
    }
}
