package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.CopyPart.Copies;
import org.tracelake.jobs.rank.FsdpPart.Fsdp;
import org.tracelake.jobs.rank.GpuTotalsPart.GpuTotals;
import org.tracelake.jobs.rank.IdleGapPart.IdleGaps;
import org.tracelake.jobs.rank.KernelShapePart.KernelShapes;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.LaunchLedger.MissingLaunches;
import org.tracelake.jobs.rank.LeadInPart.LeadIns;
import org.tracelake.jobs.rank.LeaderboardKernelPart.LeaderboardKernels;
import org.tracelake.jobs.rank.PhasePart.Phases;
import org.tracelake.jobs.rank.RuntimePart.Runtime;
import org.tracelake.jobs.rank.StreamClipper.Clipped;
import org.tracelake.jobs.rank.XlaPart.Xla;

/**
 * The metric families of one workload, each listed once, in the order their results depend on each other: its workload
 * step and the per-rank parts' results it reads ({@link org.tracelake.jobs.rank.RankSummary#part}; a family without
 * any reads only the rank's frame). The parts themselves are made by the rank pass, which sits below the metrics and
 * lists them in {@code rank/RankParts}; FamiliesTest holds the two lists to each other.
 */
public final class Families {
    private Families() {}

    /** One family: its name, the part results its step reads, and the step. */
    public record Family(String name, List<Class<? extends Serializable>> reads, Consumer<Workload> step) {}

    public static final List<Family> ALL = List.of(
            family("communication", CommunicationFamily::compute),
            family("overlap", OverlapFamily::compute),
            // the cross-rank join, which AllToAllFamily reads
            family("cross_rank", CrossRankFamily::compute, LeaderboardKernels.class),
            family("all_to_all", AllToAllFamily::compute),
            // reads the join and AllToAllFamily's rank-pair volumes
            family("wait", WaitFamily::compute),
            family("locality", LocalityFamily::compute),
            family("step", StepFamily::compute),
            family(
                    "kernel",
                    KernelFamily::compute,
                    LeaderboardKernels.class,
                    Copies.class,
                    KernelTime.class,
                    Runtime.class),
            family("kernel_totals", KernelTotalsFamily::compute, GpuTotals.class),
            family("kernel_step", KernelStepFamily::compute, KernelTime.class),
            family("annotation", AnnotationFamily::compute, Fsdp.class, Phases.class),
            family("traffic", TrafficFamily::compute),
            family("xla", w -> XlaFamily.compute(w, hasWorkloadRow(w, "communication_fraction")), Xla.class),
            // reads the join and straggler_lag's straggler
            family("lateness", LatenessFamily::compute, LeadIns.class),
            family("gpu_slowness", GpuSlownessFamily::compute, KernelShapes.class),
            family("idle_breakdown", IdleBreakdownFamily::compute, IdleGaps.class),
            family(
                    "profiler_hazard",
                    ProfilerHazardFamily::compute,
                    KernelTime.class,
                    Clipped.class,
                    MissingLaunches.class));

    /** The part results the gap rows read to say why a metric is missing ({@link Gaps}, after every family). */
    public static final List<Class<? extends Serializable>> GAPS_READ =
            List.of(KernelTime.class, LeaderboardKernels.class, Phases.class);

    @SafeVarargs
    private static Family family(String name, Consumer<Workload> step, Class<? extends Serializable>... reads) {
        return new Family(name, List.of(reads), step);
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
