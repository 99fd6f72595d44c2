package org.tracelake.jobs.rank;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.util.Comparator;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.unsafe.types.UTF8String;
import org.tracelake.schemas.EventSchema;

/**
 * One event as the per-rank metric pass reads it: the columns of {@code events} the metric rules use, and the few
 * {@code args} they read, taken out of the map before the shuffle so that the map itself never travels. CPU-side
 * events ({@code activity_class} null) sort before GPU activities, each kind in time order (see {@link #input}).
 */
public final class RankEvent {
    public String format;
    public String ph;
    public String cat;
    public String name;
    public Long ts;
    public long dur;
    public Long step;
    public String activityClass;
    public String kernelCategory;
    public String collective;
    public Long inNelems;
    public String dtype;
    public Long inBytes;
    public Long outBytes;
    public String bytesSource;
    public Integer groupSize;
    public String pgName;
    public String pgRanks;
    public Long seq;
    public Long stream;
    public Integer device;
    /** The start of the CPU runtime call that launched a GPU activity (joined on correlation), or null. */
    public Long launchTs;
    /**
     * args the rules read: "blocks per SM", "bytes", "In split size", device_duration_ps, duration_ps, model_flops, and
     * a kernel's launch geometry "grid" and "block"
     */
    public String argBlocksPerSm;

    public String argBytes;
    public String argInSplitSize;
    public String argDeviceDurationPs;
    public String argDurationPs;
    public String argModelFlops;
    public String argGrid;
    public String argBlock;

    /** The rank of the events that have none. */
    public static final int UNRANKED = Integer.MIN_VALUE;

    /** The end of the event, for events with a start. */
    public long end() {
        return ts + dur;
    }

    public boolean isGpu() {
        return activityClass != null;
    }

    /**
     * The order a rank's events are passed in: CPU-side events before GPU activities, each kind by start (an event
     * without a start first, as Spark sorts nulls); the sort is stable, so events with one start keep the order the
     * reader gave them, as Spark's sort of {@link #input} keeps it.
     */
    public static final Comparator<RankEvent> ORDER = Comparator.comparing(RankEvent::isGpu)
            .thenComparing(e -> e.ts, Comparator.nullsFirst(Comparator.naturalOrder()));

    /** Args the metric rules read, each a column of the projection. */
    static final String[] ARGS = {
        "blocks per SM", "bytes", "In split size", "device_duration_ps", "duration_ps", "model_flops", "grid", "block"
    };

    /** Columns of {@link #input}, in order. */
    static final String[] COLUMNS = {
        EventSchema.WORKLOAD,
        EventSchema.RANK,
        "row_kind",
        EventSchema.FORMAT,
        EventSchema.PH,
        EventSchema.CAT,
        EventSchema.NAME,
        EventSchema.TS_NS,
        EventSchema.DUR_NS,
        EventSchema.STEP,
        EventSchema.ACTIVITY_CLASS,
        EventSchema.KERNEL_CATEGORY,
        EventSchema.COLLECTIVE,
        EventSchema.IN_NELEMS,
        EventSchema.DTYPE,
        EventSchema.IN_BYTES,
        EventSchema.OUT_BYTES,
        EventSchema.BYTES_SOURCE,
        EventSchema.GROUP_SIZE,
        EventSchema.PG_NAME,
        EventSchema.PG_RANKS,
        EventSchema.SEQ,
        EventSchema.STREAM,
        EventSchema.DEVICE,
        EventSchema.LAUNCH_TS_NS
    };

    /**
     * The events every per-rank rule reads: those with a duration (an event without one is an instant or a counter),
     * projected to {@link #COLUMNS} and the read args, with {@code row_kind} 0 for CPU-side events and 1 for GPU
     * activities. Events without a rank (an XLA trace's host lines) get rank {@link #UNRANKED}: they belong to no
     * rank's figures but to the workload's XLA wall time and copy bandwidth.
     */
    public static Dataset<Row> input(Dataset<Row> events) {
        Column[] cols = new Column[COLUMNS.length + ARGS.length];
        for (int i = 0; i < COLUMNS.length; i++) {
            cols[i] = switch (COLUMNS[i]) {
                case "row_kind" ->
                    when(col(EventSchema.ACTIVITY_CLASS).isNull(), 0)
                            .otherwise(1)
                            .as("row_kind");
                case EventSchema.RANK ->
                    coalesce(col(EventSchema.RANK), lit(UNRANKED)).as(EventSchema.RANK);
                default -> col(COLUMNS[i]);
            };
        }
        for (int i = 0; i < ARGS.length; i++) {
            cols[COLUMNS.length + i] = col(EventSchema.ARGS).getItem(ARGS[i]).as("arg_" + i);
        }
        return events.where(col(EventSchema.DUR_NS).isNotNull()).select(cols);
    }

    /** Positions in {@link EventSchema#SCHEMA} of {@link #COLUMNS} (-1 for {@code row_kind}, derived). */
    private static final int[] EVENT_POSITIONS = new int[COLUMNS.length];

    private static final UTF8String[] ARG_KEYS = new UTF8String[ARGS.length];
    private static final int ARGS_AT = EventSchema.index(EventSchema.ARGS);

    static {
        for (int i = 0; i < COLUMNS.length; i++) {
            EVENT_POSITIONS[i] = COLUMNS[i].equals("row_kind") ? -1 : EventSchema.index(COLUMNS[i]);
        }
        for (int i = 0; i < ARGS.length; i++) ARG_KEYS[i] = UTF8String.fromString(ARGS[i]);
    }

