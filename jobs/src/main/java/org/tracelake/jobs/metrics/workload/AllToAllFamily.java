package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.DtypeSize;

/**
 * all_to_all_imbalance (METRICS.md §4): per all_to_all instance of the cross-rank join whose ranks carry split sizes
 * (Kineto's {@code In split size}, else the execution trace's all_to_allv inputs), max ÷ mean over its ranks of the
 * bytes each rank sent; and the rank-pair volume (all_to_all_pairs: split j of rank i goes to the j-th rank of the
 * group).
 */
final class AllToAllFamily {

    static final Metric ALL_TO_ALL_IMBALANCE = Metric.of("all_to_all_imbalance");
    /** One all_to_all instance's imbalance, keyed by the instance. */
    static final Figure ALL_TO_ALL_IMBALANCE_INSTANCE = ALL_TO_ALL_IMBALANCE.unlisted("instance", "ratio");

    private static final Figure MEAN = ALL_TO_ALL_IMBALANCE.figure("mean");
    private static final Figure MAX = ALL_TO_ALL_IMBALANCE.figure("max");

    private AllToAllFamily() {}

    /** One rank's part in an all_to_all instance, with its input splits (element counts). */
    private record Part(
            String matchKey,
            long k,
            String source,
            int rank,
            String pgRanks,
            List<Long> splits,
            Long elemBytes,
            Long inBytes) {
        boolean sized() {
            return splits != null && !splits.isEmpty();
        }

        /** Bytes sent: Σ splits × element size; without splits, in_bytes (evenly). */
        Long sent() {
            if (!sized()) return inBytes;
            long sum = 0;
            for (Long s : splits) {
                if (s == null) return null;
                sum += s;
            }
            return elemBytes == null ? null : sum * elemBytes;
        }
    }

    static void compute(Workload w) {
        List<Part> parts = new ArrayList<>();
        for (Workload.Member m : w.members) {
            CommInstance c = m.op();
            if (!CollectiveKind.ALL_TO_ALL.equals(m.kind()) || !CollectiveKind.ALL_TO_ALL.equals(c.kind())) continue;
            Integer size = DtypeSize.bytes(c.dtype());
            parts.add(new Part(
                    m.matchKey(),
                    m.k(),
                    "kineto",
                    m.rank(),
                    c.pgRanks(),
                    JsonArrays.longs(c.inSplitSize()),
                    size == null ? null : size.longValue(),
                    c.inBytes()));
        }
        if (parts.stream().noneMatch(Part::sized)) parts.addAll(etParts(w));
        // the instances at least one of whose ranks carries splits
        Map<String, List<Part>> bySource = new LinkedHashMap<>();
        for (Part p : parts)
            bySource.computeIfAbsent(p.source + "\u0000" + p.matchKey + "\u0000" + p.k, x -> new ArrayList<>())
                    .add(p);
        Map<String, List<Part>> instances = new TreeMap<>();
        for (List<Part> group : bySource.values()) {
            if (group.stream().noneMatch(Part::sized)) continue;
            for (Part p : group) {
                instances
                        .computeIfAbsent(p.matchKey + "\u0000" + p.k, x -> new ArrayList<>())
                        .add(p);
                if (p.sized()) pairs(w, p);
            }
        }
        Map<String, List<Double>> byKey = new TreeMap<>();
        List<Double> all = new ArrayList<>();
        for (List<Part> group : instances.values()) {
            List<Long> sent = new ArrayList<>();
            for (Part p : group) if (p.sent() != null) sent.add(p.sent());
            if (group.size() < 2 || sent.isEmpty()) continue;
            double mean = Stats.mean(sent);
            if (!(mean > 0)) continue;
            double imbalance = sent.stream().mapToLong(Long::longValue).max().getAsLong() / mean;
            Part first = group.get(0);
            all.add(imbalance);
            byKey.computeIfAbsent(first.matchKey, x -> new ArrayList<>()).add(imbalance);
            w.add(ALL_TO_ALL_IMBALANCE_INSTANCE
                    .key(first.matchKey + " k=" + first.k)
                    .value(imbalance));
        }
        if (all.isEmpty()) return;
        w.add(MEAN.workload().value(Stats.mean(all)));
        w.add(MAX.workload()
                .value(all.stream().mapToDouble(Double::doubleValue).max().getAsDouble()));
        byKey.forEach((key, v) -> {
            w.add(MEAN.key(key).value(Stats.mean(v)));
            w.add(MAX.key(key)
                    .value(v.stream().mapToDouble(Double::doubleValue).max().getAsDouble()));
        });
    }

    /**
     * The execution trace's all_to_allv inputs: one instance per (process group, comm seq). An op is recorded twice
     * (record_param_comms and the nccl:all_to_all under it); record_param_comms holds the splits.
     */
    private static List<Part> etParts(Workload w) {
        Map<String, EtAllToAll> picked = new HashMap<>();
        Comparator<EtAllToAll> preference = Comparator.comparingInt(
                        (EtAllToAll n) -> "record_param_comms".equals(n.name()) ? 0 : 1)
                .thenComparingLong(EtAllToAll::ordinal);
        for (EtAllToAll n : w.etAllToAll) {
            String id = n.rank() + "\u0000" + n.pgName() + "\u0000" + n.commSeq();
            picked.merge(id, n, (a, b) -> preference.compare(a, b) <= 0 ? a : b);
        }
        List<Part> out = new ArrayList<>();
        for (EtAllToAll n : picked.values()) {
            String key = n.pgName() != null ? "pg=" + n.pgName() + " kind=all_to_all" : "kind=all_to_all";
            Long elem =
                    n.inNelems() != null && n.inNelems() > 0 && n.inBytes() != null ? n.inBytes() / n.inNelems() : null;
            out.add(new Part(
                    key, n.commSeq(), "et", n.rank(), null, JsonArrays.longs(n.inSplitSizes()), elem, n.inBytes()));
        }
        return out;
    }

    private static void pairs(Workload w, Part p) {
        List<Integer> group = JsonArrays.ints(p.pgRanks);
        for (int j = 0; j < p.splits.size(); j++) {
            Integer dst = group != null && j < group.size() ? group.get(j) : null;
            Long n = p.splits.get(j);
            w.pairs.add(new Workload.Pair(
                    p.matchKey,
                    p.k,
                    p.source,
                    p.rank,
                    dst == null ? j : dst,
                    n == null || p.elemBytes == null ? null : n * p.elemBytes));
        }
    }
}
