package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;
import static org.tracelake.schemas.MetricSchema.STATUS_PARTIAL;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Slot;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.LeaderboardKernelPart.LeaderboardKernels;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.BusBandwidth;

/**
 * The cross-rank join of METRICS.md §4 straggler_lag and what reads it. Per rank, collective instances are ordered
 * within a match key ({@link CommInstance#matchKey}) and the k-th of every rank forms one instance; when every
 * instance of a key, on every rank, carries a sequence number, k is that number, so ranks whose profiles start at
 * different collectives still match. With ordinals, ranks that disagree on the count are matched up to the smallest
 * count, and the mismatch is reported. Also CCL-Bench's straggler, comm_time_imbalance, load_imbalance_ratio and
 * iter_time_skew_ms.
 */
final class CrossRankFamily {
    private CrossRankFamily() {}

    static final Metric STRAGGLER_LAG = Metric.of("straggler_lag");
    static final Metric STRAGGLER = Metric.of("straggler");
    static final Metric COMM_TIME_IMBALANCE = Metric.of("comm_time_imbalance");
    static final Metric LOAD_IMBALANCE_RATIO = Metric.of("load_imbalance_ratio");
    static final Metric ITER_TIME_SKEW_MS = Metric.of("iter_time_skew_ms");
    /** A rank's share of the matched instances it arrived last at. */
    static final Figure STRAGGLER_LAG_LAST_ARRIVAL_SHARE = STRAGGLER_LAG.unlisted("last_arrival_share", "ratio");

    /** One rank's instances of one match key, in (start, end) order. */
    private record Keyed(int rank, List<CommInstance> ops) {}

    static void compute(Workload w) {
        match(w);
        straggler(w);
        imbalance(
                w,
                STRAGGLER,
                r -> {
                    LeaderboardKernels k = r.part(LeaderboardKernels.class);
                    return k.anyNcclDevKernel() ? k.ncclDevKernelNs() : null;
                },
                "needs ncclDevKernel_ kernels on at least two ranks (%d rank(s) have any); comm_time_imbalance counts every comm activity",
                "every ncclDevKernel_ kernel has zero duration");
        imbalance(
                w,
                COMM_TIME_IMBALANCE,
                r -> {
                    if (r.comm.isEmpty()) return null;
                    long t = 0;
                    for (CommInstance c : r.comm) t += c.dur();
                    return t;
                },
                "needs communication activity on at least two ranks (%d rank(s) have any)",
                "every communication activity has zero duration");
        loadImbalance(w);
        stepEndSkew(w);
    }

