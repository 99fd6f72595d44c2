package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.MetricSchema;

/**
 * The hang family (METRICS.md §4 "Hangs", from NCCL Flight Recorder dumps): workload-scope rows from the workload's
 * {@code collective_hangs} rows, for every workload with dumps. A workload with dumps and no stuck collective gets 0
 * (status ok); a workload without dumps gets no row here (its missing_input row comes from the catalog's gap rows).
 * <ul>
 *   <li>hang_root_ranks: how many ranks the root rows name (the union of their missing_ranks); the ranks, and the
 *       root collectives (group name, description, sequence id, op), in the reason;</li>
 *   <li>hung_groups: how many process groups have a stuck collective; the groups in the reason.</li>
 * </ul>
 */
public final class HangMetrics {
    private HangMetrics() {}

    static final Metric HANG_ROOT_RANKS = Metric.of("hang_root_ranks");
    static final Metric HUNG_GROUPS = Metric.of("hung_groups");

    static final String NO_ROOT =
            "no stuck collective: no member of any group is behind a collective another member holds";
    static final String NO_GROUP = "no stuck collective in any process group";

    /** The two rows of a workload that has dumps, from its collective_hangs rows (any order). */
    public static List<MetricRow> workload(String workload, List<CollectiveHang> hangs) {
        return List.of(rootRanks(workload, hangs), hungGroups(workload, hangs));
    }

    private static MetricRow rootRanks(String workload, List<CollectiveHang> hangs) {
        List<CollectiveHang> roots =
                hangs.stream().filter(CollectiveHang::isRoot).toList();
        // 0 ranks, as METRICS.md says (not Spark's size(NULL), which is -1 in a session without ANSI mode)
        if (roots.isEmpty()) return row(workload, HANG_ROOT_RANKS, 0.0, NO_ROOT);
        TreeSet<Integer> ranks = new TreeSet<>();
        for (CollectiveHang h : roots)
            if (h.missingRanks() != null)
                h.missingRanks().stream().filter(Objects::nonNull).forEach(ranks::add);
        List<String> described = new ArrayList<>();
        for (CollectiveHang h : roots) {
            if (h.pgName() == null || h.missingRanks() == null)
                continue; // concat of a null is null, which the list drops
            described.add("group " + h.pgName() + " (" + Objects.requireNonNullElse(h.pgDesc(), "?") + ") #"
                    + h.collectiveSeqId() + " " + Objects.requireNonNullElse(h.op(), "?") + " missing "
                    + joined(h.missingRanks(), ","));
        }
        return row(
                workload,
                HANG_ROOT_RANKS,
                (double) ranks.size(),
                "ranks " + joined(new ArrayList<>(ranks), ", ") + "; root collectives: "
                        + String.join("; ", SparkOrder.sortedStrings(described)));
    }

    private static MetricRow hungGroups(String workload, List<CollectiveHang> hangs) {
        // a group is a distinct (name, description) among the stuck rows
        Set<List<String>> groups = new LinkedHashSet<>();
        for (CollectiveHang h : hangs) groups.add(Arrays.asList(h.pgName(), h.pgDesc()));
        if (groups.isEmpty()) return row(workload, HUNG_GROUPS, 0.0, NO_GROUP);
        List<String> names = new ArrayList<>();
        for (List<String> g : groups) {
            if (g.get(0) != null) names.add(g.get(0) + " (" + Objects.requireNonNullElse(g.get(1), "?") + ")");
        }
        return row(
                workload,
                HUNG_GROUPS,
                (double) groups.size(),
                "groups " + String.join(", ", SparkOrder.sortedStrings(names)));
    }

    private static MetricRow row(String workload, Metric metric, double value, String reason) {
        return metric.workload().row(value, MetricSchema.STATUS_OK, reason).in(workload);
    }

    /** array_join of ints: the non-null elements, in order. */
    private static String joined(List<Integer> values, String separator) {
        return values.stream().filter(Objects::nonNull).map(String::valueOf).collect(Collectors.joining(separator));
    }
}
