package org.tracelake.jobs.warehouse.columnar;

import java.util.Arrays;

/** Open addressing from a long to a non-negative int: a dictionary's lookup of a value (or a string id) it holds. */
final class LongIntMap {
    private long[] keys = new long[256];
    private int[] values = new int[256];
    private boolean[] used = new boolean[256];
    private int size;

    /** The value of {@code key}, or -1. */
    int get(long key) {
        int mask = keys.length - 1;
        for (int s = slot(key, mask); used[s]; s = (s + 1) & mask) {
            if (keys[s] == key) return values[s];
        }
        return -1;
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) grow();
        int mask = keys.length - 1;
        int s = slot(key, mask);
        while (used[s] && keys[s] != key) s = (s + 1) & mask;
        if (!used[s]) size++;
        used[s] = true;
        keys[s] = key;
        values[s] = value;
    }

    void clear() {
        if (size == 0) return;
        Arrays.fill(used, false);
        size = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        boolean[] oldUsed = used;
        int n = oldKeys.length * 2;
        keys = new long[n];
        values = new int[n];
        used = new boolean[n];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) if (oldUsed[i]) put(oldKeys[i], oldValues[i]);
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
