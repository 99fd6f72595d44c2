package org.tracelake.jobs.metrics.side;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.schemas.Tables;

/**
 * The {@code collective_hangs} table (METRICS.md §4 "Hangs"), one row per stuck collective, from one workload's NCCL
 * Flight Recorder dumps: its {@code flight_recorder} entries and {@code process_group_status} rows.
 * <ul>
 *   <li>A group is a pg_config name; its global ranks are what the dumps say (the union over ranks); its pg_id is the
 *       one its entries carry on any rank (the same on every rank: groups are created in one order everywhere; the
 *       smallest when they disagree).</li>
 *   <li>Per member rank that left a dump: enqueued / completed = that rank's pg_status entry under the group's pg_id.</li>
 *   <li>Candidates: c = completed + 1 of each member. A member is missing from c when its enqueued &lt; c.</li>
 *   <li>A row per (group, c) with at least one missing member and at least one member whose entries hold c
 *       (collective_seq_id, not p2p): op, input_size (first input's dims joined by 'x') and dtype (first input dtype)
 *       from the lowest member rank holding c (its first such entry); created_ns = the earliest time_created_ns of c
 *       among those holding it.</li>
 *   <li>is_root: for every missing rank, the row naming it with the smallest created_ns (then group name, then c) is
 *       a root — the first collective in time that this rank never joined; a row is root when it is that row for any
 *       rank.</li>
 * </ul>
 */
public final class CollectiveHangs {
    private CollectiveHangs() {}

    /** One {@code flight_recorder} entry, with its first input's size ("4096x5120") and dtype. */
    public record Entry(
            Integer rank,
            long ordinal,
            Long pgId,
            String pgName,
            Long collectiveSeqId,
            String op,
            Boolean isP2p,
            String inputSize,
            String dtype,
            Long createdNs) {
        /** The first input's dims joined by 'x' (a null dim left out, as array_join does); null without an input. */
        public static String inputSize(List<? extends List<Long>> inputSizes) {
            if (inputSizes == null || inputSizes.isEmpty() || inputSizes.get(0) == null) return null;
            return inputSizes.get(0).stream()
                    .filter(Objects::nonNull)
                    .map(String::valueOf)
                    .collect(Collectors.joining("x"));
        }

        /** The first input's dtype; null without one. */
        public static String dtype(List<String> inputDtypes) {
            return inputDtypes == null || inputDtypes.isEmpty() ? null : inputDtypes.get(0);
        }
    }

    /** One {@code process_group_status} row. */
    public record GroupStatus(
            Integer rank,
            Long pgId,
            String pgName,
            String pgDesc,
            List<Integer> pgRanks,
            Long lastEnqueued,
            Long lastCompleted)
            implements Serializable {}

    /**
     * The order the entries stream in: by group name, the smallest pg_id of the name first (nulls after), so that a
     * group's pg_id is known at its first entry.
     */
    static final Comparator<Entry> STREAM_ORDER = Comparator.comparing(Entry::pgName, SparkOrder.STRING_NULLS_FIRST)
            .thenComparing(Entry::pgId, Comparator.nullsLast(Comparator.<Long>naturalOrder()));

    /** The stuck collectives of one workload, from all its entries (any order) and group rows. */
    public static List<CollectiveHang> of(String workload, List<Entry> entries, List<GroupStatus> groups) {
        return ofSorted(workload, entries.stream().sorted(STREAM_ORDER).iterator(), groups);
    }

    /** The same, from entries in {@link #STREAM_ORDER}: holds one group's candidates at a time, never the entries. */
    static List<CollectiveHang> ofSorted(String workload, Iterator<Entry> entries, List<GroupStatus> groups) {
        Map<String, List<GroupStatus>> byName = new HashMap<>();
        Map<Long, List<GroupStatus>> byId = new HashMap<>();
        for (GroupStatus g : groups) {
            if (g.pgName() != null)
                byName.computeIfAbsent(g.pgName(), k -> new ArrayList<>()).add(g);
            if (g.pgId() != null)
                byId.computeIfAbsent(g.pgId(), k -> new ArrayList<>()).add(g);
        }
        List<CollectiveHang> stuck = new ArrayList<>();
        Entry next = entries.hasNext() ? entries.next() : null;
        while (next != null) {
            String name = next.pgName();
            StuckInGroup group = name == null || next.pgId() == null || !byName.containsKey(name)
                    ? null
                    : new StuckInGroup(
                            workload, name, next.pgId(), byName.get(name), byId.getOrDefault(next.pgId(), List.of()));
            while (next != null && Objects.equals(next.pgName(), name)) {
                if (group != null) group.entry(next);
                next = entries.hasNext() ? entries.next() : null;
            }
            if (group != null) stuck.addAll(group.stuck());
        }
        return markRoots(stuck);
    }

