package org.tracelake.jobs.rank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.udfs.BusBandwidth;
import org.tracelake.udfs.XlaAsyncOps;

/**
 * Collects a rank's communication activities and turns them into collective instances. ONE ASYNC COLLECTIVE IS ONE
 * INSTANCE: both halves of an XLA async collective carry its bytes, so counting ops would count it twice and give the
 * few-µs start half the whole message. A -done paired with the start half just before it (same rank, same
 * instruction: all-reduce-start.3 / all-reduce-done.3 → all-reduce.3) is one instance named by the instruction, with
 * the start's size (else the -done's) and step; a half whose partner lies outside the profile is an instance on its
 * own, as is every other op.
 */
final class CommInstances {
    private final List<RankEvent> ops = new ArrayList<>();

    void add(RankEvent e) {
        ops.add(e);
    }

    List<CommInstance> instances() {
        List<CommInstance> out = new ArrayList<>(ops.size());
        Map<String, List<RankEvent>> halvesByInstruction = new HashMap<>();
        for (RankEvent e : ops) {
            String half = XlaAsyncOps.half(e.name);
            if (half == null || half.isEmpty()) out.add(single(e));
            else
                halvesByInstruction
                        .computeIfAbsent(XlaAsyncOps.instruction(e.name), k -> new ArrayList<>())
                        .add(e);
        }
        for (List<RankEvent> halves : halvesByInstruction.values()) {
            halves.sort(Comparator.comparingLong((RankEvent e) -> e.ts)
                    .thenComparingInt(e -> XlaAsyncOps.START.equals(XlaAsyncOps.half(e.name)) ? 0 : 1));
            for (int i = 0; i < halves.size(); i++) {
                RankEvent e = halves.get(i);
                boolean done = XlaAsyncOps.DONE.equals(XlaAsyncOps.half(e.name));
                RankEvent prev = i > 0 ? halves.get(i - 1) : null;
                RankEvent next = i + 1 < halves.size() ? halves.get(i + 1) : null;
                boolean prevIsStart = prev != null && XlaAsyncOps.START.equals(XlaAsyncOps.half(prev.name));
                boolean nextIsDone = next != null && XlaAsyncOps.DONE.equals(XlaAsyncOps.half(next.name));
                if (done && prevIsStart) out.add(paired(prev, e));
                else if (done || !nextIsDone) out.add(single(e));
            }
        }
        out.sort(Comparator.comparingLong(CommInstance::ts).thenComparingLong(CommInstance::end));
        return out;
    }

    private static CommInstance single(RankEvent e) {
        return new CommInstance(
                e.name,
                e.collective,
                e.ts,
                e.end(),
                e.step,
                e.inNelems,
                e.dtype,
                e.inBytes,
                e.outBytes,
                BusBandwidth.sizeBytes(e.collective, e.inBytes, e.outBytes),
                e.groupSize,
                e.pgName,
                e.pgRanks,
                e.seq,
                e.stream,
                e.argInSplitSize,
                1,
                XlaOps.isXlaOp(e) ? XlaOps.seconds(e) : null);
    }

    /** The start half's size, dtype and step (else the -done's); everything else from the -done. */
    private static CommInstance paired(RankEvent start, RankEvent done) {
        Long startSize = BusBandwidth.sizeBytes(start.collective, start.inBytes, start.outBytes);
        Long doneSize = BusBandwidth.sizeBytes(done.collective, done.inBytes, done.outBytes);
        long dur = done.end() - start.ts;
        return new CommInstance(
                XlaAsyncOps.instruction(done.name),
                done.collective,
                start.ts,
                done.end(),
                start.step,
                first(start.inNelems, done.inNelems),
                first(start.dtype, done.dtype),
                first(start.inBytes, done.inBytes),
                first(start.outBytes, done.outBytes),
                first(startSize, doneSize),
                done.groupSize,
                done.pgName,
                done.pgRanks,
                done.seq,
                done.stream,
                done.argInSplitSize,
                2,
                dur / 1e9);
    }

    private static <T> T first(T a, T b) {
        return a != null ? a : b;
    }
}
