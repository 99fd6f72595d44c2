package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.KernelTimePart;
import org.tracelake.jobs.rank.LeaderboardKernelPart;
import org.tracelake.jobs.rank.PhasePart;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankParts;

/**
 * The metric families of one workload, each listed once, in the order their results depend on each other: its workload
 * step and the per-rank parts it reads ({@link org.tracelake.jobs.rank.RankSummary#part}; a family without any reads
 * only the rank's frame). A part only one family reads is a nested class of that family's file; one that several read
 * lives in {@code rank/} beside the pass. The pass runs the parts listed here ({@link #RANK_PARTS}), handed down to it
 * by the refresh (ingest runs it as it reads a file) and by the metrics phase.
 */
public final class Families {
    private Families() {}

    /** One family: its name, the per-rank parts its step reads, and the step. */
    public record Family(String name, List<RankPart.Factory> parts, Consumer<Workload> step) {}

    public static final List<Family> ALL = List.of(
            family("communication", CommunicationFamily::compute),
            family("overlap", OverlapFamily::compute),
            // the cross-rank join, which AllToAllFamily reads
            family("cross_rank", CrossRankFamily::compute, LeaderboardKernelPart::new),
            family("all_to_all", AllToAllFamily::compute),
            // reads the join and AllToAllFamily's rank-pair volumes
            family("wait", WaitFamily::compute),
            family("locality", LocalityFamily::compute),
            family("step", StepFamily::compute),
            family(
                    "kernel",
                    KernelFamily::compute,
                    LeaderboardKernelPart::new,
                    KernelFamily.CopyPart::new,
                    KernelTimePart::new,
                    KernelFamily.RuntimePart::new),
            family("kernel_totals", KernelTotalsFamily::compute, KernelTotalsFamily.GpuTotalsPart::new),
            family("kernel_step", KernelStepFamily::compute, KernelTimePart::new),
            family("annotation", AnnotationFamily::compute, AnnotationFamily.FsdpPart::new, PhasePart::new),
            family("traffic", TrafficFamily::compute),
            family(
                    "xla",
                    w -> XlaFamily.compute(w, hasWorkloadRow(w, "communication_fraction")),
                    XlaFamily.XlaPart::new),
            // reads the join and straggler_lag's straggler
            family("lateness", LatenessFamily::compute, LatenessFamily.LeadInPart::new),
            family("gpu_slowness", GpuSlownessFamily::compute, GpuSlownessFamily.KernelShapePart::new),
            family("idle_breakdown", IdleBreakdownFamily::compute, IdleBreakdownFamily.IdleGapPart::new),
            family(
                    "profiler_hazard",
                    ProfilerHazardFamily::compute,
                    KernelTimePart::new,
                    ProfilerHazardFamily.LaunchLedger::new));

    /** The parts the gap rows read to say why a metric is missing ({@link Gaps}, after every family). */
    public static final List<RankPart.Factory> GAPS_PARTS =
            List.of(KernelTimePart::new, LeaderboardKernelPart::new, PhasePart::new);

    /** Every part a family or the gap rows read, each once: what the per-rank pass runs. */
    public static final RankParts RANK_PARTS = rankParts();

    private static Family family(String name, Consumer<Workload> step, RankPart.Factory... parts) {
        return new Family(name, List.of(parts), step);
    }

    private static RankParts rankParts() {
        List<RankPart.Factory> all = new ArrayList<>();
        for (Family f : ALL) all.addAll(f.parts());
        all.addAll(GAPS_PARTS);
        return new RankParts(all);
    }

    /** Computes every family's rows of the workload into it; side rows are the side-table families' own. */
    public static void compute(Workload w, List<MetricRow> sideRows) {
        for (Family f : ALL) f.step().accept(w);
        Gaps.compute(w, sideRows);
    }

    private static boolean hasWorkloadRow(Workload w, String metric) {
        return w.metrics.stream().anyMatch(r -> r.metric().equals(metric) && "workload".equals(r.scope()));
    }
}
