package org.tracelake.jobs.metrics.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.workload.Families;
import org.tracelake.jobs.rank.RankAccumulator;
import org.tracelake.jobs.rank.RankEvent;
import scala.Tuple2;

/**
 * The per-rank pass: over partitions sorted by (workload, rank, row kind, start), each rank's events arrive together,
 * CPU-side first, then GPU activities; each rank becomes one workload input holding its
 * {@link org.tracelake.jobs.rank.RankSummary}. Only one rank's summary is in memory at a time.
 */
final class RankPass implements WorkloadInputs.ConvertPartition {
    @Override
    public Iterator<Tuple2<String, WorkloadInputs.Input>> apply(Iterator<Row> rows) {
        List<Tuple2<String, WorkloadInputs.Input>> out = new ArrayList<>();
        String workload = null;
        Integer rank = null;
        RankAccumulator acc = null;
        while (rows.hasNext()) {
            Row r = rows.next();
            String w = r.getString(0);
            int k = r.getInt(1);
            if (acc == null || !Objects.equals(w, workload) || k != rank) {
                if (acc != null) out.add(WorkloadInputs.pair(workload, WorkloadInput.RANK, acc.finish()));
                workload = w;
                rank = k;
                acc = new RankAccumulator(k, Families.RANK_PARTS);
            }
            acc.accept(RankEvent.of(r));
        }
        if (acc != null) out.add(WorkloadInputs.pair(workload, WorkloadInput.RANK, acc.finish()));
        return out.iterator();
    }
}
