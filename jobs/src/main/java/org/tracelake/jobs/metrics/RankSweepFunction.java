package org.tracelake.jobs.metrics;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Runs {@link RankSweep} over partitions sorted by (workload, rank, row_kind, ts_ns): each rank's rows arrive
 * together, step windows first, then GPU activities in start order. Emits one row per fact.
 */
final class RankSweepFunction implements MapPartitionsFunction<Row, Row> {
    /** Columns of the sweep input (metrics/sweep_input.sql), in order. */
    static final String[] INPUT = {"workload", "rank", "row_kind", "ts_ns", "end_ns", "step", "activity_class",
            "is_kernel", "collective", "is_copy", "is_ccl_event", "is_ccl_comm_name"};

    static final StructType OUTPUT = new StructType()
            .add("workload", DataTypes.StringType, false)
            .add("rank", DataTypes.IntegerType, false)
            .add("step", DataTypes.LongType, true)
            .add("fact", DataTypes.StringType, false)
            .add("value_ns", DataTypes.LongType, false);

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
        List<Row> out = new ArrayList<>();
        String workload = null;
        Integer rank = null;
        RankSweep sweep = null;
        while (rows.hasNext()) {
            Row r = rows.next();
            String w = r.getString(0);
            Integer k = r.isNullAt(1) ? null : r.getInt(1);
            if (sweep == null || !Objects.equals(w, workload) || !Objects.equals(k, rank)) {
                if (sweep != null) flush(sweep, workload, rank, out);
                workload = w;
                rank = k;
                sweep = new RankSweep();
            }
            long start = r.getLong(3);
            long end = r.getLong(4);
            if (r.getInt(2) == 0) {
                sweep.addWindow(r.getLong(5), start, end);
            } else {
                sweep.addActivity(start, end, r.getString(6), r.getBoolean(7), r.isNullAt(5) ? null : r.getLong(5),
                        r.getString(8), r.getBoolean(9), r.getBoolean(10), r.getBoolean(11));
            }
        }
        if (sweep != null) flush(sweep, workload, rank, out);
        return out.iterator();
    }

    private static void flush(RankSweep sweep, String workload, Integer rank, List<Row> out) {
        if (rank == null) return; // events without a rank cannot be attributed
        sweep.emit(f -> out.add(RowFactory.create(workload, rank, f.step(), f.fact(), f.value())));
    }
}
