package org.tracelake.jobs.readers.kineto.oracle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One thread's communication ops sorted by start, for "which ops enclose this launch" in O(log n + k): a binary
 * search finds the last op starting at or before the time, and the walk back stops as soon as the running maximum of
 * the ends up to there falls before it (no earlier op can still be open), so the second pass is not quadratic in a
 * file's collectives as a linear scan per kernel would make it.
 */
final class CommOpTimeline {
    private final List<CommOp> ops = new ArrayList<>();
    private long[] starts;
    /** maxEndUpTo[i] = the latest end among ops[0..i]: non-decreasing, so it bounds the walk back. */
    private long[] maxEndUpTo;

    void add(CommOp op) {
        ops.add(op);
    }

    /** Sorts and indexes; call once, after the last {@link #add}. */
    void seal() {
        ops.sort(Comparator.comparingLong(CommOp::relStart)); // stable: equal starts keep file order
        starts = new long[ops.size()];
        maxEndUpTo = new long[ops.size()];
        long maxEnd = Long.MIN_VALUE;
        for (int i = 0; i < ops.size(); i++) {
            starts[i] = ops.get(i).relStart();
            maxEnd = Math.max(maxEnd, ops.get(i).relEnd());
            maxEndUpTo[i] = maxEnd;
        }
    }

    /** The ops whose span encloses the time, innermost (latest start; later in the file on ties) first. */
    List<CommOp> enclosing(long relTs) {
        List<CommOp> result = new ArrayList<>(4);
        for (int i = lastStartingAtOrBefore(relTs); i >= 0 && maxEndUpTo[i] >= relTs; i--) {
            if (ops.get(i).encloses(relTs)) result.add(ops.get(i));
        }
        return result;
    }

    private int lastStartingAtOrBefore(long relTs) {
        int lo = 0;
        int hi = starts.length; // the answer is in [lo - 1, hi - 1]
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= relTs) lo = mid + 1;
            else hi = mid;
        }
        return lo - 1;
    }
}
