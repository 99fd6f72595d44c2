package org.tracelake.jobs.metrics.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.rank.RankAccumulator;
import org.tracelake.jobs.rank.RankSummary;

/** Families lists each family once, and every part result a family reads is one the rank pass makes. */
class FamiliesTest {
    @Test
    void everyPartAFamilyReadsIsMadeByTheRankPass() {
        RankSummary empty = new RankAccumulator(0).finish();
        List<Class<? extends Serializable>> read = new ArrayList<>(Families.GAPS_READ);
        for (Families.Family f : Families.ALL) read.addAll(f.reads());
        for (Class<? extends Serializable> c : read) assertNotNull(empty.part(c), c.getName() + " is no part's result");
    }

    @Test
    void eachFamilyIsListedOnce() {
        List<String> names = Families.ALL.stream().map(Families.Family::name).toList();
        assertEquals(names.size(), new HashSet<>(names).size(), names.toString());
    }
}
