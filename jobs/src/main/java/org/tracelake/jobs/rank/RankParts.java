package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-rank parts a pass runs, each once. The metric families name the parts they read
 * ({@code metrics/workload/Families.RANK_PARTS}); the pass sits below the metrics (ingest runs it as it reads a file),
 * so the list is handed down to it: by the refresh to ingest, by the metrics phase to its own pass. Two families that
 * read the same part share one: a part is known by the class it makes.
 */
public final class RankParts implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<RankPart.Factory> factories;

    public RankParts(List<RankPart.Factory> factories) {
        Map<Class<?>, RankPart.Factory> byClass = new LinkedHashMap<>();
        for (RankPart.Factory f : factories) byClass.putIfAbsent(f.create().getClass(), f);
        this.factories = new ArrayList<>(byClass.values());
    }

    /** A new part of each kind, for one rank. */
    List<RankPart> create() {
        List<RankPart> out = new ArrayList<>(factories.size());
        for (RankPart.Factory f : factories) out.add(f.create());
        return out;
    }

    /** How many distinct parts a pass runs. */
    public int size() {
        return factories.size();
    }
}
