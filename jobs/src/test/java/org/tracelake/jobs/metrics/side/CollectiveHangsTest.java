package org.tracelake.jobs.metrics.side;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.side.CollectiveHangs.Entry;
import org.tracelake.jobs.metrics.side.CollectiveHangs.GroupStatus;

/**
 * A 3-rank hang where rank 2 never enqueued seq 7, and the hang rows it gives.
 * <pre>
 * group "0" (pg_id 0, "default_pg", ranks 0, 1, 2): ranks 0 and 1 enqueued 7 and completed 6; rank 2 enqueued and
 *   completed 6. Candidate 7 (= 6 + 1 for everyone): rank 2 is missing (6 &lt; 7). Ranks 0 and 1 hold seq 7
 *   (nccl:all_reduce [[1024, 8]] Float, created at 205 and 200 ns); rank 0 also has a p2p send with seq 7 before it,
 *   which does not count. Row: op/size/dtype of rank 0 (the lowest holder), created 200, missing [2], holding [0, 1].
 * group "1" (pg_id 1, no description, ranks 1, 2; rank 2's dump has no entry of it, so its status keeps only the
 *   pg_id): rank 1 enqueued 3, completed 2; rank 2 enqueued and completed 2. Candidate 3: rank 2 missing; rank 1
 *   holds it (nccl:broadcast, created 300). Row: missing [2], holding [1].
 * Roots: rank 2's first stuck collective in time is group 0's seq 7 (200 &lt; 300); group 1's row is not a root.
 * </pre>
 */
class CollectiveHangsTest {
    static Entry entry(int rank, long ordinal, long pgId, String pg, long seq, String op, boolean p2p, long created) {
        return new Entry(rank, ordinal, pgId, pg, seq, op, p2p, "1024x8", "Float", created);
    }

    static final List<Entry> ENTRIES = List.of(
            entry(0, 0, 0, "0", 6, "nccl:all_reduce", false, 100),
            entry(0, 1, 0, "0", 7, "nccl:send 0->2", true, 150),
            entry(0, 2, 0, "0", 7, "nccl:all_reduce", false, 205),
            entry(1, 0, 0, "0", 6, "nccl:all_reduce", false, 100),
            entry(1, 1, 0, "0", 7, "nccl:all_reduce", false, 200),
            entry(1, 2, 1, "1", 3, "nccl:broadcast", false, 300),
            entry(2, 0, 0, "0", 6, "nccl:all_reduce", false, 101));

    static final List<GroupStatus> GROUPS = List.of(
            new GroupStatus(0, 0L, "0", "default_pg", List.of(0, 1, 2), 7L, 6L),
            new GroupStatus(1, 0L, "0", "default_pg", List.of(0, 1, 2), 7L, 6L),
            new GroupStatus(1, 1L, "1", null, List.of(1, 2), 3L, 2L),
            new GroupStatus(2, 0L, "0", "default_pg", List.of(0, 1, 2), 6L, 6L),
            new GroupStatus(2, 1L, null, null, null, 2L, 2L));

    static final CollectiveHang ROOT = new CollectiveHang(
            "w", "0", "default_pg", 0L, 7, "nccl:all_reduce", "1024x8", "Float", 200L, List.of(2), List.of(0, 1), true);
    static final CollectiveHang NOT_ROOT = new CollectiveHang(
            "w", "1", null, 1L, 3, "nccl:broadcast", "1024x8", "Float", 300L, List.of(2), List.of(1), false);

    @Test
    void rank2NeverEnqueuedSeq7() {
        List<CollectiveHang> hangs = new ArrayList<>(CollectiveHangs.of("w", ENTRIES, GROUPS));
        hangs.sort(java.util.Comparator.comparing(CollectiveHang::pgName));
        assertEquals(List.of(ROOT, NOT_ROOT), hangs);
    }

    @Test
    void theEntriesMayComeInAnyOrder() {
        List<Entry> shuffled = new ArrayList<>(ENTRIES);
        Collections.reverse(shuffled);
        assertEquals(CollectiveHangs.of("w", ENTRIES, GROUPS).size(), 2);
        assertEquals(
                new java.util.HashSet<>(CollectiveHangs.of("w", ENTRIES, GROUPS)),
                new java.util.HashSet<>(CollectiveHangs.of("w", shuffled, GROUPS)));
    }

    @Test
    void nobodyBehindNoRow() {
        // rank 2 caught up: every member enqueued and completed 7, so candidate 8 has nobody missing
        List<GroupStatus> caughtUp = List.of(
                new GroupStatus(0, 0L, "0", "default_pg", List.of(0, 1, 2), 7L, 7L),
                new GroupStatus(1, 0L, "0", "default_pg", List.of(0, 1, 2), 7L, 7L),
                new GroupStatus(2, 0L, "0", "default_pg", List.of(0, 1, 2), 7L, 7L));
        assertTrue(CollectiveHangs.of("w", ENTRIES, caughtUp).isEmpty());
    }

    @Test
    void theFirstInputsSize() {
        assertEquals("4096x5120", Entry.inputSize(List.of(List.of(4096L, 5120L), List.of(7L))));
        assertEquals(
                "4096x5120", Entry.inputSize(List.of(Arrays.asList(4096L, null, 5120L)))); // array_join drops nulls
        assertEquals("", Entry.inputSize(List.of(List.of())));
        assertNull(Entry.inputSize(List.of()));
        assertNull(Entry.inputSize(null));
        assertNull(Entry.dtype(List.of()));
        assertEquals("BFloat16", Entry.dtype(List.of("BFloat16", "Float")));
    }

    @Test
    void hangMetricsOfTheRows() {
        List<MetricRow> rows = HangMetrics.workload("w", List.of(NOT_ROOT, ROOT));
        assertEquals(
                List.of(
                        new MetricRow(
                                "w",
                                "hang_root_ranks",
                                null,
                                1.0,
                                "count",
                                "workload",
                                null,
                                null,
                                null,
                                "ok",
                                "ranks 2; root collectives: group 0 (default_pg) #7 nccl:all_reduce missing 2"),
                        new MetricRow(
                                "w",
                                "hung_groups",
                                null,
                                2.0,
                                "count",
                                "workload",
                                null,
                                null,
                                null,
                                "ok",
                                "groups 0 (default_pg), 1 (?)")),
                rows);
    }

    @Test
    void aWorkloadWithDumpsAndNoStuckCollectiveGetsZero() {
        assertEquals(
                List.of(
                        new MetricRow(
                                "w",
                                "hang_root_ranks",
                                null,
                                0.0,
                                "count",
                                "workload",
                                null,
                                null,
                                null,
                                "ok",
                                "no stuck collective: no member of any group is behind a collective another member holds"),
                        new MetricRow(
                                "w",
                                "hung_groups",
                                null,
                                0.0,
                                "count",
                                "workload",
                                null,
                                null,
                                null,
                                "ok",
                                "no stuck collective in any process group")),
                HangMetrics.workload("w", List.of()));
    }
}
