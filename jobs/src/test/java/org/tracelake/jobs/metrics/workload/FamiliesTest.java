package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.rank.RankAccumulator;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;

/**
 * Families lists each family once, and the per-rank pass runs every part a family (or the gap rows) names, each once
 * however many families read it.
 */
class FamiliesTest {
    @Test
    void thePassRunsEveryPartAFamilyNamesOnce() {
        RankSummary empty = new RankAccumulator(0, Families.RANK_PARTS).finish();
        List<RankPart.Factory> named = new ArrayList<>(Families.GAPS_PARTS);
        for (Families.Family f : Families.ALL) named.addAll(f.parts());
        Set<Class<?>> results = new LinkedHashSet<>();
        for (RankPart.Factory p : named) {
            Class<? extends Serializable> result = p.create().finish(empty).getClass();
            results.add(result);
            assertNotNull(empty.part(result), result.getName() + " is no part's result in the pass");
        }
        // kernel, kernel_step, profiler_hazard and the gap rows all read KernelTimePart: one part
        assertEquals(results.size(), Families.RANK_PARTS.size());
    }

    @Test
    void eachFamilyIsListedOnce() {
        List<String> names = Families.ALL.stream().map(Families.Family::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }
}
