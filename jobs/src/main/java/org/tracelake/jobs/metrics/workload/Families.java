package org.tracelake.jobs.metrics.workload;

import java.util.List;
import org.tracelake.jobs.metrics.MetricRow;

/** The metric families of one workload, in the order their results depend on each other. */
public final class Families {
    private Families() {}

    /** Computes every family's rows of the workload into it; side rows are the side-table families' own. */
    public static void compute(Workload w, List<MetricRow> sideRows) {
        CommunicationFamily.compute(w);
        OverlapFamily.compute(w);
        CrossRankFamily.compute(w); // the cross-rank join, which AllToAllFamily reads
        AllToAllFamily.compute(w);
        WaitFamily.compute(w); // reads the join and AllToAllFamily's rank-pair volumes
        LocalityFamily.compute(w);
        StepFamily.compute(w);
        KernelFamily.compute(w);
        KernelTotalsFamily.compute(w);
        KernelStepFamily.compute(w);
        AnnotationFamily.compute(w);
        TrafficFamily.compute(w);
        XlaFamily.compute(w, hasWorkloadRow(w, "communication_fraction"));
        LatenessFamily.compute(w); // reads the join and straggler_lag's straggler
        GpuSlownessFamily.compute(w);
        IdleBreakdownFamily.compute(w);
        ProfilerHazardFamily.compute(w);
        Gaps.compute(w, sideRows);
    }

    private static boolean hasWorkloadRow(Workload w, String metric) {
        return w.metrics.stream().anyMatch(r -> r.metric().equals(metric) && "workload".equals(r.scope()));
    }
}
