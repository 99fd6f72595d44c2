package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_OK;
import static org.tracelake.schemas.MetricSchema.STATUS_PARTIAL;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.udfs.BusBandwidth;
import org.tracelake.udfs.CollectiveKind;

/**
 * The collectives of the cross-rank join without their waiting (METRICS.md §4). A rank's kernel of a collective runs
 * from its own start until every rank has joined and the data has moved, so all but the last to arrive spend part of
 * it waiting; the shortest duration among an instance's ranks is the one that waited for nobody.
 * <ul>
 *   <li>{@code wait_free_busbw_gbps}, per collective kind: per matched instance with known size, n ≥ 2 and a shortest
 *   duration above 0, busbw from that shortest duration; median, p10, p90 over instances (Spark's linear
 *   percentile, as busbw_gbps), and the algbw median. An uneven all_to_all (its ranks' in and out bytes differ) has
 *   no bus size S: from its split sizes, when every rank of it carries them, the busiest rank's off-rank traffic
 *   max(sent to others, received from others) ÷ the shortest duration (which is S·(n−1)/n ÷ dur for an even one,
 *   the nccl-tests busbw); without splits it is not meaningful for that instance (a key row says so).</li>
 *   <li>{@code collective_wait}, per rank: Σ over the instances it took part in of (its duration − the instance's
 *   shortest): {@code total_ms}, {@code mean_us} per instance, {@code first_arrival_share} (share of instances it
 *   started first; equal starts, the lower rank). Workload: Σ over ranks, the mean per (rank, instance), and the
 *   rank that waited most. A tie names no rank, as for straggler_lag's straggler: when no rank waited, or two or
 *   more share the largest total, {@code most_waiting_rank} is null with status {@code not_meaningful} and a reason
 *   that says which (three ranks waiting for a late fourth wait alike, and the lowest of them is no answer).</li>
 * </ul>
 */
final class WaitFamily {
    private WaitFamily() {}

    static final Metric WAIT_FREE_BUSBW_GBPS = Metric.of("wait_free_busbw_gbps");
    static final Metric COLLECTIVE_WAIT = Metric.of("collective_wait");
    /** A rank's share of the matched instances it arrived first at (and so waited longest). */
    static final Figure COLLECTIVE_WAIT_FIRST_ARRIVAL_SHARE = COLLECTIVE_WAIT.unlisted("first_arrival_share", "ratio");
    /** One collective instance's wait-free bus bandwidth, keyed by the instance. */
    static final Figure WAIT_FREE_BUSBW_INSTANCE = WAIT_FREE_BUSBW_GBPS.unlisted("instance", "GB/s");

    /** A figure of wait_free_busbw_gbps per kind: a percentile of the bus bandwidths, or of the algorithm ones. */
    private record Percentile(Figure figure, double percentile, boolean algbw) {
        Percentile(String figure, double percentile, boolean algbw) {
            this(WAIT_FREE_BUSBW_GBPS.figure(figure), percentile, algbw);
        }
    }

    /** The figures in the order their rows are written. */
    private static final List<Percentile> FIGURES = List.of(
            new Percentile("median", 0.5, false),
            new Percentile("p10", 0.1, false),
            new Percentile("p90", 0.9, false),
            new Percentile("algbw_median", 0.5, true));

    private static final Figure WAIT_TOTAL = COLLECTIVE_WAIT.figure("total_ms");
    private static final Figure WAIT_MEAN = COLLECTIVE_WAIT.figure("mean_us");
    private static final Figure MOST_WAITING = COLLECTIVE_WAIT.figure("most_waiting_rank");

    /** An instance of the join with its members. */
    private record Matched(Workload.Instance instance, List<Workload.Member> members) {
        long shortest() {
            long min = Long.MAX_VALUE;
            for (Workload.Member m : members) min = Math.min(min, m.end() - m.ts());
            return min;
        }

        /** The member that started first: the earliest start; equal starts, the lower rank. */
        int firstRank() {
            Workload.Member first = null;
            for (Workload.Member m : members) {
                if (first == null || m.ts() < first.ts() || (m.ts() == first.ts() && m.rank() < first.rank()))
                    first = m;
            }
            return first.rank();
        }
    }

