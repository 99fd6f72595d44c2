package org.tracelake.jobs.metrics.rank;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
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
    /** args the rules read: "blocks per SM", "bytes", "In split size", device_duration_ps, duration_ps, model_flops */
    public String argBlocksPerSm;
    public String argBytes;
    public String argInSplitSize;
    public String argDeviceDurationPs;
    public String argDurationPs;
    public String argModelFlops;

    /** The rank of the events that have none. */
    public static final int UNRANKED = Integer.MIN_VALUE;

    /** The end of the event, for events with a start. */
    public long end() {
        return ts + dur;
    }

    public boolean isGpu() {
        return activityClass != null;
    }

    /** Args the metric rules read, each a column of the projection. */
    static final String[] ARGS = {"blocks per SM", "bytes", "In split size", "device_duration_ps", "duration_ps",
            "model_flops"};

    /** Columns of {@link #input}, in order. */
    static final String[] COLUMNS = {EventSchema.WORKLOAD, EventSchema.RANK, "row_kind", EventSchema.FORMAT,
            EventSchema.PH, EventSchema.CAT, EventSchema.NAME, EventSchema.TS_NS, EventSchema.DUR_NS, EventSchema.STEP,
            EventSchema.ACTIVITY_CLASS, EventSchema.KERNEL_CATEGORY, EventSchema.COLLECTIVE, EventSchema.IN_NELEMS,
            EventSchema.DTYPE, EventSchema.IN_BYTES, EventSchema.OUT_BYTES, EventSchema.BYTES_SOURCE,
            EventSchema.GROUP_SIZE, EventSchema.PG_NAME, EventSchema.PG_RANKS, EventSchema.SEQ, EventSchema.STREAM,
            EventSchema.DEVICE};

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
                case "row_kind" -> when(col(EventSchema.ACTIVITY_CLASS).isNull(), 0).otherwise(1).as("row_kind");
                case EventSchema.RANK -> coalesce(col(EventSchema.RANK), lit(UNRANKED)).as(EventSchema.RANK);
                default -> col(COLUMNS[i]);
            };
        }
        for (int i = 0; i < ARGS.length; i++) {
            cols[COLUMNS.length + i] = col(EventSchema.ARGS).getItem(ARGS[i]).as("arg_" + i);
        }
        return events.where(col(EventSchema.DUR_NS).isNotNull()).select(cols);
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
        int a = COLUMNS.length;
        e.argBlocksPerSm = r.getString(a);
        e.argBytes = r.getString(a + 1);
        e.argInSplitSize = r.getString(a + 2);
        e.argDeviceDurationPs = r.getString(a + 3);
        e.argDurationPs = r.getString(a + 4);
        e.argModelFlops = r.getString(a + 5);
        return e;
    }
}
