package org.tracelake.jobs.rank;

import java.io.Serializable;

/**
 * The per-rank part of one metric family: it sees every event of the rank in the pass's order (CPU-side events first,
 * then GPU activities, each by start) and, when the pass is done, gives its own result, which travels with the rank's
 * summary to the workload step ({@link RankSummary#part}). A family that needs something of each rank writes one of
 * these instead of adding fields to the summary and logic to the accumulator; the family lists it
 * ({@code metrics/workload/Families}), and the pass runs the parts it is handed ({@link RankParts}).
 */
public interface RankPart {
    /** The next event of the rank. */
    void accept(RankEvent e);

    /**
     * The part's result, once every event was seen; {@code done} is the rest of the rank's summary (its step windows
     * and collective instances are final), for parts that relate their events to those.
     */
    Serializable finish(RankSummary done);

    /**
     * Makes a new part for each rank ({@code LeadInPart::new}); serializable, since ingest ships the list of them to the
     * executors that run the pass.
     */
    @FunctionalInterface
    interface Factory extends Serializable {
        RankPart create();
    }
}