    /** collective_members and collectives. */
    private static void match(Workload w) {
        Map<String, List<Keyed>> byKey = new TreeMap<>();
        for (RankSummary r : w.ranks) {
            Map<String, List<CommInstance>> mine = new HashMap<>();
            for (CommInstance c : r.comm)
                mine.computeIfAbsent(c.matchKey(), k -> new ArrayList<>()).add(c);
            mine.forEach((key, ops) ->
                    byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Keyed(r.rank, ops)));
        }
        List<String> mismatches = new ArrayList<>();
        byKey.forEach((key, keyed) -> {
            boolean bySeq = keyed.stream().allMatch(k -> k.ops.stream().allMatch(c -> c.seq() != null));
            int minCount = keyed.stream().mapToInt(k -> k.ops.size()).min().orElse(0);
            int maxCount = keyed.stream().mapToInt(k -> k.ops.size()).max().orElse(0);
            if (!bySeq && minCount != maxCount) mismatches.add(key + ": " + minCount + ".." + maxCount + " per rank");
            Map<Long, List<Workload.Member>> byK = new TreeMap<>();
            for (Keyed k : keyed) {
                for (int i = 0; i < k.ops.size(); i++) {
                    CommInstance c = k.ops.get(i);
                    if (!bySeq && i >= minCount) break;
                    long ordinal = bySeq ? c.seq() : i + 1;
                    Workload.Member m = new Workload.Member(
                            k.rank, key, bySeq, ordinal, c.ts(), c.end(), c.kind(), c.groupSize(), c.sizeBytes(), c);
                    w.members.add(m);
                    byK.computeIfAbsent(ordinal, x -> new ArrayList<>()).add(m);
                }
            }
            byK.forEach((k, ms) -> {
                if (ms.size() >= 2) w.instances.add(instance(key, bySeq, k, ms));
            });
        });
        w.mismatch = mismatches.isEmpty() ? null : String.join("; ", new TreeSet<>(mismatches));
    }

    private static Workload.Instance instance(String key, boolean bySeq, long k, List<Workload.Member> ms) {
        Integer groupSize = null;
        Long bytes = null;
        long minStart = Long.MAX_VALUE;
        long maxStart = Long.MIN_VALUE;
        long minEnd = Long.MAX_VALUE;
        long maxEnd = Long.MIN_VALUE;
        Workload.Member last = null;
        for (Workload.Member m : ms) {
            if (m.groupSize() != null && (groupSize == null || m.groupSize() > groupSize)) groupSize = m.groupSize();
            if (m.sizeBytes() != null && (bytes == null || m.sizeBytes() > bytes)) bytes = m.sizeBytes();
            minStart = Math.min(minStart, m.ts());
            maxStart = Math.max(maxStart, m.ts());
            minEnd = Math.min(minEnd, m.end());
            maxEnd = Math.max(maxEnd, m.end());
            // the last to arrive: the later start; on equal starts, the higher rank
            if (last == null || m.ts() > last.ts() || (m.ts() == last.ts() && m.rank() > last.rank())) last = m;
        }
        String kind = ms.get(0).kind();
        Double algbw = BusBandwidth.algbwGBps(bytes, maxEnd - maxStart);
        Double f = BusBandwidth.factor(kind, groupSize);
        return new Workload.Instance(
                key,
                bySeq ? "seq" : "ordinal",
                k,
                kind,
                groupSize,
                bytes,
                ms.size(),
                minStart,
                maxStart,
                minEnd,
                maxEnd,
                last.rank(),
                algbw == null || f == null ? null : algbw * f);
    }

    /** straggler_lag: lag percentiles over the matched instances, last-arrival shares, the straggler rank. */
    private static void straggler(Workload w) {
        if (w.instances.isEmpty()) return;
        List<Long> lags = new ArrayList<>();
        for (Workload.Instance i : w.instances) lags.add(i.lag());
        lags.sort(Comparator.naturalOrder());
        double sum = 0;
        for (long lag : lags) sum += lag;
        int n = lags.size();
        Map<String, Workload.Instance> byId = new HashMap<>();
        for (Workload.Instance i : w.instances) byId.put(i.matchKey() + "\u0000" + i.k(), i);
        TreeMap<Integer, long[]> shares = new TreeMap<>(); // rank → took part, last
        for (Workload.Member m : w.members) {
            Workload.Instance i = byId.get(m.matchKey() + "\u0000" + m.k());
            if (i == null) continue;
            long[] s = shares.computeIfAbsent(m.rank(), x -> new long[2]);
            s[0]++;
            if (i.lastRank() != null && i.lastRank() == m.rank()) s[1]++;
        }
        Integer straggler = null;
        double best = -1;
        for (Map.Entry<Integer, long[]> e : shares.entrySet()) {
            double share = (double) e.getValue()[1] / e.getValue()[0];
            w.add(STRAGGLER_LAG_LAST_ARRIVAL_SHARE.at(e.getKey()).value(share));
            if (share > best) { // ranks ascending: on equal shares the lower rank stays
                best = share;
                straggler = e.getKey();
            }
        }
        String status = w.mismatch != null ? STATUS_PARTIAL : STATUS_OK;
        String reason = w.mismatch != null
                ? "ranks disagree on the number of collectives, matched up to the smallest count: " + w.mismatch
                : null;
        Object[][] figures = {
            {"mean_lag_us", sum / n / 1e3},
            {"p50_lag_us", Stats.nearestRank(lags, 0.50) / 1e3},
            {"p95_lag_us", Stats.nearestRank(lags, 0.95) / 1e3},
            {"max_lag_us", lags.get(n - 1) / 1e3},
            {"num_collectives", (double) n},
            {"straggler_rank", straggler == null ? null : straggler.doubleValue()}
        };
        for (Object[] f : figures) {
            Slot slot = STRAGGLER_LAG.figure((String) f[0]).workload();
            if (f[0].equals("straggler_rank") && lags.get(n - 1) == 0) {
                // nobody is late: the tie rule would name a rank that waited for no one (METRICS.md §4)
                w.add(slot.notMeaningful("no collective instance has a lag above 0: every rank started each of the " + n
                        + " matched collectives at the same time, so no rank is a straggler"));
                continue;
            }
            w.add(slot.row((Double) f[1], status, reason));
        }
    }

    interface RankTime {
        Long of(RankSummary r);
    }

    /** (max − min) ÷ max of a per-rank time over the ranks that have any; fewer than two: missing_input. */
    private static void imbalance(Workload w, Metric metric, RankTime time, String fewReason, String zeroReason) {
        if (w.ranks.isEmpty()) return;
        List<Long> times = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            Long t = time.of(r);
            if (t != null) times.add(t);
        }
        long max = times.stream().mapToLong(Long::longValue).max().orElse(0);
        long min = times.stream().mapToLong(Long::longValue).min().orElse(0);
        boolean ok = times.size() >= 2 && max > 0;
        String reason = times.size() < 2 ? String.format(fewReason, times.size()) : ok ? null : zeroReason;
        w.add(metric.workload()
                .row(ok ? (double) (max - min) / max : null, ok ? STATUS_OK : STATUS_MISSING_INPUT, reason));
    }

    /** load_imbalance_ratio (CCL-Bench): per rank |union of kernel intervals|; max ÷ min. */
    private static void loadImbalance(Workload w) {
        List<Long> unions = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            Long u = r.whole.get(RankFactNames.KERNEL_UNION);
            if (u != null) unions.add(u);
        }
        if (unions.size() < 2) return;
        long max = unions.stream().mapToLong(Long::longValue).max().getAsLong();
        long min = unions.stream().mapToLong(Long::longValue).min().getAsLong();
        if (min > 0) w.add(LOAD_IMBALANCE_RATIO.workload().value((double) max / min));
    }

    /** iter_time_skew_ms: per step, max − min over ranks of the step's end; workload = mean over steps. */
    private static void stepEndSkew(Workload w) {
        TreeMap<Long, List<Long>> ends = new TreeMap<>();
        for (RankSummary r : w.ranks) {
            r.steps.forEach((step, f) -> {
                if (f.containsKey(RankFactNames.WINDOW_START))
                    ends.computeIfAbsent(step, k -> new ArrayList<>()).add(f.get(RankFactNames.WINDOW_END));
            });
        }
        List<Double> skews = new ArrayList<>();
        ends.forEach((step, e) -> {
            if (e.size() < 2) return;
            double skew = (e.stream().mapToLong(Long::longValue).max().getAsLong()
                            - e.stream().mapToLong(Long::longValue).min().getAsLong())
                    / 1e6;
            skews.add(skew);
            w.add(ITER_TIME_SKEW_MS.step(null, step).value(skew));
        });
        if (!skews.isEmpty()) w.add(ITER_TIME_SKEW_MS.workload().value(Stats.mean(skews)));
    }
}
