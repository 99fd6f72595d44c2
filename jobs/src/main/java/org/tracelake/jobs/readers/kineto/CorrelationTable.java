package org.tracelake.jobs.readers.kineto;

/**
 * CPU runtime calls by correlation id: their start (relative ns) and thread. Open addressing over primitive
 * arrays, because a large trace holds millions of launches and boxed maps would cost ten times the memory.
 */
final class CorrelationTable {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private long[] starts;
    private int[] threads;
    private int size;

    CorrelationTable() {
        allocate(1 << 12);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        starts = new long[capacity];
        threads = new int[capacity];
        java.util.Arrays.fill(keys, EMPTY);
    }

    /** First record wins: a correlation id names one launch. */
    void putIfAbsent(long correlation, long relStartNs, int thread) {
        if ((size + 1) * 2 > keys.length) grow();
        int i = slot(correlation);
        if (keys[i] == EMPTY) {
            keys[i] = correlation;
            starts[i] = relStartNs;
            threads[i] = thread;
            size++;
        }
    }

    /** Slot of the correlation id, or -1. */
    int find(long correlation) {
        int i = slot(correlation);
        return keys[i] == EMPTY ? -1 : i;
    }

    long start(int slot) {
        return starts[slot];
    }

    int thread(int slot) {
        return threads[slot];
    }

    private int slot(long key) {
        int mask = keys.length - 1;
        int i = (int) (mix(key) & mask);
        while (keys[i] != EMPTY && keys[i] != key) i = (i + 1) & mask;
        return i;
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        return k;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldStarts = starts;
        int[] oldThreads = threads;
        allocate(oldKeys.length * 2);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) putIfAbsent(oldKeys[i], oldStarts[i], oldThreads[i]);
        }
    }
}
