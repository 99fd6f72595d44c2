package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one pass over a rank's events found, for the workload's metric families. Its fields are the rank's frame, what
 * the pass finds for every family: the rank, its step windows (their names, or the annotation nearest a step form),
 * the interval facts of the sweep over them (METRICS.md §3) and the rank's collective instances; they are final once
 * the pass is done. Everything a single family sums is that family's part's result ({@link #part}). Small (no event
 * is kept but the collectives), so that every rank of a workload meets in one task.
 */
public final class RankSummary implements Serializable {
    public int rank;

    /** Whole-trace interval facts ({@link RankFactNames}); empty for a rank with neither GPU activity nor step windows. */
    public final Map<String, Long> whole = new HashMap<>();
    /** Per-step facts: the step's window and its GPU activity (by each activity's step). */
    public final TreeMap<Long, Map<String, Long>> steps = new TreeMap<>();

    /** The rank's collective instances in (start, end) order. */
    public List<CommInstance> comm;

    /** The annotation name of each step window (the first step's says whether it prefilled: ttft, METRICS.md §4). */
    public final TreeMap<Long, String> stepNames = new TreeMap<>();

    /**
     * The CPU-side annotation (user_annotation) that comes nearest a step form without being a step, and that form;
     * null without annotations. What a reason that says no step was found names (METRICS.md §1): a by-product of the
     * search for the step windows.
     */
    public String nearestAnnotation;

    public String nearestStepForm;

    /** The results of the families' own per-rank parts ({@link RankPart}), by their class. */
    private final Map<String, Serializable> parts = new HashMap<>();

    void putPart(Serializable result) {
        parts.put(result.getClass().getName(), result);
    }

    /** The result a family's per-rank part gave for this rank, or null when the rank's pass had no such part. */
    public <T extends Serializable> T part(Class<T> type) {
        return type.cast(parts.get(type.getName()));
    }
}
