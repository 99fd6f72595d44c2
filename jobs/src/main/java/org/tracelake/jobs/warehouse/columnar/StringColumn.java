package org.tracelake.jobs.warehouse.columnar;

/** A {@code string} column of a {@link ColumnBlock}: ids of the block's {@link Utf8Strings}, {@link Utf8Strings#NULL} for null. */
public final class StringColumn {
    int[] ids;

    StringColumn(int capacity) {
        ids = new int[capacity];
    }

    public void set(int row, int id) {
        ids[row] = id;
    }

    public int get(int row) {
        return ids[row];
    }
}
