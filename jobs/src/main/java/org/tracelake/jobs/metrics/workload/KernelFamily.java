package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.workload.KernelFamily.CopyPart.Copies;
import org.tracelake.jobs.metrics.workload.KernelFamily.RuntimePart.Runtime;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.LeaderboardKernelPart.LeaderboardKernels;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.rank.SparkCasts;
import org.tracelake.udfs.ActivityClass;

/**
 * Kernel-level metrics (METRICS.md §4): CCL-Bench's leaderboard numbers pooled over every rank
 * (dominant_kernel_concentration, moe_fraction, mean_sm_coverage), copies (memory_transfer_overhead,
 * memcpy_exposed_pct, average_memory_bandwidth), kernel time by category and name, cpu_overhead.
 */
final class KernelFamily {
    private KernelFamily() {}

    static final Metric KERNEL_TIME_S = Metric.of("kernel_time_s");
    static final Metric KERNEL_BREAKDOWN = Metric.of("kernel_breakdown");
    static final Metric CPU_OVERHEAD = Metric.of("cpu_overhead");
    static final Metric DOMINANT_KERNEL_CONCENTRATION = Metric.of("dominant_kernel_concentration");
    static final Metric MOE_FRACTION = Metric.of("moe_fraction");
    static final Metric MEAN_SM_COVERAGE = Metric.of("mean_sm_coverage");
    static final Metric MEMORY_TRANSFER_OVERHEAD = Metric.of("memory_transfer_overhead");
    static final Metric MEMCPY_EXPOSED_PCT = Metric.of("memcpy_exposed_pct");
    static final Metric AVERAGE_MEMORY_BANDWIDTH = Metric.of("average_memory_bandwidth");

    static void compute(Workload w) {
        leaderboard(w);
        copyOverhead(w);
        copyExposed(w);
        copyBandwidth(w);
        kernelTime(w);
        cpuOverhead(w);
    }

    private static void leaderboard(Workload w) {
        long kernels = 0;
        long total = 0;
        long moe = 0;
        long smKernels = 0;
        long smDur = 0;
        double smWeighted = 0;
        Map<String, Long> byName = new HashMap<>();
        for (RankSummary r : w.ranks) {
            LeaderboardKernels k = r.part(LeaderboardKernels.class);
            kernels += k.kernels();
            total += k.ns();
            moe += k.moeNs();
            smKernels += k.smKernels();
            smDur += k.smDurNs();
            smWeighted += k.smWeightedNs();
            k.byName().forEach((name, ns) -> byName.merge(name, ns, Long::sum));
        }
        if (kernels > 0) {
            // the name with the most time; on equal time, the greatest name (max_by over (time, name))
            Map.Entry<String, Long> top = byName.entrySet().stream()
                    .max(Comparator.comparing((Map.Entry<String, Long> e) -> e.getValue())
                            .thenComparing(Map.Entry::getKey, Comparator.nullsFirst(Comparator.naturalOrder())))
                    .orElseThrow();
            boolean timed = total > 0;
            w.add(DOMINANT_KERNEL_CONCENTRATION
                    .workload()
                    .row(
                            timed ? 100.0 * top.getValue() / total : null,
                            timed ? STATUS_OK : STATUS_MISSING_INPUT,
                            timed ? null : "every kernel has zero duration"));
            if (timed) {
                w.add(DOMINANT_KERNEL_CONCENTRATION
                        .key(top.getKey() == null ? null : "name:" + top.getKey())
                        .value(100.0 * top.getValue() / total));
            }
            w.add(MOE_FRACTION
                    .workload()
                    .row(
                            timed ? 100.0 * moe / total : null,
                            timed ? STATUS_OK : STATUS_MISSING_INPUT,
                            timed ? null : "every kernel has zero duration"));
        }
        if (smKernels > 0) {
            boolean timed = smDur > 0;
            w.add(MEAN_SM_COVERAGE
                    .workload()
                    .row(
                            timed ? 100.0 * smWeighted / smDur : null,
                            timed ? STATUS_OK : STATUS_MISSING_INPUT,
                            timed ? null : "every kernel with a \"blocks per SM\" arg has zero duration"));
        }
    }