    static void compute(Workload w) {
        List<Matched> matched = matched(w);
        if (matched.isEmpty()) return;
        waitFreeBandwidth(w, matched);
        collectiveWait(w, matched);
    }

    private static List<Matched> matched(Workload w) {
        Map<String, List<Workload.Member>> byId = new HashMap<>();
        for (Workload.Member m : w.members)
            byId.computeIfAbsent(id(m.matchKey(), m.k()), x -> new ArrayList<>())
                    .add(m);
        List<Matched> out = new ArrayList<>();
        for (Workload.Instance i : w.instances) out.add(new Matched(i, byId.get(id(i.matchKey(), i.k()))));
        return out;
    }

    private static String id(String matchKey, long k) {
        return matchKey + "\u0000" + k;
    }

    private static void waitFreeBandwidth(Workload w, List<Matched> matched) {
        Map<String, List<Workload.Pair>> pairs = new HashMap<>();
        for (Workload.Pair p : w.pairs)
            pairs.computeIfAbsent(id(p.matchKey(), p.k()), x -> new ArrayList<>())
                    .add(p);
        Map<String, List<Double>> busbw = new LinkedHashMap<>();
        Map<String, List<Double>> algbw = new LinkedHashMap<>();
        Map<String, Integer> unevenUnsized = new TreeMap<>();
        for (Matched m : matched) {
            Workload.Instance i = m.instance();
            long dur = m.shortest();
            if (i.bytes() == null || i.groupSize() == null || i.groupSize() < 2 || dur <= 0) continue;
            if (CollectiveKind.ALL_TO_ALL.equals(i.kind()) && uneven(m)) {
                double[] bytes = splitTraffic(m, pairs.get(id(i.matchKey(), i.k())));
                if (bytes == null) {
                    unevenUnsized.merge(i.kind(), 1, Integer::sum);
                    w.add(WAIT_FREE_BUSBW_INSTANCE
                            .key(i.matchKey() + " k=" + i.k())
                            .notMeaningful("an uneven all_to_all (its ranks' in and out bytes differ) without split"
                                    + " sizes on every rank: no bus size S to time"));
                    continue;
                }
                busbw.computeIfAbsent(i.kind(), x -> new ArrayList<>()).add(bytes[0] / dur);
                algbw.computeIfAbsent(i.kind(), x -> new ArrayList<>()).add(bytes[1] / dur);
                continue;
            }
            Double a = BusBandwidth.algbwGBps(i.bytes(), dur);
            Double f = BusBandwidth.factor(i.kind(), i.groupSize());
            if (a == null || f == null) continue;
            busbw.computeIfAbsent(i.kind(), x -> new ArrayList<>()).add(a * f);
            algbw.computeIfAbsent(i.kind(), x -> new ArrayList<>()).add(a);
        }
        busbw.forEach((kind, v) -> {
            Integer left = unevenUnsized.get(kind);
            String status = left == null ? STATUS_OK : STATUS_PARTIAL;
            String reason = left == null
                    ? null
                    : left + " of " + (v.size() + left) + " instances left out: uneven all_to_all without split sizes";
            for (Percentile f : FIGURES) {
                List<Double> samples = f.algbw() ? algbw.get(kind) : v;
                w.add(f.figure().workload().keyed(kind).row(Stats.percentile(samples, f.percentile()), status, reason));
            }
        });
        unevenUnsized.forEach((kind, n) -> {
            if (busbw.containsKey(kind)) return;
            String reason = "every one of the " + n + " sized " + kind + " instances is uneven (its ranks' in and out"
                    + " bytes differ) and carries no split sizes: no bus size S to time";
            for (Percentile f : FIGURES) {
                w.add(f.figure().workload().keyed(kind).notMeaningful(reason));
            }
        });
    }

