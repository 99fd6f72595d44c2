package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.IntervalList;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.ActivityClass;

/**
 * Why the last arriver of a collective instance was late (METRICS.md §4 "Why"): its lead-in window (since its previous
 * communication ended) against the other ranks' medians — it entered late ({@code upstream}), its GPU had more work
 * ({@code device}), its GPU waited for work ({@code host}), or {@code unexplained}. lateness_cause per rank and for
 * the straggler, lateness_top_kernel (the kernel whose extra time made the straggler late), and the cause and window
 * figures of the {@code collectives} and {@code collective_members} rows.
 */
final class LatenessFamily {
    private LatenessFamily() {}

    static final Metric LATENESS_CAUSE = Metric.of("lateness_cause");
    static final Metric LATENESS_TOP_KERNEL = Metric.of("lateness_top_kernel");
    /** A rank's share of its late arrivals by cause (the workload row is the straggler's largest, keyed by cause). */
    static final Figure LATENESS_CAUSE_DEVICE = LATENESS_CAUSE.unlisted("device", "fraction");

    static final Figure LATENESS_CAUSE_HOST = LATENESS_CAUSE.unlisted("host", "fraction");
    static final Figure LATENESS_CAUSE_UPSTREAM = LATENESS_CAUSE.unlisted("upstream", "fraction");
    static final Figure LATENESS_CAUSE_UNEXPLAINED = LATENESS_CAUSE.unlisted("unexplained", "fraction");
    /** How many of a rank's late arrivals have a cause. */
    static final Figure LATENESS_CAUSE_EXPLAINED = LATENESS_CAUSE.unlisted("explained_instances", "count");

    /** Instances with a smaller lag get no cause: 10 µs. */
    static final long MIN_LAG_NS = 10_000;

    static final String DEVICE = "device";
    static final String HOST = "host";
    static final String UPSTREAM = "upstream";
    static final String UNEXPLAINED = "unexplained";
    /** The causes in the order ties between shares are broken. */
    static final List<String> CAUSES = List.of(DEVICE, HOST, UPSTREAM, UNEXPLAINED);

    /** A rank's share of its late arrivals per cause, in CAUSES' order. */
    private static final List<Figure> CAUSE_SHARES =
            List.of(LATENESS_CAUSE_DEVICE, LATENESS_CAUSE_HOST, LATENESS_CAUSE_UPSTREAM, LATENESS_CAUSE_UNEXPLAINED);

    static void compute(Workload w) {
        Map<Workload.Member, Map<String, Long>> kernels = windows(w);
        Map<String, List<Workload.Member>> byInstance = new HashMap<>();
        for (Workload.Member m : w.members)
            byInstance
                    .computeIfAbsent(m.matchKey() + "\u0000" + m.k(), x -> new ArrayList<>())
                    .add(m);
        TreeMap<Integer, long[]> byRank = new TreeMap<>(); // last rank → count per cause (CAUSES order)
        List<Late> late = new ArrayList<>();
        for (Workload.Instance i : w.instances) {
            if (i.lag() < MIN_LAG_NS || i.lastRank() == null) continue;
            List<Workload.Member> ms = byInstance.get(i.matchKey() + "\u0000" + i.k());
            Workload.Member last = null;
            List<Workload.LeadIn> others = new ArrayList<>();
            List<Workload.Member> otherMembers = new ArrayList<>();
            for (Workload.Member m : ms) {
                if (m.rank() == i.lastRank() && last == null) last = m;
                else if (w.leadIns.containsKey(m)) {
                    others.add(w.leadIns.get(m));
                    otherMembers.add(m);
                }
            }
            Workload.LeadIn l = last == null ? null : w.leadIns.get(last);
            if (l == null || others.isEmpty()) continue;
            Workload.Cause c = cause(l, others, i.lag());
            w.causes.put(i, c);
            byRank.computeIfAbsent(i.lastRank(), x -> new long[CAUSES.size()])[CAUSES.indexOf(c.cause())]++;
            late.add(new Late(i.lastRank(), c.cause(), kernels.get(last), otherMembers));
        }
        byRank.forEach((rank, counts) -> {
            long n = 0;
            for (long x : counts) n += x;
            for (int k = 0; k < CAUSES.size(); k++)
                w.add(CAUSE_SHARES.get(k).at(rank).value((double) counts[k] / n));
            w.add(LATENESS_CAUSE_EXPLAINED.at(rank).value((double) n));
        });
        Integer straggler = stragglerRank(w);
        straggler(w, straggler, byRank);
        topKernel(w, straggler, late, kernels);
    }

    /** One explained late arrival: who, why, and the kernels of its and the others' windows. */
    private record Late(int rank, String cause, Map<String, Long> kernels, List<Workload.Member> others) {}

