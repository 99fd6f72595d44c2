package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CommOpTimelineTest {

    private static CommOp op(String name, long start, long end) {
        return CommOp.of(name, "t", start, end, Map.of());
    }

    private static CommOpTimeline timeline(List<CommOp> ops) {
        CommOpTimeline t = new CommOpTimeline();
        ops.forEach(t::add);
        t.seal();
        return t;
    }

    @Test
    void nestedOpsComeInnermostFirstAndEndsAreInclusive() {
        CommOp outer = op("c10d::allreduce_", 100, 200);
        CommOp inner = op("record_param_comms", 120, 150);
        CommOp later = op("c10d::broadcast_", 300, 310);
        CommOpTimeline t = timeline(List.of(later, inner, outer)); // added out of order: seal() sorts
        assertEquals(List.of(inner, outer), t.enclosing(130));
        assertEquals(List.of(inner, outer), t.enclosing(150), "an op's end encloses");
        assertEquals(List.of(outer), t.enclosing(151));
        assertEquals(List.of(outer), t.enclosing(100), "an op's start encloses");
        assertEquals(List.of(), t.enclosing(99));
        assertEquals(List.of(), t.enclosing(250));
        assertEquals(List.of(later), t.enclosing(310));
        assertEquals(List.of(), t.enclosing(Long.MAX_VALUE));
    }

    @Test
    void aLongEarlyOpIsFoundPastManyShortOnes() {
        List<CommOp> ops = new ArrayList<>();
        CommOp longOne = op("c10d::barrier", 0, 1_000_000);
        ops.add(longOne);
        for (int i = 1; i <= 1000; i++) ops.add(op("nccl:all_reduce", i * 100L, i * 100L + 10));
        CommOpTimeline t = timeline(ops);
        assertEquals(List.of(ops.get(500), longOne), t.enclosing(50_005));
        assertEquals(List.of(longOne), t.enclosing(50_050));
    }

    @Test
    void equalStartsKeepFileOrderLatestFirst() {
        CommOp first = op("c10d::allreduce_", 10, 50);
        CommOp second = op("record_param_comms", 10, 40);
        assertEquals(List.of(second, first), timeline(List.of(first, second)).enclosing(20));
    }

    @Test
    void agreesWithAScanOfEveryOpOnRandomTimelines() {
        Random random = new Random(20261122);
        for (int round = 0; round < 200; round++) {
            List<CommOp> ops = new ArrayList<>();
            int n = random.nextInt(60);
            for (int i = 0; i < n; i++) {
                long start = random.nextInt(1000);
                ops.add(op("op" + i, start, start + random.nextInt(random.nextBoolean() ? 20 : 400)));
            }
            CommOpTimeline t = timeline(ops);
            List<CommOp> sorted = new ArrayList<>(ops);
            sorted.sort((a, b) -> Long.compare(a.relStart(), b.relStart()));
            for (long ts = -5; ts < 1450; ts += 7) {
                List<CommOp> expected = new ArrayList<>();
                for (CommOp o : sorted) if (o.encloses(ts)) expected.add(o);
                Collections.reverse(expected);
                assertEquals(expected, t.enclosing(ts), "round " + round + ", time " + ts);
            }
        }
    }
}