    /** One member rank's status in a group. */
    private record Member(int rank, long enqueued, long completed) {}

    /** The first holder: least (rank, ordinal, op, input_size, dtype), nulls first, strings in Spark's order. */
    private static final Comparator<Entry> FIRST_HOLDER = Comparator.comparing(Entry::rank, SparkOrder.INT_NULLS_FIRST)
            .thenComparingLong(Entry::ordinal)
            .thenComparing(Entry::op, SparkOrder.STRING_NULLS_FIRST)
            .thenComparing(Entry::inputSize, SparkOrder.STRING_NULLS_FIRST)
            .thenComparing(Entry::dtype, SparkOrder.STRING_NULLS_FIRST);

    /** One group: its members' status, then its entries, and the stuck collectives they give. */
    private static final class StuckInGroup {
        private final String workload;
        private final String name;
        private final long pgId;
        private final String desc;
        private final List<Member> members = new ArrayList<>();
        private final Set<Integer> memberRanks = new HashSet<>();
        private final Set<Long> candidates = new TreeSet<>();
        /** Per candidate held by a member: its first holder, earliest creation, and the ranks holding it. */
        private final Map<Long, Entry> firstHolder = new HashMap<>();

        private final Map<Long, Long> createdNs = new HashMap<>();
        private final Map<Long, TreeSet<Integer>> holding = new HashMap<>();

        StuckInGroup(String workload, String name, long pgId, List<GroupStatus> named, List<GroupStatus> withId) {
            this.workload = workload;
            this.name = name;
            this.pgId = pgId;
            this.desc = named.stream()
                    .map(GroupStatus::pgDesc)
                    .filter(Objects::nonNull)
                    .min(SparkOrder.STRING)
                    .orElse(null);
            // the group's global ranks: the union of what every rank's pg_config says
            TreeSet<Integer> ranks = new TreeSet<>();
            for (GroupStatus g : named)
                if (g.pgRanks() != null)
                    g.pgRanks().stream().filter(Objects::nonNull).forEach(ranks::add);
            // a member's status is its pg_status under the group's pg_id, whatever name (if any) its own dump links to
            // it
            Map<Integer, List<GroupStatus>> byRank = new HashMap<>();
            for (GroupStatus s : withId)
                if (s.rank() != null)
                    byRank.computeIfAbsent(s.rank(), k -> new ArrayList<>()).add(s);
            for (int rank : ranks) {
                for (GroupStatus s : byRank.getOrDefault(rank, List.of())) {
                    if (s.lastEnqueued() != null && s.lastCompleted() != null) {
                        members.add(new Member(rank, s.lastEnqueued(), s.lastCompleted()));
                        memberRanks.add(rank);
                        candidates.add(s.lastCompleted() + 1);
                    }
                }
            }
        }

        void entry(Entry e) {
            Long seq = e.collectiveSeqId();
            if (Boolean.TRUE.equals(e.isP2p())
                    || seq == null
                    || e.rank() == null
                    || !memberRanks.contains(e.rank())
                    || !candidates.contains(seq)) {
                return;
            }
            firstHolder.merge(seq, e, (a, b) -> FIRST_HOLDER.compare(a, b) <= 0 ? a : b);
            if (e.createdNs() != null) createdNs.merge(seq, e.createdNs(), Math::min);
            holding.computeIfAbsent(seq, k -> new TreeSet<>()).add(e.rank());
        }

        List<CollectiveHang> stuck() {
            List<CollectiveHang> out = new ArrayList<>();
            for (long c : candidates) {
                Entry holder = firstHolder.get(c);
                if (holder == null) continue;
                List<Integer> missing = members.stream()
                        .filter(m -> m.enqueued() < c)
                        .map(Member::rank)
                        .sorted()
                        .toList();
                if (missing.isEmpty()) continue;
                out.add(new CollectiveHang(
                        workload,
                        name,
                        desc,
                        pgId,
                        c,
                        holder.op(),
                        holder.inputSize(),
                        holder.dtype(),
                        createdNs.get(c),
                        missing,
                        List.copyOf(holding.get(c)),
                        false));
            }
            return out;
        }
    }

