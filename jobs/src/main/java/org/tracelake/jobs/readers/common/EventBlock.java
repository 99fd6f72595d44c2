package org.tracelake.jobs.readers.common;

import java.io.IOException;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.jobs.warehouse.columnar.StringMapColumn;
import org.tracelake.schemas.EventSchema;

/**
 * A block of {@code events} rows being filled by a reader that holds its file's strings in a {@link StringTable}: the
 * columns by name (each at its position in {@link EventSchema}, looked up once), strings as the table's ids, the texts
 * a reader derives (classes, collective details) interned into the same table, the file's own columns (workload,
 * path, format) set on every row. What {@link EventRow} is to a reader that makes one row at a time.
 */
public final class EventBlock {
    public static final int RANK = EventSchema.index(EventSchema.RANK);
    public static final int PID = EventSchema.index(EventSchema.PID);
    public static final int TID = EventSchema.index(EventSchema.TID);
    public static final int DEVICE = EventSchema.index(EventSchema.DEVICE);
    public static final int STREAM = EventSchema.index(EventSchema.STREAM);
    public static final int PH = EventSchema.index(EventSchema.PH);
    public static final int CAT = EventSchema.index(EventSchema.CAT);
    public static final int NAME = EventSchema.index(EventSchema.NAME);
    public static final int TS_NS = EventSchema.index(EventSchema.TS_NS);
    public static final int DUR_NS = EventSchema.index(EventSchema.DUR_NS);
    public static final int STEP = EventSchema.index(EventSchema.STEP);
    public static final int CORRELATION = EventSchema.index(EventSchema.CORRELATION);
    public static final int EXTERNAL_ID = EventSchema.index(EventSchema.EXTERNAL_ID);
    public static final int LAUNCH_TS_NS = EventSchema.index(EventSchema.LAUNCH_TS_NS);
    public static final int ACTIVITY_CLASS = EventSchema.index(EventSchema.ACTIVITY_CLASS);
    public static final int KERNEL_CATEGORY = EventSchema.index(EventSchema.KERNEL_CATEGORY);
    public static final int COLLECTIVE = EventSchema.index(EventSchema.COLLECTIVE);
    public static final int IN_NELEMS = EventSchema.index(EventSchema.IN_NELEMS);
    public static final int OUT_NELEMS = EventSchema.index(EventSchema.OUT_NELEMS);
    public static final int DTYPE = EventSchema.index(EventSchema.DTYPE);
    public static final int IN_BYTES = EventSchema.index(EventSchema.IN_BYTES);
    public static final int OUT_BYTES = EventSchema.index(EventSchema.OUT_BYTES);
    public static final int BYTES_SOURCE = EventSchema.index(EventSchema.BYTES_SOURCE);
    public static final int GROUP_SIZE = EventSchema.index(EventSchema.GROUP_SIZE);
    public static final int PG_NAME = EventSchema.index(EventSchema.PG_NAME);
    public static final int PG_RANKS = EventSchema.index(EventSchema.PG_RANKS);
    public static final int SEQ = EventSchema.index(EventSchema.SEQ);
    public static final int ARGS = EventSchema.index(EventSchema.ARGS);

    private static final int WORKLOAD = EventSchema.index(EventSchema.WORKLOAD);
    private static final int SOURCE_FILE = EventSchema.index(EventSchema.SOURCE_FILE);
    private static final int FORMAT = EventSchema.index(EventSchema.FORMAT);
    private static final int ORDINAL = EventSchema.index(EventSchema.ORDINAL);

    private final StringTable strings;
    private final ColumnBlock block;
    private final Args args = new Args();
    private int workload = StringTable.NULL;
    private int sourceFile = StringTable.NULL;
    private int format = StringTable.NULL;

    public EventBlock(StringTable strings, int rows) {
        this.strings = strings;
        this.block = new ColumnBlock(EventSchema.SCHEMA, strings, rows);
    }

    public ColumnBlock block() {
        return block;
    }

    /** The file every row comes from: its workload, path and format, the same on each row. */
    public void file(FileTask task, String formatId) throws IOException {
        workload = strings.intern(task.workload());
        sourceFile = strings.intern(task.path());
        format = strings.intern(formatId);
    }

    /** Starts a row (every other column null) of the file's rank ({@code null}: none); returns its index. */
    public int newRow(Integer rank) {
        int row = block.newRow();
        block.strings(WORKLOAD).set(row, workload);
        block.strings(SOURCE_FILE).set(row, sourceFile);
        block.strings(FORMAT).set(row, format);
        if (rank != null) block.longs(RANK).set(row, rank);
        return row;
    }

    public void ordinal(int row, long ordinal) {
        block.longs(ORDINAL).set(row, ordinal);
    }

    /** A string column's value by its id in the table ({@link StringTable#NULL}: null). */
    public void string(int row, int column, int id) {
        block.strings(column).set(row, id);
    }

    /** A string column's value as text (null: null), interned into the file's table. */
    public void text(int row, int column, String value) throws IOException {
        if (value != null) block.strings(column).set(row, strings.intern(value));
    }

    public void number(int row, int column, long value) {
        block.longs(column).set(row, value);
    }

    /** A number column's value, or null. */
    public void number(int row, int column, Long value) {
        block.longs(column).set(row, value);
    }

    /** The row's args, filled in the file's order; {@link Args#end} closes them. */
    public Args args(int row) {
        args.start(row);
        return args;
    }

    /**
     * The args of one row as a map of the file's args would hold them: a key put twice keeps its first place and
     * takes its last value.
     */
    public final class Args {
        private int row;
        private int from;

        private void start(int row) {
            this.row = row;
            this.from = block.map(ARGS).entries();
        }

        public void putString(int key, int valueId) {
            StringMapColumn m = block.map(ARGS);
            int at = find(m, key);
            if (at >= 0) m.replace(at, valueId);
            else m.add(key, valueId);
        }

        public void putNumber(int key, long value) {
            StringMapColumn m = block.map(ARGS);
            int at = find(m, key);
            if (at >= 0) m.replaceLong(at, value);
            else m.addLong(key, value);
        }

        private int find(StringMapColumn m, int key) {
            for (int e = from; e < m.entries(); e++) if (m.key(e) == key) return e;
            return -1;
        }

        public void end() {
            block.map(ARGS).endRow(row);
        }
    }
}
