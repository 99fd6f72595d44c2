package org.tracelake.jobs.metrics.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.rank.RankEvent;
import org.tracelake.jobs.metrics.rank.RankSummary;
import org.tracelake.jobs.metrics.workload.Card;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.metrics.workload.EtAllToAll;
import org.tracelake.jobs.metrics.workload.Families;
import org.tracelake.jobs.metrics.workload.Workload;

/**
 * The workload step: every rank's summary, the card, the execution-trace all_to_all nodes and the side families' rows of
 * one workload meet here; the families compute its workload-, rank- and step-scope rows and the cross-rank tables.
 */
final class WorkloadReducer implements FlatMapGroupsFunction<String, Row, Row> {
    private final DevicePeakTable peaks;

    WorkloadReducer(DevicePeakTable peaks) {
        this.peaks = peaks;
    }

    @Override
    public Iterator<Row> call(String workload, Iterator<Row> rows) {
        Card card = Card.NONE;
        List<RankSummary> ranks = new ArrayList<>();
        RankSummary unranked = null;
        List<EtAllToAll> et = new ArrayList<>();
        List<MetricRow> side = new ArrayList<>();
        while (rows.hasNext()) {
            Row r = rows.next();
            Object value = Blobs.read(r.getAs("blob"));
            switch (r.getString(1)) {
                case WorkloadInput.RANK -> {
                    RankSummary summary = (RankSummary) value;
                    if (summary.rank == RankEvent.UNRANKED) unranked = summary;
                    else ranks.add(summary);
                }
                case WorkloadInput.CARD -> card = (Card) value;
                case WorkloadInput.ET_ALL_TO_ALL -> et.add((EtAllToAll) value);
                case WorkloadInput.SIDE_METRIC -> side.add((MetricRow) value);
                default -> throw new IllegalStateException("unknown workload input " + r.getString(1));
            }
        }
        ranks.sort(Comparator.comparingInt(s -> s.rank));
        Workload w = new Workload(workload, card, ranks, unranked, et, peaks);
        Families.compute(w, side);
        List<Row> out = new ArrayList<>(w.metrics.size() + side.size() + w.members.size() + w.instances.size());
        for (MetricRow m : w.metrics) out.add(WorkloadOutput.metric(m));
        for (MetricRow m : side) out.add(WorkloadOutput.metric(m));
        for (Workload.Member m : w.members) out.add(WorkloadOutput.member(workload, m));
        for (Workload.Instance i : w.instances) out.add(WorkloadOutput.instance(workload, i));
        for (Workload.Pair p : w.pairs) out.add(WorkloadOutput.pair(workload, p));
        return out.iterator();
    }
}