    /**
     * memory_transfer_overhead (CCL-Bench, exactly): per rank over CCL-Bench's events, pure copy ÷ span × 100;
     * workload = Σ pure ÷ Σ spans × 100 over ranks with copy kernels, rounded to 4 decimals.
     */
    private static void copyOverhead(Workload w) {
        if (w.ranks.stream().noneMatch(r -> !r.whole.isEmpty())) return;
        long pure = 0;
        long span = 0;
        int ranksWithCopies = 0;
        for (RankSummary r : w.ranks) {
            Long p = r.whole.get(RankFactNames.CCL_COPY_PURE);
            if (p == null) continue;
            ranksWithCopies++;
            long s = r.whole.get(RankFactNames.CCL_EVENT_LAST) - r.whole.get(RankFactNames.CCL_EVENT_FIRST);
            pure += p;
            span += s;
            if (s > 0) w.add(MEMORY_TRANSFER_OVERHEAD.at(r.rank).value(100.0 * p / s));
        }
        boolean ok = span > 0;
        String reason = ranksWithCopies == 0
                ? "no copy kernel (cat kernel named memcpy, memset, copy_kernel, ...) on any rank; Kineto"
                        + " gpu_memcpy/gpu_memset events do not count (CCL-Bench reads only kernels): see memcpy_exposed_pct"
                : ok ? null : "copy kernels span no time";
        w.add(MEMORY_TRANSFER_OVERHEAD
                .workload()
                .row(ok ? round4(100.0 * pure / span) : null, ok ? STATUS_OK : STATUS_MISSING_INPUT, reason));
    }

