package org.tracelake.jobs.readers.kineto.oracle;

import java.util.Arrays;

/**
 * A long and an int per numeric id, first record wins: runtime launches by correlation id (start in relative ns,
 * thread) and communication ops by External id (start, position in the index's list). A large trace holds tens of
 * millions of launches and the tables live for the whole second pass, so their size per id decides the heap a
 * file needs (issue 12: a 5 GB trace in a 1 GB heap).
 *
 * <p>Profilers number these ids densely upwards from a small start, so most ids are stored by position: chunks of
 * 64 K slots indexed by the id itself, 12 bytes per id, with no keys, no load factor and no rehash when the table
 * grows (~10 M launches take ~120 MB). Ids that would leave the chunks mostly empty (negative, huge, or scattered
 * far apart) go to a small open-addressing table instead. A chunk starts at the size its first ids need and doubles up
 * to 64 K slots: a small file (most of an archive, and every input of a fuzzing run) does not pay for filling 768 KB.
 */
final class IdTable {
    /** The value of an id the table does not hold (never a stored value: see {@link #putIfAbsent}). */
    static final long ABSENT = Long.MIN_VALUE;

    private static final int CHUNK_BITS = 16;
    private static final int CHUNK = 1 << CHUNK_BITS;
    /** The smallest chunk allocated: chunks grow by doubling from here to {@link #CHUNK} slots. */
    private static final int FIRST_CHUNK = 256;
    /** Ids at or above this go to the sparse table: the chunk directory stays at most 32 K pointers. */
    private static final long DENSE_LIMIT = 1L << 31;
    /** Chunks always allowed; beyond them a chunk is allocated only while chunks stay a quarter full on average. */
    private static final int FREE_CHUNKS = 16;

    private long[][] values = new long[64][];
    private int[][] tags = new int[64][];
    private int chunks;
    private long denseSize;
    private final Sparse sparse = new Sparse();

    /** First record wins (a correlation id names one launch); the value must not be {@link #ABSENT}. */
    void putIfAbsent(long id, long value, int tag) {
        if (value == ABSENT) throw new IllegalArgumentException("ABSENT is not a value");
        long[] chunk = denseChunk(id, true);
        if (chunk == null || (sparse.size > 0 && sparse.value(id) != ABSENT)) {
            sparse.putIfAbsent(id, value, tag);
            return;
        }
        int i = (int) (id & (CHUNK - 1));
        if (chunk[i] == ABSENT) {
            chunk[i] = value;
            tags[(int) (id >>> CHUNK_BITS)][i] = tag;
            denseSize++;
        }
    }

    /** The id's value, or {@link #ABSENT}. */
    long value(long id) {
        long[] chunk = denseChunk(id, false);
        long s = chunk == null ? ABSENT : chunk[(int) (id & (CHUNK - 1))];
        return s != ABSENT ? s : sparse.value(id);
    }

    /** The id's int; only for an id whose {@link #value} is not {@link #ABSENT}. */
    int tag(long id) {
        long[] chunk = denseChunk(id, false);
        if (chunk != null && chunk[(int) (id & (CHUNK - 1))] != ABSENT) {
            return tags[(int) (id >>> CHUNK_BITS)][(int) (id & (CHUNK - 1))];
        }
        return sparse.tag(id);
    }

    long size() {
        return denseSize + sparse.size;
    }

    /**
     * The chunk holding the id's slot, or null when there is none (or it is not yet long enough to reach the slot);
     * with {@code allocate}, made or lengthened when the id is dense enough to deserve one.
     */
    private long[] denseChunk(long id, boolean allocate) {
        if (id < 0 || id >= DENSE_LIMIT) return null;
        int c = (int) (id >>> CHUNK_BITS);
        int slot = (int) (id & (CHUNK - 1));
        long[] chunk = c < values.length ? values[c] : null;
        if (chunk != null && slot < chunk.length) return chunk;
        if (!allocate) return null;
        if (chunk != null) return lengthen(c, slot);
        if (chunks >= FREE_CHUNKS && (long) (chunks + 1) * CHUNK > 4 * (size() + CHUNK)) return null;
        if (c >= values.length) {
            int n = Math.max(c + 1, values.length * 2);
            values = Arrays.copyOf(values, n);
            tags = Arrays.copyOf(tags, n);
        }
        chunk = new long[lengthFor(slot, FIRST_CHUNK)];
        Arrays.fill(chunk, ABSENT);
        values[c] = chunk;
        tags[c] = new int[chunk.length];
        chunks++;
        return chunk;
    }

    /** Chunk c, grown (doubling) to hold the slot. */
    private long[] lengthen(int c, int slot) {
        long[] old = values[c];
        long[] chunk = Arrays.copyOf(old, lengthFor(slot, old.length * 2));
        Arrays.fill(chunk, old.length, chunk.length, ABSENT);
        values[c] = chunk;
        tags[c] = Arrays.copyOf(tags[c], chunk.length);
        return chunk;
    }

    /** The power of two from {@code atLeast} up (at most {@link #CHUNK}) that has the slot. */
    private static int lengthFor(int slot, int atLeast) {
        int n = atLeast;
        while (n <= slot) n <<= 1;
        return Math.min(n, CHUNK);
    }

    /** Open addressing over primitive arrays, for the ids the chunks do not take. */
    private static final class Sparse {
        private static final long EMPTY = Long.MIN_VALUE;
        private long[] keys;
        private long[] values;
        private int[] tags;
        private int size;

        Sparse() {
            allocate(1 << 6);
        }

        private void allocate(int capacity) {
            keys = new long[capacity];
            values = new long[capacity];
            tags = new int[capacity];
            Arrays.fill(keys, EMPTY);
        }

        void putIfAbsent(long key, long value, int tag) {
            if (key == EMPTY) return; // Long.MIN_VALUE as an id: nothing sane to link it to
            if ((size + 1) * 2 > keys.length) grow();
            int i = slot(key);
            if (keys[i] == EMPTY) {
                keys[i] = key;
                values[i] = value;
                tags[i] = tag;
                size++;
            }
        }

        long value(long key) {
            int i = slot(key);
            return keys[i] == key && key != EMPTY ? values[i] : ABSENT;
        }

        int tag(long key) {
            return tags[slot(key)];
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
            long[] oldValues = values;
            int[] oldTags = tags;
            allocate(oldKeys.length * 2);
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != EMPTY) putIfAbsent(oldKeys[i], oldValues[i], oldTags[i]);
            }
        }
    }
}