    /**
     * METRICS.md's rule, first match: upstream if Δstart ≥ lag/2; device if Δcompute ≥ lag/2 and Δcompute ≥ Δidle;
     * host if Δidle ≥ lag/2; else unexplained. Medians over the other ranks, nearest-rank.
     */
    static Workload.Cause cause(Workload.LeadIn late, List<Workload.LeadIn> others, long lag) {
        List<Long> from = new ArrayList<>();
        List<Long> compute = new ArrayList<>();
        List<Long> idle = new ArrayList<>();
        for (Workload.LeadIn o : others) {
            from.add(o.from());
            compute.add(o.computeNs());
            idle.add(o.idleNs());
        }
        long dStart = late.from() - median(from);
        long dCompute = late.computeNs() - median(compute);
        long dIdle = late.idleNs() - median(idle);
        String cause;
        if (2 * dStart >= lag) cause = UPSTREAM;
        else if (2 * dCompute >= lag && dCompute >= dIdle) cause = DEVICE;
        else if (2 * dIdle >= lag) cause = HOST;
        else cause = UNEXPLAINED;
        return new Workload.Cause(cause, dStart, dCompute, dIdle);
    }

    /** The nearest-rank median: the ⌈n/2⌉-th smallest. */
    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get((sorted.size() + 1) / 2 - 1);
    }

    /** Each member's window from its rank's part, into w.leadIns; the kernels of each window, by member. */
    private static Map<Workload.Member, Map<String, Long>> windows(Workload w) {
        Map<Integer, RankSummary> ranks = new HashMap<>();
        Map<Integer, IdentityHashMap<CommInstance, Integer>> index = new HashMap<>();
        for (RankSummary r : w.ranks) ranks.put(r.rank, r);
        IdentityHashMap<Workload.Member, Map<String, Long>> kernels = new IdentityHashMap<>();
        for (Workload.Member m : w.members) {
            RankSummary r = ranks.get(m.rank());
            LeadInPart.LeadIns part = r == null ? null : r.part(LeadInPart.LeadIns.class);
            if (part == null) continue;
            Integer at = index.computeIfAbsent(m.rank(), x -> positions(r.comm)).get(m.op());
            if (at == null) continue;
            w.leadIns.put(m, new Workload.LeadIn(part.from()[at], part.compute()[at], part.idle()[at]));
            Map<String, Long> k = part.kernelNs().get(at);
            if (k != null) kernels.put(m, k);
        }
        return kernels;
    }

    private static IdentityHashMap<CommInstance, Integer> positions(List<CommInstance> comm) {
        IdentityHashMap<CommInstance, Integer> out = new IdentityHashMap<>();
        for (int i = 0; i < comm.size(); i++) out.put(comm.get(i), i);
        return out;
    }

    /** The straggler_lag family's straggler rank, or null when it named none. */
    private static Integer stragglerRank(Workload w) {
        for (MetricRow r : w.metrics) {
            if (r.metric().equals("straggler_lag")
                    && "straggler_rank".equals(r.figure())
                    && SCOPE_WORKLOAD.equals(r.scope())
                    && r.value() != null) {
                return r.value().intValue();
            }
        }
        return null;
    }

    /** The workload row: the straggler's dominant cause (key) and its share (value). */
    private static void straggler(Workload w, Integer straggler, Map<Integer, long[]> byRank) {
        long[] counts = straggler == null ? null : byRank.get(straggler);
        if (counts == null) {
            w.add(LATENESS_CAUSE
                    .workload()
                    .notMeaningful(
                            straggler == null
                                    ? "no straggler rank (straggler_lag names none)"
                                    : "the straggler, rank " + straggler + ", arrived last at no collective instance"
                                            + " with a lag of at least 10 us"));
            return;
        }
        long n = 0;
        int best = 0;
        for (int k = 0; k < counts.length; k++) {
            n += counts[k];
            if (counts[k] > counts[best]) best = k; // ties: the earlier cause of CAUSES stays
        }
        w.add(LATENESS_CAUSE.workload().keyed(CAUSES.get(best)).value((double) counts[best] / n));
    }

    /**
     * lateness_top_kernel: over the straggler's device instances, per compute kernel name, its Σ dur in the
     * straggler's window minus the median over the other ranks of theirs (0 for a rank without it), summed; the name
     * with the largest total (ties: the name first in order).
     */
    private static void topKernel(
            Workload w, Integer straggler, List<Late> late, Map<Workload.Member, Map<String, Long>> kernels) {
        Map<String, Long> excess = new TreeMap<>();
        boolean any = false;
        for (Late l : late) {
            if (straggler == null || l.rank() != straggler || !DEVICE.equals(l.cause())) continue;
            any = true;
            TreeSet<String> names = new TreeSet<>();
            if (l.kernels() != null) names.addAll(l.kernels().keySet());
            for (Workload.Member o : l.others()) {
                Map<String, Long> k = kernels.get(o);
                if (k != null) names.addAll(k.keySet());
            }
            for (String name : names) {
                List<Long> theirs = new ArrayList<>();
                for (Workload.Member o : l.others()) {
                    Map<String, Long> k = kernels.get(o);
                    theirs.add(k == null ? 0L : k.getOrDefault(name, 0L));
                }
                long mine = l.kernels() == null ? 0L : l.kernels().getOrDefault(name, 0L);
                excess.merge(name, mine - median(theirs), Long::sum);
            }
        }
        String top = null;
        for (Map.Entry<String, Long> e : excess.entrySet())
            if (top == null || e.getValue() > excess.get(top)) top = e.getKey();
        if (!any || top == null) {
            w.add(LATENESS_TOP_KERNEL
                    .workload()
                    .notMeaningful(
                            straggler == null
                                    ? "no straggler rank (straggler_lag names none)"
                                    : "the straggler, rank " + straggler + ", was never late because its GPU had more"
                                            + " work (no device-caused late arrival)"));
            return;
        }
        w.add(LATENESS_TOP_KERNEL.workload().keyed(top).value(excess.get(top) / 1e3));
    }

    /**
     * The lead-in window of each of a rank's collective instances (METRICS.md §4 "Why"): {@code W = [p, s)} from the latest
     * end of the rank's communication activities that end at or before the instance's start {@code s} (any kind, stream
     * or group; with none, the start of the step window holding {@code s}; with no such window, the rank's first GPU
     * activity), and what the GPU did in it: compute time, idle time, and compute time per kernel name of the kernels
     * starting in it. What lateness_cause compares across the ranks of an instance.
     */
    static final class LeadInPart implements RankPart {
        private final IntervalList gpu = new IntervalList();
        private final IntervalList compute = new IntervalList();
        private long[] commEnds = new long[64];
        private int comms;
        private long[] kernelStarts = new long[256];
        private long[] kernelDurs = new long[256];
        private String[] kernelNames = new String[256];
        private int kernels;
        private Long firstGpu;

        @Override
        public void accept(RankEvent e) {
            if (!e.isGpu() || e.ts == null) return;
            if (firstGpu == null) firstGpu = e.ts; // GPU activities come by start
            gpu.add(e.ts, e.end());
            if (ActivityClass.COMM.equals(e.activityClass)) {
                if (comms == commEnds.length) commEnds = Arrays.copyOf(commEnds, comms * 2);
                commEnds[comms++] = e.end();
            } else if (ActivityClass.COMPUTE.equals(e.activityClass)) {
                compute.add(e.ts, e.end());
                if (e.name == null) return;
                if (kernels == kernelStarts.length) {
                    kernelStarts = Arrays.copyOf(kernelStarts, kernels * 2);
                    kernelDurs = Arrays.copyOf(kernelDurs, kernels * 2);
                    kernelNames = Arrays.copyOf(kernelNames, kernels * 2);
                }
                kernelStarts[kernels] = e.ts;
                kernelDurs[kernels] = e.dur;
                kernelNames[kernels++] = e.name;
            }
        }

        @Override
        public Serializable finish(RankSummary done) {
            long[] ends = Arrays.copyOf(commEnds, comms);
            Arrays.sort(ends);
            List<long[]> windows = new ArrayList<>();
            done.steps.forEach((step, f) -> {
                Long start = f.get(RankFactNames.WINDOW_START);
                if (start != null) windows.add(new long[] {start, f.get(RankFactNames.WINDOW_END)});
            });
            int n = done.comm.size();
            LeadIns out = new LeadIns(new long[n], new long[n], new long[n], new ArrayList<>(n));
            for (int i = 0; i < n; i++) {
                long s = done.comm.get(i).ts();
                Long p = latestAtOrBefore(ends, s);
                if (p == null) p = stepStartHolding(windows, s);
                if (p == null) p = firstGpu == null ? s : firstGpu;
                long from = Math.min(p, s);
                out.from[i] = p;
                out.compute[i] = compute.lengthWithin(from, s);
                out.idle[i] = (s - from) - gpu.lengthWithin(from, s);
                out.kernelNs.add(kernelsStartingIn(from, s));
            }
            return out;
        }

        /** The largest value of the sorted array that is ≤ t, or null. */
        private static Long latestAtOrBefore(long[] sorted, long t) {
            int lo = 0;
            int hi = sorted.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (sorted[mid] <= t) lo = mid + 1;
                else hi = mid;
            }
            return lo == 0 ? null : sorted[lo - 1];
        }

        private static Long stepStartHolding(List<long[]> windows, long t) {
            for (long[] w : windows) if (w[0] <= t && t < w[1]) return w[0];
            return null;
        }

        /** Σ dur per name of the compute kernels starting in [from, to), or null when none does. */
        private Map<String, Long> kernelsStartingIn(long from, long to) {
            int lo = 0;
            int hi = kernels;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (kernelStarts[mid] < from) lo = mid + 1;
                else hi = mid;
            }
            Map<String, Long> out = null;
            for (int k = lo; k < kernels && kernelStarts[k] < to; k++) {
                if (out == null) out = new HashMap<>();
                out.merge(kernelNames[k], kernelDurs[k], Long::sum);
            }
            return out;
        }

        /**
         * Per collective instance of the rank (aligned with {@link RankSummary#comm}): the window's start {@code p} (ns),
         * its compute and idle time (ns), and Σ dur per compute kernel name starting in it (null: none).
         */
        public record LeadIns(long[] from, long[] compute, long[] idle, List<Map<String, Long>> kernelNs)
                implements Serializable {}
    }
}
