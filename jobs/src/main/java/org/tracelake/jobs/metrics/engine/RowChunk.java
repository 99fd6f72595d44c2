package org.tracelake.jobs.metrics.engine;

import java.io.Serializable;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.unsafe.Platform;

/**
 * Rows of one side table of one workload, from one input partition, as one input of the workload task: the rows in
 * Spark's own binary form ({@link UnsafeRow}, the columns the table's family reads, without the workload, which is
 * the input's key) back to back in one byte array, and where each ends.
 *
 * <p>Why this form: a memory snapshot has 100k+ rows, and a Java-serialised object per row would be an object graph
 * per row to write, shuffle and read. Binary rows are what Spark's own shuffle carries: they are copied in as the
 * partition streams by, with no object per row, serialise as two arrays, and are read back in place (one
 * {@link UnsafeRow} pointed at each row in turn) by the family's decoder, which reads only its cells.
 */
final class RowChunk implements Serializable {
    private final String table;
    private final int fields;
    private final byte[] bytes;
    /** Where each row ends in {@link #bytes}: row i spans [ends[i-1], ends[i]). */
    private final int[] ends;

    private RowChunk(String table, int fields, byte[] bytes, int[] ends) {
        this.table = table;
        this.fields = fields;
        this.bytes = bytes;
        this.ends = ends;
    }

    /** The side table the rows are of. */
    String table() {
        return table;
    }

    /** Each row in turn, as one reused row: the action reads what it keeps before it returns. */
    void forEach(Consumer<InternalRow> action) {
        UnsafeRow row = new UnsafeRow(fields);
        int start = 0;
        for (int end : ends) {
            row.pointTo(bytes, Platform.BYTE_ARRAY_OFFSET + start, end - start);
            action.accept(row);
            start = end;
        }
    }

    /** Gathers the rows of a chunk as they stream by. */
    static final class Builder {
        private final String table;
        private final int fields;
        private byte[] bytes = new byte[4096];
        private int length;
        private int[] ends = new int[64];
        private int rows;

        Builder(String table, int fields) {
            this.table = table;
            this.fields = fields;
        }

        /** Copies the row in (it may be a buffer its producer reuses). */
        void add(UnsafeRow row) {
            if (row.numFields() != fields)
                throw new IllegalArgumentException(
                        table + ": a row of " + row.numFields() + " columns in a chunk of " + fields);
            int size = row.getSizeInBytes();
            if (length + size > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + size));
            row.writeToMemory(bytes, Platform.BYTE_ARRAY_OFFSET + length);
            length += size;
            if (rows == ends.length) ends = Arrays.copyOf(ends, rows * 2);
            ends[rows++] = length;
        }

        /** The bytes gathered so far. */
        int bytes() {
            return length;
        }

        RowChunk build() {
            return new RowChunk(table, fields, Arrays.copyOf(bytes, length), Arrays.copyOf(ends, rows));
        }
    }
}
