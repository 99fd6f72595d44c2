package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.CoGroupFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.FlightRecorderSchema;
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

    static final String NO_ROOT =
            "no stuck collective: no member of any group is behind a collective another member holds";
    static final String NO_GROUP = "no stuck collective in any process group";

    /** The two rows of a workload that has dumps, from its collective_hangs rows (any order). */
    public static List<MetricRow> workload(String workload, List<CollectiveHangs.Hang> hangs) {
        return List.of(rootRanks(workload, hangs), hungGroups(workload, hangs));
    }

    private static MetricRow rootRanks(String workload, List<CollectiveHangs.Hang> hangs) {
        List<CollectiveHangs.Hang> roots =
                hangs.stream().filter(CollectiveHangs.Hang::isRoot).toList();
        // 0 ranks, as METRICS.md says (hangs.sql's coalesce(size(NULL), 0) gives -1 in a session without ANSI mode)
        if (roots.isEmpty()) return row(workload, "hang_root_ranks", 0.0, NO_ROOT);
        TreeSet<Integer> ranks = new TreeSet<>();
        for (CollectiveHangs.Hang h : roots)
            if (h.missingRanks() != null)
                h.missingRanks().stream().filter(Objects::nonNull).forEach(ranks::add);
        List<String> described = new ArrayList<>();
        for (CollectiveHangs.Hang h : roots) {
            if (h.pgName() == null || h.missingRanks() == null)
                continue; // concat of a null is null, which the list drops
            described.add("group " + h.pgName() + " (" + Objects.requireNonNullElse(h.pgDesc(), "?") + ") #"
                    + h.collectiveSeqId() + " " + Objects.requireNonNullElse(h.op(), "?") + " missing "
                    + joined(h.missingRanks(), ","));
        }
        return row(
                workload,
                "hang_root_ranks",
                (double) ranks.size(),
                "ranks " + joined(new ArrayList<>(ranks), ", ") + "; root collectives: "
                        + String.join("; ", SparkOrder.sortedStrings(described)));
    }

    private static MetricRow hungGroups(String workload, List<CollectiveHangs.Hang> hangs) {
        // a group is a distinct (name, description) among the stuck rows
        Set<List<String>> groups = new LinkedHashSet<>();
        for (CollectiveHangs.Hang h : hangs) groups.add(Arrays.asList(h.pgName(), h.pgDesc()));
        if (groups.isEmpty()) return row(workload, "hung_groups", 0.0, NO_GROUP);
        List<String> names = new ArrayList<>();
        for (List<String> g : groups) {
            if (g.get(0) != null) names.add(g.get(0) + " (" + Objects.requireNonNullElse(g.get(1), "?") + ")");
        }
        return row(
                workload,
                "hung_groups",
                (double) groups.size(),
                "groups " + String.join(", ", SparkOrder.sortedStrings(names)));
    }

    private static MetricRow row(String workload, String metric, double value, String reason) {
        return new MetricRow(
                workload, metric, null, value, "count", "workload", null, null, null, MetricSchema.STATUS_OK, reason);
    }

    /** array_join of ints: the non-null elements, in order. */
    private static String joined(List<Integer> values, String separator) {
        return values.stream().filter(Objects::nonNull).map(String::valueOf).collect(Collectors.joining(separator));
    }

    /**
     * The family's rows (of {@link MetricSchema#QUERY_SCHEMA}) from the {@code collective_hangs} rows, for every
     * workload of the given {@code flight_recorder} / {@code process_group_status} rows (the workloads with dumps):
     * one shuffle, each workload's hang rows cogrouped with the workload's name (once per input partition).
     */
    public static Dataset<Row> rows(
            Dataset<Row> collectiveHangs, Dataset<Row> flightRecorder, Dataset<Row> processGroupStatus) {
        Dataset<String> withDumps = flightRecorder
                .select("workload")
                .union(processGroupStatus.select("workload"))
                .mapPartitions(
                        (MapPartitionsFunction<Row, String>) rows -> {
                            Set<String> seen = new HashSet<>();
                            rows.forEachRemaining(r -> seen.add(r.getString(0)));
                            return seen.iterator();
                        },
                        Encoders.STRING());
        Dataset<Row> hangRowsByName = SideInputs.project(collectiveHangs, FlightRecorderSchema.HANGS.fieldNames());
        return withDumps
                .groupByKey((MapFunction<String, String>) w -> w, Encoders.STRING())
                .cogroup(
                        hangRowsByName.groupByKey(SideInputs.WORKLOAD, Encoders.STRING()),
                        (CoGroupFunction<String, String, Row, Row>) (workload, dumps, hangRows) -> {
                            if (!dumps.hasNext()) return Collections.emptyIterator();
                            List<CollectiveHangs.Hang> hangs = new ArrayList<>();
                            hangRows.forEachRemaining(r -> hangs.add(CollectiveHangs.Hang.fromRow(r)));
                            Iterator<MetricRow> out = workload(workload, hangs).iterator();
                            return new Iterator<Row>() {
                                @Override
                                public boolean hasNext() {
                                    return out.hasNext();
                                }

                                @Override
                                public Row next() {
                                    return out.next().toRow();
                                }
                            };
                        },
                        Encoders.row(MetricSchema.QUERY_SCHEMA));
    }
}
