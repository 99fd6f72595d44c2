package org.tracelake.jobs.warehouse.columnar;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Up to {@link #capacity()} rows of a table held column by column, each column at its position in the table's schema:
 * {@code bigint} and {@code int} columns as {@link LongColumn}s, strings as ids of the block's {@link Utf8Strings}
 * ({@link StringColumn}), {@code map<string,string>} as a {@link StringMapColumn}. A reader fills it a row at a time
 * ({@link #newRow}, then the columns it knows) and {@link ColumnarParquetWriter} writes it a column at a time, so a
 * row never becomes an object; the block is then cleared and filled again.
 */
public final class ColumnBlock {
    private final StructType schema;
    private final Utf8Strings strings;
    private final Object[] columns;
    /** Whether a number column is an {@code int} (the others are {@code bigint}). */
    private final boolean[] ints;
    /** Each string's Spark form, made once per id: Spark's strings are immutable, so rows may share them. */
    private UTF8String[] utf8 = new UTF8String[256];

    private final int capacity;
    private int size;

    public ColumnBlock(StructType schema, Utf8Strings strings, int capacity) {
        this.schema = schema;
        this.strings = strings;
        this.capacity = capacity;
        this.columns = new Object[schema.size()];
        this.ints = new boolean[schema.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = column(schema.fields()[i], capacity);
            ints[i] = schema.fields()[i].dataType().equals(DataTypes.IntegerType);
        }
    }

    private static Object column(StructField f, int capacity) {
        DataType t = f.dataType();
        if (t.equals(DataTypes.LongType) || t.equals(DataTypes.IntegerType)) return new LongColumn(capacity);
        if (t.equals(DataTypes.StringType)) return new StringColumn(capacity);
        if (t instanceof MapType m
                && m.keyType().equals(DataTypes.StringType)
                && m.valueType().equals(DataTypes.StringType)) return new StringMapColumn(capacity);
        throw new IllegalArgumentException("column " + f.name() + ": " + t.simpleString() + " is not held by a block");
    }

    public StructType schema() {
        return schema;
    }

    public Utf8Strings strings() {
        return strings;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return capacity;
    }

    public boolean isFull() {
        return size == capacity;
    }

    /** Starts the next row with every column null; returns its index. */
    public int newRow() {
        int row = size++;
        for (Object c : columns) {
            if (c instanceof LongColumn l) l.setNull(row);
            else if (c instanceof StringColumn s) s.set(row, Utf8Strings.NULL);
            else ((StringMapColumn) c).endRow(row);
        }
        return row;
    }

    /** Drops the last row started (a reader that could not finish it). */
    public void dropLastRow() {
        if (size == 0) return;
        size--;
        for (Object c : columns) {
            if (c instanceof StringMapColumn m) m.entries = m.start(size);
        }
    }

    public void clear() {
        size = 0;
        for (Object c : columns) if (c instanceof StringMapColumn m) m.clear();
    }

    public LongColumn longs(int position) {
        return (LongColumn) columns[position];
    }

    public StringColumn strings(int position) {
        return (StringColumn) columns[position];
    }

    public StringMapColumn map(int position) {
        return (StringMapColumn) columns[position];
    }

    /** Row {@code row} in Spark's internal form (for what reads rows rather than columns: a Spark scan, tests). */
    public InternalRow row(int row) {
        Object[] v = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            Object c = columns[i];
            if (c instanceof LongColumn l) {
                if (!l.nulls[row]) v[i] = ints[i] ? (Object) (int) l.values[row] : (Object) l.values[row];
            } else if (c instanceof StringColumn s) {
                v[i] = utf8(s.ids[row]);
            } else {
                v[i] = map((StringMapColumn) c, row);
            }
        }
        return new GenericInternalRow(v);
    }

    private ArrayBasedMapData map(StringMapColumn m, int row) {
        int from = m.start(row);
        int n = m.end(row) - from;
        if (n == 0) return null;
        Object[] keys = new Object[n];
        Object[] values = new Object[n];
        for (int e = 0; e < n; e++) {
            keys[e] = utf8(m.keys[from + e]);
            byte kind = m.kinds[from + e];
            long value = m.values[from + e];
            values[e] = kind == StringMapColumn.STRING
                    ? utf8((int) value)
                    : kind == StringMapColumn.LONG ? UTF8String.fromString(Long.toString(value)) : null;
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
    }

    private UTF8String utf8(int id) {
        if (id == Utf8Strings.NULL) return null;
        if (id < 0) return UTF8String.fromBytes(strings.utf8(id)); // not cached: a value of an overflowing file
        if (id >= utf8.length) utf8 = Arrays.copyOf(utf8, Math.max(id + 1, utf8.length * 2));
        UTF8String s = utf8[id];
        if (s == null) utf8[id] = s = UTF8String.fromBytes(strings.utf8(id));
        return s;
    }
}