    /** Spark's round(x, 4): half up, on the decimal value of the double. */
    private static double round4(double v) {
        return BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_UP).doubleValue();
    }

    /**
     * memcpy_exposed_pct (our variant): the same over every GPU activity, per rank, per rank per step, and workload =
     * Σ pure ÷ Σ spans × 100 over the ranks with a copy.
     */
    private static void copyExposed(Workload w) {
        if (w.ranks.stream().noneMatch(r -> !r.whole.isEmpty())) return;
        long pure = 0;
        long span = 0;
        int ranksWithCopies = 0;
        for (RankSummary r : w.ranks) {
            Long p = r.whole.get(RankFactNames.COPY_PURE);
            if (p != null) {
                ranksWithCopies++;
                long s = r.whole.get(RankFactNames.POSITIVE_LAST) - r.whole.get(RankFactNames.POSITIVE_FIRST);
                pure += p;
                span += s;
                if (s > 0) w.add(MEMCPY_EXPOSED_PCT.at(r.rank).value(100.0 * p / s));
            }
            r.steps.forEach((step, f) -> {
                Long sp = f.get(RankFactNames.COPY_PURE);
                if (sp == null) return;
                long s = f.get(RankFactNames.POSITIVE_LAST) - f.get(RankFactNames.POSITIVE_FIRST);
                if (s > 0) w.add(MEMCPY_EXPOSED_PCT.step(r.rank, step).value(100.0 * sp / s));
            });
        }
        boolean ok = span > 0;
        String reason = ranksWithCopies == 0
                ? "no copy activity (memcpy, memset or copy kernels) on any rank"
                : ok ? null : "copy activity spans no time";
        w.add(MEMCPY_EXPOSED_PCT
                .workload()
                .row(ok ? 100.0 * pure / span : null, ok ? STATUS_OK : STATUS_MISSING_INPUT, reason));
    }

    /** average_memory_bandwidth: over copy events with bytes > 0 and dur > 0, Σ bytes ÷ Σ dur (ns) = GB/s. */
    private static void copyBandwidth(Workload w) {
        long copies = 0;
        double bytes = 0;
        long ns = 0;
        List<RankSummary> all = new ArrayList<>(w.ranks);
        if (w.unranked != null) all.add(w.unranked);
        for (RankSummary r : all) {
            Copies c = r.part(Copies.class);
            copies += c.count();
            bytes += c.bytes();
            ns += c.ns();
        }
        if (copies > 0) w.add(AVERAGE_MEMORY_BANDWIDTH.workload().value(bytes / ns));
    }

    /**
     * kernel_time_s, kernel_breakdown: Σ dur of GPU activity (not device syncs) per kernel category and for the 10
     * kernel names with the most time (key 'name:&lt;kernel&gt;'); kernel_time_s per rank and, at workload scope, the
     * mean over ranks (total, and per key); kernel_breakdown in % of all that time per key, its workload row the
     * largest category's share, keyed by it.
     */
    private static void kernelTime(Workload w) {
        int nRanks = w.ranks.size();
        if (nRanks == 0) return;
        List<Long> totals = new ArrayList<>();
        long total = 0;
        boolean anyActivity = false;
        Map<String, Long> byName = new HashMap<>();
        Map<String, Long> byCategory = new HashMap<>();
        for (RankSummary r : w.ranks) {
            KernelTime t = r.part(KernelTime.class);
            totals.add(t.ns());
            total += t.ns();
            anyActivity |= t.any();
            w.add(KERNEL_TIME_S.at(r.rank).value(t.ns() / 1e9));
            t.byName().forEach((k, v) -> byName.merge(k, v, Long::sum));
            t.byCategory().forEach((k, v) -> byCategory.merge(k, v, Long::sum));
        }
        if (total > 0) w.add(KERNEL_TIME_S.workload().value(Stats.mean(totals) / 1e9));
        List<Map.Entry<String, Long>> names = new ArrayList<>(byName.entrySet());
        names.sort(Comparator.comparing((Map.Entry<String, Long> e) -> -e.getValue())
                .thenComparing(Map.Entry::getKey));
        List<String[]> keys = new ArrayList<>(); // key, is category
        Map<String, Long> keyNs = new HashMap<>();
        for (int i = 0; i < Math.min(10, names.size()); i++) {
            String key = "name:" + names.get(i).getKey();
            keys.add(new String[] {key, "false"});
            keyNs.put(key, names.get(i).getValue());
        }
        for (Map.Entry<String, Long> e : byCategory.entrySet()) {
            keys.add(new String[] {e.getKey(), "true"});
        }
        for (String[] k : keys) {
            long ns = k[1].equals("true") ? byCategory.get(k[0]) : keyNs.get(k[0]);
            w.add(KERNEL_TIME_S.key(k[0]).value(ns / 1e9 / nRanks));
            if (anyActivity && total > 0) {
                w.add(KERNEL_BREAKDOWN.key(k[0]).value(100.0 * ns / total));
            }
        }
        if (anyActivity && total > 0 && !byCategory.isEmpty()) {
            Map.Entry<String, Long> top = byCategory.entrySet().stream()
                    .min(Comparator.comparing((Map.Entry<String, Long> e) -> -e.getValue())
                            .thenComparing(Map.Entry::getKey, Comparator.nullsFirst(Comparator.naturalOrder())))
                    .orElseThrow();
            w.add(KERNEL_BREAKDOWN.workload().keyed(top.getKey()).value(100.0 * top.getValue() / total));
        }
    }

    /**
     * cpu_overhead: per rank Σ dur of cuda_runtime / cuda_driver events ÷ the rank's span (first start to last end
     * over its events with a duration) × 100; workload = the mean over the ranks that have such events.
     */
    private static void cpuOverhead(Workload w) {
        List<Double> values = new ArrayList<>();
        boolean anyRuntime = false;
        boolean anyRank = false;
        for (RankSummary r : w.ranks) {
            Runtime rt = r.part(Runtime.class);
            if (rt.spanFirst() == null) continue;
            anyRank = true;
            long span = rt.spanLast() - rt.spanFirst();
            if (rt.events() == 0) continue;
            anyRuntime = true;
            Double pct = span == 0 ? null : 100.0 * rt.ns() / span;
            if (pct != null) {
                values.add(pct);
                w.add(CPU_OVERHEAD.at(r.rank).value(pct));
            }
        }
        if (!anyRank) return;
        w.add(CPU_OVERHEAD
                .workload()
                .row(
                        values.isEmpty() ? null : Stats.mean(values),
                        anyRuntime ? STATUS_OK : STATUS_MISSING_INPUT,
                        anyRuntime ? null : "no cuda_runtime/cuda_driver events in the traces"));
    }

    static boolean equal(Object a, Object b) {
        return Objects.equals(a, b);
    }

    /**
     * average_memory_bandwidth (METRICS.md §4): GPU-side copies (activity class memcpy: Kineto gpu_memcpy, Nsight and
     * rocprof copies) with a duration and a byte count. Memsets are not copies, and neither are the CPU-side runtime
     * calls ROCm's Kineto writes bytes on (hipMemcpyWithStream): their duration is the host's wait.
     */
    static final class CopyPart implements RankPart {
        private long count;
        private double bytes;
        private long ns;

        @Override
        public void accept(RankEvent e) {
            if (e.dur <= 0 || e.ts == null || !ActivityClass.MEMCPY.equals(e.activityClass)) return;
            Double b = SparkCasts.toDouble(e.argBytes);
            if (b == null || !(b > 0)) return;
            count++;
            bytes += b;
            ns += e.dur;
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new Copies(count, bytes, ns);
        }

        /** How many such copies, Σ bytes, Σ dur (ns). */
        public record Copies(long count, double bytes, long ns) implements Serializable {}
    }

    /**
     * What cpu_overhead reads of a rank (METRICS.md §4): its cuda_runtime / cuda_driver events (how many, Σ dur) and its
     * span, first start to last end over every event with a start.
     */
    static final class RuntimePart implements RankPart {
        private long events;
        private long ns;
        private Long first;
        private Long last;

        @Override
        public void accept(RankEvent e) {
            if (e.ts == null) return;
            first = first == null ? e.ts : Math.min(first, e.ts);
            last = last == null ? e.end() : Math.max(last, e.end());
            if (!e.isGpu() && ("cuda_runtime".equals(e.cat) || "cuda_driver".equals(e.cat))) {
                events++;
                ns += e.dur;
            }
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new Runtime(events, ns, first, last);
        }

        /** Runtime and driver events: how many, Σ dur (ns); the rank's span (both null without a timed event). */
        public record Runtime(long events, long ns, Long spanFirst, Long spanLast) implements Serializable {}
    }
}