    /** An all_to_all whose ranks move different amounts: some rank's in and out bytes differ, or ranks' in bytes do. */
    private static boolean uneven(Matched m) {
        Long in = null;
        for (Workload.Member mb : m.members()) {
            CommInstance c = mb.op();
            if (c.inBytes() != null && c.outBytes() != null && !c.inBytes().equals(c.outBytes())) return true;
            if (c.inBytes() != null) {
                if (in != null && !in.equals(c.inBytes())) return true;
                in = c.inBytes();
            }
        }
        return false;
    }

    /**
     * From the rank-pair volumes of an all_to_all (all_to_all_pairs), when every rank of the instance sent a known
     * amount to each destination: {the busiest rank's max(bytes sent to other ranks, bytes received from other
     * ranks), the largest bytes a rank sent in all}; ÷ a duration in ns they are GB/s. Null when some rank of the
     * instance lacks splits.
     */
    private static double[] splitTraffic(Matched m, List<Workload.Pair> pairs) {
        if (pairs == null) return null;
        Map<Integer, long[]> byRank = new HashMap<>(); // rank → sent off-rank, received off-rank, sent in all
        for (Workload.Member mb : m.members()) byRank.put(mb.rank(), new long[3]);
        Set<Integer> senders = new HashSet<>();
        for (Workload.Pair p : pairs) {
            if (p.bytes() == null) return null;
            senders.add(p.srcRank());
            long[] src = byRank.computeIfAbsent(p.srcRank(), x -> new long[3]);
            src[2] += p.bytes();
            if (p.srcRank() == p.dstRank()) continue;
            src[0] += p.bytes();
            byRank.computeIfAbsent(p.dstRank(), x -> new long[3])[1] += p.bytes();
        }
        for (Workload.Member mb : m.members()) if (!senders.contains(mb.rank())) return null;
        long link = 0;
        long sent = 0;
        for (long[] t : byRank.values()) {
            link = Math.max(link, Math.max(t[0], t[1]));
            sent = Math.max(sent, t[2]);
        }
        return new double[] {link, sent};
    }

    private static void collectiveWait(Workload w, List<Matched> matched) {
        TreeMap<Integer, long[]> byRank = new TreeMap<>(); // rank → Σ wait ns, instances, first arrivals
        for (Matched m : matched) {
            long shortest = m.shortest();
            int first = m.firstRank();
            for (Workload.Member mb : m.members()) {
                long[] r = byRank.computeIfAbsent(mb.rank(), x -> new long[3]);
                r[0] += (mb.end() - mb.ts()) - shortest;
                r[1]++;
                if (mb.rank() == first) r[2]++;
            }
        }
        long total = 0;
        long instances = 0;
        List<Integer> most = new ArrayList<>(); // the ranks with the largest total (ranks ascending)
        long mostNs = -1;
        for (Map.Entry<Integer, long[]> e : byRank.entrySet()) {
            long[] r = e.getValue();
            w.add(WAIT_TOTAL.at(e.getKey()).value(r[0] / 1e6));
            w.add(WAIT_MEAN.at(e.getKey()).value(r[0] / 1e3 / r[1]));
            w.add(COLLECTIVE_WAIT_FIRST_ARRIVAL_SHARE.at(e.getKey()).value((double) r[2] / r[1]));
            total += r[0];
            instances += r[1];
            if (r[0] > mostNs) {
                mostNs = r[0];
                most.clear();
            }
            if (r[0] == mostNs) most.add(e.getKey());
        }
        w.add(WAIT_TOTAL.workload().value(total / 1e6));
        w.add(WAIT_MEAN.workload().value(total / 1e3 / instances));
        if (total == 0) {
            w.add(MOST_WAITING
                    .workload()
                    .notMeaningful("no rank waited: every rank's kernel of each of the " + matched.size()
                            + " matched collectives lasted as long as the shortest"));
        } else if (most.size() > 1) {
            w.add(MOST_WAITING
                    .workload()
                    .notMeaningful("a tie: ranks " + most + " each waited " + mostNs / 1e6
                            + " ms in all, the most; no one rank waited most"));
        } else {
            w.add(MOST_WAITING.workload().value(most.get(0).doubleValue()));
        }
    }
}
