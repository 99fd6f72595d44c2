package org.tracelake.jobs.rank;

import java.util.List;

/**
 * Every per-rank part of the metric families, each listed once (a new family adds its part here; {@code Families}
 * names the parts each family reads, and FamiliesTest holds the two lists to each other).
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
