package org.tracelake.jobs.warehouse.columnar;

/** A {@code bigint} or {@code int} column of a {@link ColumnBlock}: values and which of them are null. */
public final class LongColumn {
    long[] values;
    boolean[] nulls;

    LongColumn(int capacity) {
        values = new long[capacity];
        nulls = new boolean[capacity];
    }

    public void set(int row, long value) {
        values[row] = value;
        nulls[row] = false;
    }

    public void setNull(int row) {
        values[row] = 0;
        nulls[row] = true;
    }

    /** Sets the value, or null for a null {@code value}. */
    public void set(int row, Long value) {
        if (value == null) setNull(row);
        else set(row, value.longValue());
    }

    public boolean isNull(int row) {
        return nulls[row];
    }

    public long get(int row) {
        return values[row];
    }

    /** The value, boxed, or null. */
    public Long boxed(int row) {
        return nulls[row] ? null : values[row];
    }
}