    /** True when an {@code events} row (in {@link EventSchema#SCHEMA}) is one the per-rank pass reads. */
    public static boolean isInput(InternalRow event) {
        return !event.isNullAt(EVENT_POSITIONS[8]);
    }

    /** The rank of an {@code events} row, {@link #UNRANKED} for none. */
    public static int rankOf(InternalRow event) {
        int p = EVENT_POSITIONS[1];
        return event.isNullAt(p) ? UNRANKED : event.getInt(p);
    }

    /**
     * The event of an {@code events} row as a reader produced it (in {@link EventSchema#SCHEMA}, before it is
     * written): the same values {@link #of(Row)} reads back from the table, the strings taken through
     * {@code strings} so that a file's repeated names are held once.
     */
    public static RankEvent of(InternalRow r, StringTable strings) {
        int[] p = EVENT_POSITIONS;
        RankEvent e = new RankEvent();
        e.format = strings.get(r, p[3]);
        e.ph = strings.get(r, p[4]);
        e.cat = strings.get(r, p[5]);
        e.name = strings.get(r, p[6]);
        e.ts = r.isNullAt(p[7]) ? null : r.getLong(p[7]);
        e.dur = r.getLong(p[8]);
        e.step = r.isNullAt(p[9]) ? null : r.getLong(p[9]);
        e.activityClass = strings.get(r, p[10]);
        e.kernelCategory = strings.get(r, p[11]);
        e.collective = strings.get(r, p[12]);
        e.inNelems = r.isNullAt(p[13]) ? null : r.getLong(p[13]);
        e.dtype = strings.get(r, p[14]);
        e.inBytes = r.isNullAt(p[15]) ? null : r.getLong(p[15]);
        e.outBytes = r.isNullAt(p[16]) ? null : r.getLong(p[16]);
        e.bytesSource = strings.get(r, p[17]);
        e.groupSize = r.isNullAt(p[18]) ? null : r.getInt(p[18]);
        e.pgName = strings.get(r, p[19]);
        e.pgRanks = strings.get(r, p[20]);
        e.seq = r.isNullAt(p[21]) ? null : r.getLong(p[21]);
        e.stream = r.isNullAt(p[22]) ? null : r.getLong(p[22]);
        e.device = r.isNullAt(p[23]) ? null : r.getInt(p[23]);
        e.launchTs = r.isNullAt(p[24]) ? null : r.getLong(p[24]);
        if (!r.isNullAt(ARGS_AT)) {
            MapData args = r.getMap(ARGS_AT);
            ArrayData keys = args.keyArray();
            ArrayData values = args.valueArray();
            boolean[] found = new boolean[ARG_KEYS.length];
            for (int i = 0; i < args.numElements(); i++) {
                UTF8String key = keys.getUTF8String(i);
                for (int k = 0; k < ARG_KEYS.length; k++) {
                    if (!ARG_KEYS[k].equals(key)) continue;
                    if (!found[k]) { // a map lookup finds a key's first entry
                        found[k] = true;
                        String value = values.isNullAt(i) ? null : strings.get(values.getUTF8String(i));
                        e.setArg(k, value);
                    }
                    break;
                }
            }
        }
        return e;
    }

    /** The event of one row of {@link #input}. */
    public static RankEvent of(Row r) {
        RankEvent e = new RankEvent();
        e.format = r.getString(3);
        e.ph = r.getString(4);
        e.cat = r.getString(5);
        e.name = r.getString(6);
        e.ts = r.isNullAt(7) ? null : r.getLong(7);
        e.dur = r.getLong(8);
        e.step = r.isNullAt(9) ? null : r.getLong(9);
        e.activityClass = r.getString(10);
        e.kernelCategory = r.getString(11);
        e.collective = r.getString(12);
        e.inNelems = r.isNullAt(13) ? null : r.getLong(13);
        e.dtype = r.getString(14);
        e.inBytes = r.isNullAt(15) ? null : r.getLong(15);
        e.outBytes = r.isNullAt(16) ? null : r.getLong(16);
        e.bytesSource = r.getString(17);
        e.groupSize = r.isNullAt(18) ? null : r.getInt(18);
        e.pgName = r.getString(19);
        e.pgRanks = r.getString(20);
        e.seq = r.isNullAt(21) ? null : r.getLong(21);
        e.stream = r.isNullAt(22) ? null : r.getLong(22);
        e.device = r.isNullAt(23) ? null : r.getInt(23);
        e.launchTs = r.isNullAt(24) ? null : r.getLong(24);
        int a = COLUMNS.length;
        e.argBlocksPerSm = r.getString(a);
        e.argBytes = r.getString(a + 1);
        e.argInSplitSize = r.getString(a + 2);
        e.argDeviceDurationPs = r.getString(a + 3);
        e.argDurationPs = r.getString(a + 4);
        e.argModelFlops = r.getString(a + 5);
        e.argGrid = r.getString(a + 6);
        e.argBlock = r.getString(a + 7);
        return e;
    }

    /** Sets the arg the rules read at position {@code k} of {@link #ARG_KEYS}, from a row or from a block alike. */
    void setArg(int k, String value) {
        switch (k) {
            case 0 -> argBlocksPerSm = value;
            case 1 -> argBytes = value;
            case 2 -> argInSplitSize = value;
            case 3 -> argDeviceDurationPs = value;
            case 4 -> argDurationPs = value;
            case 5 -> argModelFlops = value;
            case 6 -> argGrid = value;
            default -> argBlock = value;
        }
    }
}
