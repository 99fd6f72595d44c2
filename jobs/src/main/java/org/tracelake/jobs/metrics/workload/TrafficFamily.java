package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_OK;
import static org.tracelake.schemas.MetricSchema.STATUS_PARTIAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.CollectiveKind;

/**
 * traffic_distribution (METRICS.md §4): Σ over ranks of the bus size S of communication by parallelism — send_recv
 * → pp, all_to_all → ep; other kinds by their process group's ranks against the card's layout (tp groups are runs of
 * tp consecutive ranks, dp groups strided within one pipeline stage); key = `pg_ranks` when every grouped activity
 * names its group's ranks, else `heuristic` (the group size alone decides).
 */
final class TrafficFamily {
    private TrafficFamily() {}

    static final Metric TRAFFIC_DISTRIBUTION = Metric.of("traffic_distribution");

    private static final String[] PARALLELISMS = {"dp", "tp", "pp", "ep", "unknown"};

    static void compute(Workload w) {
        if (w.ranks.isEmpty()) return;
        long tp = Math.max(w.card.tp() == null ? 1 : w.card.tp(), 1);
        long pp = Math.max(w.card.pp() == null ? 1 : w.card.pp(), 1);
        long world = w.card.deviceCount() != null ? w.card.deviceCount() : w.ranks.size();
        long stageSize = Math.max(world / pp, 1);
        long dpSize = tp * pp == 0 ? 0 : world / (tp * pp);
        Map<String, long[]> sums = new LinkedHashMap<>(); // parallelism → Σ known bytes, n, n unsized
        for (String p : PARALLELISMS) sums.put(p, new long[3]);
        boolean heuristic = false;
        boolean any = false;
        for (RankSummary r : w.ranks) {
            for (CommInstance c : r.comm) {
                any = true;
                List<Integer> members = present(JsonArrays.ints(c.pgRanks()));
                boolean byHeuristic = !CollectiveKind.SEND_RECV.equals(c.kind())
                        && !CollectiveKind.ALL_TO_ALL.equals(c.kind())
                        && (members == null || members.isEmpty());
                heuristic |= byHeuristic;
                String p = classify(c, members, tp, stageSize, dpSize);
                long[] s = sums.get(p);
                s[1]++;
                if (c.sizeBytes() != null) s[0] += c.sizeBytes();
                else s[2]++;
            }
        }
        if (!any) return;
        for (String p : PARALLELISMS) {
            long[] s = sums.get(p);
            w.add(TRAFFIC_DISTRIBUTION
                    .figure(p + "_bytes")
                    .workload()
                    .keyed(heuristic ? "heuristic" : "pg_ranks")
                    .row(
                            (double) s[0],
                            s[2] > 0 ? STATUS_PARTIAL : STATUS_OK,
                            s[2] > 0 ? s[2] + " of " + s[1] + " communication activities have no known size" : null));
        }
    }

    private static String classify(CommInstance c, List<Integer> members, long tp, long stageSize, long dpSize) {
        if (CollectiveKind.SEND_RECV.equals(c.kind())) return "pp";
        if (CollectiveKind.ALL_TO_ALL.equals(c.kind())) return "ep";
        if (members != null && !members.isEmpty()) {
            if (members.size() < 2) return "unknown";
            if (tp > 1 && same(members, m -> m / tp)) return "tp";
            if (same(members, m -> m % tp) && same(members, m -> m / stageSize)) return "dp";
            return "unknown";
        }
        Integer g = c.groupSize();
        if (g != null && tp > 1 && g == tp && g != dpSize) return "tp";
        if (g != null && g >= 2 && g == dpSize && (tp == 1 || g != tp)) return "dp";
        return "unknown";
    }

    /** The group's ranks without nulls (array_min and array_max skip them), or null. */
    static List<Integer> present(List<Integer> members) {
        return members == null
                ? null
                : members.stream().filter(Objects::nonNull).toList();
    }

    private interface Of {
        long apply(int member);
    }

    private static boolean same(List<Integer> members, Of f) {
        long first = f.apply(members.get(0));
        for (int m : members) if (f.apply(m) != first) return false;
        return true;
    }
}
