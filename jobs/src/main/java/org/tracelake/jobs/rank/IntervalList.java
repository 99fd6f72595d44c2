package org.tracelake.jobs.rank;

import java.util.Arrays;

/**
 * A union of half-open intervals [start, end) in ns, built by appending intervals in start order (METRICS.md §3:
 * merge when {@code start <= current end}). Primitive arrays: a rank can hold millions of kernels.
 */
public final class IntervalList {
    private long[] starts = new long[16];
    private long[] ends = new long[16];
    private int size;

    /** Append an interval whose start is ≥ every start appended before. */
    public void add(long start, long end) {
        if (size > 0 && start <= ends[size - 1]) {
            if (end > ends[size - 1]) ends[size - 1] = end;
            return;
        }
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    public int size() {
        return size;
    }

    public long start(int i) {
        return starts[i];
    }

    public long end(int i) {
        return ends[i];
    }

    /** |union|. */
    public long length() {
        long total = 0;
        for (int i = 0; i < size; i++) total += ends[i] - starts[i];
        return total;
    }

    /** |union ∩ [from, to)|. */
    public long lengthWithin(long from, long to) {
        long total = 0;
        int i = firstEndingAfter(from);
        for (; i < size && starts[i] < to; i++) {
            total += Math.max(0, Math.min(ends[i], to) - Math.max(starts[i], from));
        }
        return total;
    }

    /** The intersection of two unions, as a union (two-pointer walk, METRICS.md §3). */
    public static IntervalList intersect(IntervalList a, IntervalList b) {
        IntervalList out = new IntervalList();
        int i = 0;
        int j = 0;
        while (i < a.size && j < b.size) {
            long s = Math.max(a.starts[i], b.starts[j]);
            long e = Math.min(a.ends[i], b.ends[j]);
            if (s < e) out.add(s, e);
            if (a.ends[i] < b.ends[j]) i++;
            else j++;
        }
        return out;
    }

    private int firstEndingAfter(long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ends[mid] <= t) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
