package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_OK;
import static org.tracelake.schemas.MetricSchema.STATUS_PARTIAL;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankSummary;

/**
 * comm_locality (METRICS.md §4): a collective instance is intra_node when every rank of its process group lies on one
 * node (node = global rank div the card's count_per_node), else inter_node; an instance without its group's ranks is
 * taken to span the world (the card's total_count or the ranks traced, whichever is larger). Bytes = Σ over ranks of
 * the bus size S; time = Σ over ranks of the instances' durations. Per kind (key) and for the workload.
 */
final class LocalityFamily {
    private LocalityFamily() {}

    static final Metric COMM_LOCALITY = Metric.of("comm_locality");

    /** Σ inter/intra bytes and ns, instances, instances taken to span the world, instances without a size. */
    private static final class Sums {
        long interBytes;
        long intraBytes;
        long interNs;
        long intraNs;
        long n;
        long nWorld;
        long nUnsized;
    }

    static void compute(Workload w) {
        Long perNode = w.card.countPerNode();
        if (perNode == null || perNode <= 0 || w.ranks.isEmpty()) return;
        int maxRank = w.ranks.stream().mapToInt(r -> r.rank).max().getAsInt();
        long world = Math.max(w.card.deviceCount() == null ? 0 : w.card.deviceCount(), maxRank + 1L);
        Map<String, Sums> byKind = new TreeMap<>();
        Sums all = new Sums();
        for (RankSummary r : w.ranks) {
            for (CommInstance c : r.comm) {
                List<Integer> members = TrafficFamily.present(JsonArrays.ints(c.pgRanks()));
                boolean byWorld = members == null || members.isEmpty();
                boolean intra;
                if (byWorld) intra = (world - 1) / perNode == 0;
                else {
                    long node = members.get(0) / perNode;
                    intra = members.stream().allMatch(m -> m / perNode == node);
                }
                String kind = c.kind() == null ? "unknown" : c.kind();
                for (Sums s : new Sums[] {byKind.computeIfAbsent(kind, k -> new Sums()), all}) {
                    long bytes = c.sizeBytes() == null ? 0 : c.sizeBytes();
                    if (intra) {
                        s.intraBytes += bytes;
                        s.intraNs += c.dur();
                    } else {
                        s.interBytes += bytes;
                        s.interNs += c.dur();
                    }
                    s.n++;
                    if (byWorld) s.nWorld++;
                    if (c.sizeBytes() == null) s.nUnsized++;
                }
            }
        }
        if (all.n == 0) return;
        byKind.forEach((kind, s) -> rows(w, s, Where.key(kind)));
        rows(w, all, Where.workload());
    }

    private static final Figure INTER_BYTES = COMM_LOCALITY.figure("inter_node_bytes");
    private static final Figure INTRA_BYTES = COMM_LOCALITY.figure("intra_node_bytes");
    private static final Figure INTER_MS = COMM_LOCALITY.figure("inter_node_time_ms");
    private static final Figure INTRA_MS = COMM_LOCALITY.figure("intra_node_time_ms");

    private static void rows(Workload w, Sums s, Where where) {
        String mode = s.nWorld == 0
                ? "mode=pg_ranks"
                : "mode=world (" + s.nWorld + " of " + s.n + " instances name no process-group ranks)";
        String unsized = s.nUnsized > 0 ? "; " + s.nUnsized + " of " + s.n + " instances have no known size" : "";
        String bytesStatus = s.nUnsized > 0 ? STATUS_PARTIAL : STATUS_OK;
        w.add(INTER_BYTES.at(where).row((double) s.interBytes, bytesStatus, mode + unsized));
        w.add(INTRA_BYTES.at(where).row((double) s.intraBytes, bytesStatus, mode + unsized));
        w.add(INTER_MS.at(where).row(s.interNs / 1e6, STATUS_OK, mode));
        w.add(INTRA_MS.at(where).row(s.intraNs / 1e6, STATUS_OK, mode));
    }
}
