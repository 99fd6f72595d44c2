package org.tracelake.jobs.rank;

import java.util.Arrays;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.jobs.warehouse.columnar.LongColumn;
import org.tracelake.jobs.warehouse.columnar.StringColumn;
import org.tracelake.jobs.warehouse.columnar.StringMapColumn;
import org.tracelake.jobs.warehouse.columnar.Utf8Strings;
import org.tracelake.schemas.EventSchema;

/**
 * The per-rank pass's events read straight out of a reader's block of {@code events} columns (what ingest writes):
 * the same {@link RankEvent} that {@link RankEvent#of(org.apache.spark.sql.catalyst.InternalRow, StringTable)} makes of
 * the row, without the row. Strings come from the reader's table by id (one String per distinct value already); the
 * args the rules read are found by their key's id, each id placed once per file.
 */
final class BlockEvents {
    private static final int RANK = EventSchema.index(EventSchema.RANK);
    private static final int FORMAT = EventSchema.index(EventSchema.FORMAT);
    private static final int PH = EventSchema.index(EventSchema.PH);
    private static final int CAT = EventSchema.index(EventSchema.CAT);
    private static final int NAME = EventSchema.index(EventSchema.NAME);
    private static final int TS_NS = EventSchema.index(EventSchema.TS_NS);
    private static final int DUR_NS = EventSchema.index(EventSchema.DUR_NS);
    private static final int STEP = EventSchema.index(EventSchema.STEP);
    private static final int ACTIVITY_CLASS = EventSchema.index(EventSchema.ACTIVITY_CLASS);
    private static final int KERNEL_CATEGORY = EventSchema.index(EventSchema.KERNEL_CATEGORY);
    private static final int COLLECTIVE = EventSchema.index(EventSchema.COLLECTIVE);
    private static final int IN_NELEMS = EventSchema.index(EventSchema.IN_NELEMS);
    private static final int DTYPE = EventSchema.index(EventSchema.DTYPE);
    private static final int IN_BYTES = EventSchema.index(EventSchema.IN_BYTES);
    private static final int OUT_BYTES = EventSchema.index(EventSchema.OUT_BYTES);
    private static final int BYTES_SOURCE = EventSchema.index(EventSchema.BYTES_SOURCE);
    private static final int GROUP_SIZE = EventSchema.index(EventSchema.GROUP_SIZE);
    private static final int PG_NAME = EventSchema.index(EventSchema.PG_NAME);
    private static final int PG_RANKS = EventSchema.index(EventSchema.PG_RANKS);
    private static final int SEQ = EventSchema.index(EventSchema.SEQ);
    private static final int STREAM = EventSchema.index(EventSchema.STREAM);
    private static final int DEVICE = EventSchema.index(EventSchema.DEVICE);
    private static final int LAUNCH_TS_NS = EventSchema.index(EventSchema.LAUNCH_TS_NS);
    private static final int ARGS = EventSchema.index(EventSchema.ARGS);

    private static final byte UNPLACED = -2;
    private static final byte NOT_READ = -1;
    /** For each arg key id of the file: which of {@link RankEvent#ARGS} it is, {@link #NOT_READ}, or not placed yet. */
    private byte[] argOfKey = new byte[0];

    /** Whether the block's row is one the pass reads: it has a duration. */
    static boolean isInput(ColumnBlock b, int row) {
        return !b.longs(DUR_NS).isNull(row);
    }

    static int rankOf(ColumnBlock b, int row) {
        LongColumn rank = b.longs(RANK);
        return rank.isNull(row) ? RankEvent.UNRANKED : (int) rank.get(row);
    }

    RankEvent of(ColumnBlock b, int row) {
        Utf8Strings s = b.strings();
        RankEvent e = new RankEvent();
        e.format = text(b, s, FORMAT, row);
        e.ph = text(b, s, PH, row);
        e.cat = text(b, s, CAT, row);
        e.name = text(b, s, NAME, row);
        e.ts = b.longs(TS_NS).boxed(row);
        e.dur = b.longs(DUR_NS).get(row);
        e.step = b.longs(STEP).boxed(row);
        e.activityClass = text(b, s, ACTIVITY_CLASS, row);
        e.kernelCategory = text(b, s, KERNEL_CATEGORY, row);
        e.collective = text(b, s, COLLECTIVE, row);
        e.inNelems = b.longs(IN_NELEMS).boxed(row);
        e.dtype = text(b, s, DTYPE, row);
        e.inBytes = b.longs(IN_BYTES).boxed(row);
        e.outBytes = b.longs(OUT_BYTES).boxed(row);
        e.bytesSource = text(b, s, BYTES_SOURCE, row);
        LongColumn groupSize = b.longs(GROUP_SIZE);
        e.groupSize = groupSize.isNull(row) ? null : (int) groupSize.get(row);
        e.pgName = text(b, s, PG_NAME, row);
        e.pgRanks = text(b, s, PG_RANKS, row);
        e.seq = b.longs(SEQ).boxed(row);
        e.stream = b.longs(STREAM).boxed(row);
        LongColumn device = b.longs(DEVICE);
        e.device = device.isNull(row) ? null : (int) device.get(row);
        e.launchTs = b.longs(LAUNCH_TS_NS).boxed(row);
        StringMapColumn args = b.map(ARGS);
        for (int entry = args.start(row); entry < args.end(row); entry++) {
            int k = argOf(args.key(entry), s);
            if (k == NOT_READ) continue;
            String value =
                    switch (args.kind(entry)) {
                        case StringMapColumn.STRING -> s.text((int) args.value(entry));
                        case StringMapColumn.LONG -> Long.toString(args.value(entry));
                        default -> null;
                    };
            e.setArg(k, value);
        }
        return e;
    }

    private static String text(ColumnBlock b, Utf8Strings s, int column, int row) {
        StringColumn c = b.strings(column);
        return s.text(c.get(row));
    }

    /** Which read arg a key id is (a loose id, below {@link Utf8Strings#NULL}, is looked up every time). */
    private int argOf(int key, Utf8Strings s) {
        if (key < 0) return place(s.text(key));
        if (key >= argOfKey.length) {
            int old = argOfKey.length;
            argOfKey = Arrays.copyOf(argOfKey, Math.max(key + 1, old * 2));
            Arrays.fill(argOfKey, old, argOfKey.length, UNPLACED);
        }
        if (argOfKey[key] == UNPLACED) argOfKey[key] = (byte) place(s.text(key));
        return argOfKey[key];
    }

    private static int place(String key) {
        for (int k = 0; k < RankEvent.ARGS.length; k++) if (RankEvent.ARGS[k].equals(key)) return k;
        return NOT_READ;
    }
}
