package org.tracelake.jobs.metrics.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.rank.RankAccumulator;
import org.tracelake.jobs.rank.RankEvent;

/**
 * The per-rank pass: over partitions sorted by (workload, rank, row kind, start), each rank's events arrive together,
 * CPU-side first, then GPU activities; each rank becomes one {@link WorkloadInput} row holding its
 * {@link org.tracelake.jobs.rank.RankSummary}. Only one rank's summary is in memory at a time.
 */
final class RankPass implements MapPartitionsFunction<Row, Row> {
    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
        List<Row> out = new ArrayList<>();
        String workload = null;
        Integer rank = null;
        RankAccumulator acc = null;
        while (rows.hasNext()) {
            Row r = rows.next();
            String w = r.getString(0);
            int k = r.getInt(1);
            if (acc == null || !Objects.equals(w, workload) || k != rank) {
                if (acc != null) out.add(WorkloadInput.row(workload, WorkloadInput.RANK, acc.finish()));
                workload = w;
                rank = k;
                acc = new RankAccumulator(k);
            }
            acc.accept(RankEvent.of(r));
        }
        if (acc != null) out.add(WorkloadInput.row(workload, WorkloadInput.RANK, acc.finish()));
        return out.iterator();
    }
}
