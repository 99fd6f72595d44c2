package org.tracelake.jobs.warehouse.columnar;

import java.util.Arrays;

/**
 * A {@code map<string,string>} column of a {@link ColumnBlock}, its entries in one run over the block's rows: row i's
 * entries are {@code [end(i - 1), end(i))}, filled in row order ({@link #add}, then {@link #endRow}). A row without
 * entries is a null map (what the readers write for an event without args). A value is a string id, a whole number
 * kept as a long (written as its decimal digits, as the trace wrote it) or null.
 */
public final class StringMapColumn {
    /** What an entry's value is. */
    public static final byte STRING = 0;

    public static final byte LONG = 1;
    public static final byte NULL = 2;

    int[] ends;
    int entries;
    int[] keys;
    byte[] kinds;
    long[] values;

    StringMapColumn(int rows) {
        ends = new int[rows];
        int n = Math.max(16, rows * 4);
        keys = new int[n];
        kinds = new byte[n];
        values = new long[n];
    }

    /** The first entry of {@code row}: the end of the one before. */
    public int start(int row) {
        return row == 0 ? 0 : ends[row - 1];
    }

    public int end(int row) {
        return ends[row];
    }

    public int key(int entry) {
        return keys[entry];
    }

    public byte kind(int entry) {
        return kinds[entry];
    }

    /** The string id or the whole number of an entry's value, as its kind says. */
    public long value(int entry) {
        return values[entry];
    }

    /** An entry of the row being filled, a string value ({@link Utf8Strings#NULL}: a null value). */
    public void add(int key, int valueId) {
        add(key, valueId == Utf8Strings.NULL ? NULL : STRING, valueId);
    }

    /** An entry of the row being filled whose value is a whole number. */
    public void addLong(int key, long value) {
        add(key, LONG, value);
    }

    private void add(int key, byte kind, long value) {
        if (entries == keys.length) {
            int n = keys.length * 2;
            keys = Arrays.copyOf(keys, n);
            kinds = Arrays.copyOf(kinds, n);
            values = Arrays.copyOf(values, n);
        }
        keys[entries] = key;
        kinds[entries] = kind;
        values[entries++] = value;
    }

    /** Gives an entry of the row being filled another value: a string id ({@link Utf8Strings#NULL}: null). */
    public void replace(int entry, int valueId) {
        kinds[entry] = valueId == Utf8Strings.NULL ? NULL : STRING;
        values[entry] = valueId;
    }

    /** Gives an entry of the row being filled another value: a whole number. */
    public void replaceLong(int entry, long value) {
        kinds[entry] = LONG;
        values[entry] = value;
    }

    /** The entries of the row being filled so far end here. */
    public int entries() {
        return entries;
    }

    /** Closes {@code row}: the entries added since the last row are its own. */
    public void endRow(int row) {
        ends[row] = entries;
    }

    void clear() {
        entries = 0;
    }
}
