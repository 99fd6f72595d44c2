package org.tracelake.jobs.metrics.engine;

import java.sql.Timestamp;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.workload.Workload;

/**
 * The rows the workload step writes, each in its table's catalog schema ({@code metrics}, {@code collective_members},
 * {@code collectives}, {@code all_to_all_pairs}, {@code kernel_totals}), the workload column first.
 */
final class WorkloadOutput {
    private WorkloadOutput() {}

    /** A metrics row, stamped with when and by which version of the pipeline it was computed. */
    static Row metric(MetricRow m, Timestamp computedAt, String pipelineVersion) {
        return RowFactory.create(
                m.workload(),
                m.metric(),
                m.figure(),
                m.value(),
                m.unit(),
                m.scope(),
                m.rank(),
                m.step(),
                m.key(),
                m.status(),
                m.reason(),
                computedAt,
                pipelineVersion);
    }

    static Row member(String workload, Workload.Member m, Workload.LeadIn window, String cause) {
        return RowFactory.create(
                workload,
                m.rank(),
                m.matchKey(),
                m.bySeq(),
                m.k(),
                m.ts(),
                m.end(),
                m.kind(),
                m.groupSize(),
                m.sizeBytes(),
                window == null ? null : window.from(),
                window == null ? null : window.computeNs(),
                window == null ? null : window.idleNs(),
                cause);
    }

    static Row instance(String workload, Workload.Instance i, Workload.Cause c) {
        return RowFactory.create(
                workload,
                i.matchKey(),
                i.matchBy(),
                i.k(),
                i.kind(),
                i.groupSize(),
                i.bytes(),
                i.ranks(),
                i.minStart(),
                i.maxStart(),
                i.minEnd(),
                i.maxEnd(),
                i.lag(),
                i.maxEnd() - i.minEnd(),
                i.lastRank(),
                i.busbw(),
                c == null ? null : c.cause(),
                c == null ? null : c.deltaStartNs(),
                c == null ? null : c.deltaComputeNs(),
                c == null ? null : c.deltaIdleNs());
    }

    static Row kernelTotal(String workload, Workload.KernelTotal t) {
        return RowFactory.create(
                workload,
                t.rank(),
                t.name(),
                t.activityClass(),
                t.kernelCategory(),
                t.collective(),
                t.sizeBucket(),
                t.calls(),
                t.durNs(),
                t.bytes(),
                t.busbwSamples());
    }

    static Row pair(String workload, Workload.Pair p) {
        return RowFactory.create(workload, p.matchKey(), p.k(), p.source(), p.srcRank(), p.dstRank(), p.bytes());
    }
}
