package org.tracelake.jobs.metrics.engine;

import java.io.IOException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.findings.Finding;
import org.tracelake.jobs.metrics.findings.FindingRules;
import org.tracelake.jobs.metrics.findings.FindingThresholds;
import org.tracelake.jobs.metrics.side.SideRows;
import org.tracelake.jobs.metrics.workload.Card;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.metrics.workload.EtAllToAll;
import org.tracelake.jobs.metrics.workload.Families;
import org.tracelake.jobs.metrics.workload.Workload;
import org.tracelake.jobs.rank.Blobs;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.schemas.Tables;
import scala.Tuple2;

/**
 * The workload step: every rank's summary, the card, the execution-trace all_to_all nodes and the side tables' rows of
 * one workload meet here; the families compute its workload-, rank- and step-scope rows and the cross-rank tables,
 * the side families ({@link SideRows}) their rows and the workload's stuck collectives, and this task writes them as
 * the workload's staged partitions. It returns the workload's counts: metric rows written, collective instances.
 */
final class WorkloadReducer implements Function<Tuple2<String, Iterable<WorkloadInputs.Input>>, long[]> {
    private final DevicePeakTable peaks;
    private final PartitionFiles files;
    private final Timestamp computedAt;
    private final FindingThresholds thresholds;

    WorkloadReducer(DevicePeakTable peaks, PartitionFiles files, Timestamp computedAt, FindingThresholds thresholds) {
        this.peaks = peaks;
        this.thresholds = thresholds;
        this.files = files;
        this.computedAt = computedAt;
    }

    @Override
    public long[] call(Tuple2<String, Iterable<WorkloadInputs.Input>> group) throws IOException {
        String workload = group._1();
        Card card = Card.NONE;
        List<RankSummary> ranks = new ArrayList<>();
        RankSummary unranked = null;
        List<EtAllToAll> et = new ArrayList<>();
        SideRows sideRows = new SideRows();
        for (WorkloadInputs.Input input : group._2()) {
            Object value = Blobs.read(input.blob());
            switch (input.kind()) {
                case WorkloadInput.RANK -> {
                    RankSummary summary = (RankSummary) value;
                    if (summary.rank == RankEvent.UNRANKED) unranked = summary;
                    else ranks.add(summary);
                }
                case WorkloadInput.CARD -> card = (Card) value;
                case WorkloadInput.ET_ALL_TO_ALL -> et.add((EtAllToAll) value);
                case WorkloadInput.SIDE_ROWS -> {
                    RowChunk chunk = (RowChunk) value;
                    chunk.forEach(row -> sideRows.add(chunk.table(), row));
                }
                default -> throw new IllegalStateException("unknown workload input " + input.kind());
            }
        }
        ranks.sort(Comparator.comparingInt(s -> s.rank));
        SideRows.Result sideResult = sideRows.compute(workload);
        List<MetricRow> side = sideResult.metricRows();
        Workload w = new Workload(workload, card, ranks, unranked, et, peaks);
        Families.compute(w, side);

        List<Row> metrics = new ArrayList<>(w.metrics.size() + side.size());
        for (MetricRow m : w.metrics) metrics.add(WorkloadOutput.metric(m, computedAt, MetricEngine.PIPELINE_VERSION));
        for (MetricRow m : side) metrics.add(WorkloadOutput.metric(m, computedAt, MetricEngine.PIPELINE_VERSION));
        // the cause of an instance goes on its last arriver's member row too, so SQL finds late ranks by cause
        Map<String, String> lateCause = new HashMap<>();
        w.causes.forEach((i, c) -> lateCause.put(i.matchKey() + "\u0000" + i.k() + "\u0000" + i.lastRank(), c.cause()));
        List<Row> members = new ArrayList<>(w.members.size());
        for (Workload.Member m : w.members) {
            String cause = lateCause.get(m.matchKey() + "\u0000" + m.k() + "\u0000" + m.rank());
            members.add(WorkloadOutput.member(workload, m, w.leadIns.get(m), cause));
        }
        List<Row> instances = new ArrayList<>(w.instances.size());
        for (Workload.Instance i : w.instances) instances.add(WorkloadOutput.instance(workload, i, w.causes.get(i)));
        List<Row> pairs = new ArrayList<>(w.pairs.size());
        for (Workload.Pair p : w.pairs) pairs.add(WorkloadOutput.pair(workload, p));
        List<Row> kernels = new ArrayList<>(w.kernelTotals.size());
        for (Workload.KernelTotal t : w.kernelTotals) kernels.add(WorkloadOutput.kernelTotal(workload, t));
        files.write(Tables.METRICS, workload, metrics);
        files.write(Tables.KERNEL_TOTALS, workload, kernels);
        files.write(Tables.COLLECTIVE_MEMBERS, workload, members);
        files.write(Tables.COLLECTIVES, workload, instances);
        files.write(Tables.ALL_TO_ALL_PAIRS, workload, pairs);
        // no partition without a stuck collective, as a Spark write of the table left none
        List<Row> hangs = new ArrayList<>(sideResult.hangs().size());
        for (CollectiveHang h : sideResult.hangs()) hangs.add(h.toRow());
        files.write(Tables.COLLECTIVE_HANGS, workload, hangs);
        List<MetricRow> all = new ArrayList<>(w.metrics);
        all.addAll(side);
        List<Row> findings = new ArrayList<>();
        FindingRules.Device device = new FindingRules.Device(card.xpuModel(), peaks.memoryBytesFor(card.xpuModel()));
        for (Finding f : FindingRules.all(workload, all, sideResult.hangs(), device, thresholds))
            findings.add(f.toRow());
        files.write(Tables.FINDINGS, workload, findings);
        return new long[] {metrics.size(), instances.size()};
    }
}
