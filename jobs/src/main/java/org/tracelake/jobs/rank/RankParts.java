package org.tracelake.jobs.rank;

import java.util.List;

/** The per-rank parts of the metric families that have one, each listed once (a new family adds its part here). */
final class RankParts {
    private RankParts() {}

    static List<RankPart> create() {
        return List.of(new LeadInPart(), new KernelShapePart(), new IdleGapPart(), new PhasePart());
    }
}