    /** Per missing rank, its first stuck collective in time (created_ns, nulls first; then group name, then c). */
    private static List<CollectiveHang> markRoots(List<CollectiveHang> stuck) {
        Comparator<CollectiveHang> inTime = Comparator.comparing(CollectiveHang::createdNs, SparkOrder.LONG_NULLS_FIRST)
                .thenComparing(CollectiveHang::pgName, SparkOrder.STRING_NULLS_FIRST)
                .thenComparingLong(CollectiveHang::collectiveSeqId);
        Map<Integer, CollectiveHang> firstOfRank = new TreeMap<>();
        for (CollectiveHang h : stuck) {
            for (int rank : h.missingRanks()) firstOfRank.merge(rank, h, (a, b) -> inTime.compare(a, b) <= 0 ? a : b);
        }
        Set<CollectiveHang> roots = Collections.newSetFromMap(new IdentityHashMap<>());
        roots.addAll(firstOfRank.values());
        return stuck.stream().map(h -> roots.contains(h) ? h.asRoot() : h).toList();
    }

    /** The {@code flight_recorder} columns the attribution reads, in the order {@link Dumps#entry} reads them. */
    public static final SideTable ENTRIES = new SideTable(
            Tables.FLIGHT_RECORDER,
            List.of(
                    "rank",
                    "ordinal",
                    "pg_id",
                    "pg_name",
                    "collective_seq_id",
                    "op",
                    "is_p2p",
                    "input_sizes",
                    "input_dtypes",
                    "time_created_ns"),
            null);

    /** The {@code process_group_status} columns the attribution reads, in the order {@link Dumps#group} reads them. */
    public static final SideTable GROUPS = new SideTable(
            Tables.PROCESS_GROUP_STATUS,
            List.of(
                    "rank",
                    "pg_id",
                    "pg_name",
                    "pg_desc",
                    "pg_ranks",
                    "last_enqueued_collective",
                    "last_completed_collective"),
            null);

    /**
     * One workload's Flight Recorder dumps: its {@code flight_recorder} entries and {@code process_group_status}
     * rows, in any order; {@link #hangs} attributes them ({@link #of}: the entries sorted in {@link #STREAM_ORDER},
     * the order Spark's sort by (pg_name nulls first, pg_id nulls last) gave them; the attribution does not depend on
     * the order of entries that tie on both, nor on the order of the group rows).
     */
    static final class Dumps implements SideFamily {
        private final List<Entry> entries = new ArrayList<>();
        private final List<GroupStatus> groups = new ArrayList<>();

        @Override
        public void add(SideTable table, InternalRow row) {
            if (table.equals(ENTRIES)) entry(row);
            else group(row);
        }

        /**
         * Its stuck collectives, the rows of its {@code collective_hangs} partition, and the hang figures: those only
         * of a workload that left a dump (0 when nothing is stuck).
         */
        @Override
        public SideRows.Result compute(String workload) {
            if (entries.isEmpty() && groups.isEmpty()) return SideRows.Result.NONE;
            List<CollectiveHang> hangs = of(workload, entries, groups);
            return new SideRows.Result(HangMetrics.workload(workload, hangs), hangs);
        }

        /** A row of {@link #ENTRIES}' columns: only its first input's size and dtype are kept. */
        private void entry(InternalRow r) {
            entries.add(new Entry(
                    RowCells.intOrNull(r, 0),
                    r.getLong(1),
                    RowCells.longOrNull(r, 2),
                    RowCells.string(r, 3),
                    RowCells.longOrNull(r, 4),
                    RowCells.string(r, 5),
                    RowCells.booleanOrNull(r, 6),
                    Entry.inputSize(RowCells.firstLongs(r, 7)),
                    Entry.dtype(RowCells.firstString(r, 8)),
                    RowCells.longOrNull(r, 9)));
        }

        /** A row of {@link #GROUPS}' columns. */
        private void group(InternalRow r) {
            groups.add(new GroupStatus(
                    RowCells.intOrNull(r, 0),
                    RowCells.longOrNull(r, 1),
                    RowCells.string(r, 2),
                    RowCells.string(r, 3),
                    RowCells.ints(r, 4),
                    RowCells.longOrNull(r, 5),
                    RowCells.longOrNull(r, 6)));
        }
    }
}
