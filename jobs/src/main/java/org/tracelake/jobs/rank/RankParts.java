package org.tracelake.jobs.rank;

import java.util.List;

/**
 * Every per-rank part of the metric families, each listed once (a new family adds its part here).
 */
final class RankParts {
    private RankParts() {}

    static List<RankPart> create() {
        return List.of(
                new KernelTimePart(),
                new GpuTotalsPart(),
                new LeaderboardKernelPart(),
                new RuntimePart(),
                new CopyPart(),
                new FsdpPart(),
                new XlaPart(),
                new LaunchLedger(),
                new LeadInPart(),
                new KernelShapePart(),
                new IdleGapPart(),
                new PhasePart());
    }
}
