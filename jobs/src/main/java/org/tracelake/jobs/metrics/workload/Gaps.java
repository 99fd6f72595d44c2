package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;
import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_APPLICABLE;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.LeaderboardKernelPart.LeaderboardKernels;
import org.tracelake.jobs.rank.PhasePart.Phases;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Every metric of the catalog appears for every workload at workload scope (METRICS.md §5): where no family gave a
 * workload row, this adds one saying why, from what the workload lacks (the catalog entry's {@link Requirement}); and
 * the ways of saying what a workload lacks that several requirements share.
 */
final class Gaps {
    private Gaps() {}

    static void compute(Workload w, List<MetricRow> sideRows) {
        Set<String> present = new HashSet<>();
        for (MetricRow r : w.metrics)
            if (SCOPE_WORKLOAD.equals(r.scope())) present.add(r.metric() + "\u0000" + r.figure());
        for (MetricRow r : sideRows)
            if (SCOPE_WORKLOAD.equals(r.scope())) present.add(r.metric() + "\u0000" + r.figure());
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            if (present.contains(e.metric() + "\u0000" + e.figure())) continue;
            String unmet = e.requires().unmet(w);
            String status =
                    e.requires().isApplicability() && unmet != null ? STATUS_NOT_APPLICABLE : STATUS_MISSING_INPUT;
            w.add(Figure.of(e)
                    .workload()
                    .row(
                            null,
                            status,
                            Objects.requireNonNullElse(unmet, "not computable from this workload's inputs")));
        }
    }

    static final String NONE_MATCHED = "no collective was matched across two or more ranks";

    /** Why the workload cannot be joined across ranks (no ranks, or one), or null when it can. */
    static String notMultiRank(Workload w) {
        return w.ranks.isEmpty() ? NO_RANKS : w.ranks.size() < 2 ? "single rank: no cross-rank join" : null;
    }

    /** Why the workload has no collectives to match across ranks (not multi-rank, or none at all), or null. */
    static String noCollectivesToMatch(Workload w) {
        String notMultiRank = notMultiRank(w);
        return notMultiRank != null ? notMultiRank : commOps(w) == 0 ? noCollectives(w) : null;
    }

    static String noneMatchedSized(Workload w) {
        return Objects.requireNonNullElse(
                noCollectivesToMatch(w),
                w.instances.isEmpty()
                        ? NONE_MATCHED
                        : "no collective matched across ranks has a known message size, group size >= 2 and a"
                                + " shortest duration > 0");
    }

    static String noRank0(Workload w) {
        return commOps(w) == 0
                ? noCollectives(w)
                : "no trace of rank 0: the ranks that hold events are " + rankList(w)
                        + ", and CCL-Bench's collective volumes are rank 0's";
    }

    /** Why the workload is not of this phase; a card without a phase gets one reason, not one per phase. */
    static String notPhase(Workload w, String required) {
        Card c = w.card;
        String phase = c.phaseLower() == null ? "" : c.phaseLower();
        return c.phase() == null
                ? "the card gives no workload.model.phase (training or inference), which decides this metric"
                : !phase.equals(required)
                        ? "not a" + (required.equals("inference") ? "n " : " ") + required + " workload (card phase: "
                                + c.phase() + ")"
                        : null;
    }

    static String cardLacksMfu(Card c) {
        return c.numParams() == null
                ? "card lacks model_arch.num_params"
                : c.numLayers() == null
                        ? "card lacks model_arch.num_layers"
                        : c.numHeads() == null || c.headDim() == null
                                ? "card lacks model_arch.num_heads or head_dim"
                                : c.deviceCount() == null
                                        ? "card lacks hardware.xpu_spec.total_count"
                                        : "no peak FLOPS for this device model in conf/device_peak_flops.csv";
    }

    static String noPhases(Workload w) {
        return phaseAnnotations(w) > 0
                ? phaseAnnotations(w) + " forward/backward/optimizer annotations, but no step windows to put them in: "
                        + StepFamily.noSteps(w)
                : "no forward/backward/optimizer annotations in the traces";
    }

    static String noLaunchLinks(Workload w) {
        return w.ranks.stream().noneMatch(r -> r.part(KernelTime.class).any())
                ? "no GPU activity in the traces"
                : "no GPU activity is linked to the runtime call that launched it (the format has no"
                        + " correlation ids), so no launch can be checked for its kernel";
    }

    static String noNodeLayout(Workload w) {
        Card c = w.card;
        return c.countPerNode() == null || c.countPerNode() <= 0
                ? "the card gives no hardware.xpu_spec.count_per_node"
                : commOps(w) == 0 ? noCollectives(w) : null;
    }

    static long kernels(Workload w) {
        return w.ranks.stream()
                .mapToLong(r -> r.part(LeaderboardKernels.class).kernels())
                .sum();
    }

    /** A workload none of whose traces holds events on a rank (a memory snapshot alone, telemetry alone). */
    static final String NO_RANKS = "no trace with events on a rank in this workload (no GPU or CPU profile)";

    /**
     * What is missing when no rank communicates (issue 32 item 6): say so, and whether any rank holds events at all,
     * instead of naming a rank the workload never had.
     */
    static String noCollectives(Workload w) {
        return w.ranks.isEmpty()
                ? "no trace with collectives in this workload (no trace with events on a rank)"
                : "no trace with collectives in this workload (ranks " + rankList(w) + " hold events, none of them"
                        + " communication kernels)";
    }

    private static String rankList(Workload w) {
        StringBuilder sb = new StringBuilder();
        for (RankSummary r : w.ranks) sb.append(sb.length() == 0 ? "" : ", ").append(r.rank);
        return sb.toString();
    }

    static long steps(Workload w) {
        return w.ranks.stream().mapToLong(r -> StepFamily.windows(r).size()).sum();
    }

    static long commOps(Workload w) {
        return w.ranks.stream().mapToLong(r -> r.comm.size()).sum();
    }

    static long sized(Workload w) {
        long n = 0;
        for (RankSummary r : w.ranks) for (CommInstance c : r.comm) if (CommunicationFamily.isSample(c)) n++;
        return n;
    }

    /**
     * Why no collective instance gives a bandwidth, condition by condition (METRICS.md §4: a reason names what failed,
     * never a list of conditions): how many lack a message size, a group size, a group of two or more, a duration.
     */
    static String unsized(Workload w) {
        long n = 0;
        long noSize = 0;
        long noGroup = 0;
        long single = 0;
        long zero = 0;
        for (RankSummary r : w.ranks) {
            for (CommInstance c : r.comm) {
                n++;
                if (c.sizeBytes() == null || c.sizeBytes() < 0) noSize++;
                if (c.groupSize() == null) noGroup++;
                else if (c.groupSize() < 2) single++;
                if (c.dur() <= 0) zero++;
            }
        }
        if (n == 0) return "no communication kernel in the traces";
        List<String> failed = new ArrayList<>();
        if (noSize > 0) failed.add(noSize + " have no known message size");
        if (noGroup > 0) {
            failed.add(noGroup + " have no group size (no Group size arg, process group or XLA replica_groups)");
        }
        if (single > 0) failed.add(single + " run in a group of one");
        if (zero > 0) failed.add(zero + " last 0 ns");
        return "none of the " + n + " communication instances gives a bandwidth: " + String.join("; ", failed);
    }

    private static long phaseAnnotations(Workload w) {
        return w.ranks.stream()
                .mapToLong(r -> r.part(Phases.class).annotations())
                .sum();
    }
}
