package org.tracelake.jobs.metrics;

import org.tracelake.schemas.MetricSchema;

/**
 * A figure at a place: the metric row it becomes once given a value, or a status and the reason for it (METRICS.md
 * §5: a row without a value says why).
 */
public record Slot(Figure figure, Where where) {
    /** A row of a workload, before its workload's name is put on it ({@link #in}). */
    public record Reading(Slot slot, Double value, String status, String reason) {
        public MetricRow in(String workload) {
            Figure f = slot.figure();
            Where w = slot.where();
            return new MetricRow(
                    workload,
                    f.metric(),
                    f.figure(),
                    value,
                    f.unit(),
                    w.scope(),
                    w.rank(),
                    w.step(),
                    w.key(),
                    status,
                    reason);
        }
    }

    /** The same figure at the same place with a key ({@link Where#keyed}). */
    public Slot keyed(String key) {
        return new Slot(figure, where.keyed(key));
    }

    /** A value, status ok. */
    public Reading value(Double value) {
        return row(value, MetricSchema.STATUS_OK, null);
    }

    /** Any value, status and reason (a status decided by the family, an ok row that says something). */
    public Reading row(Double value, String status, String reason) {
        return new Reading(this, value, status, reason);
    }

    /** No value: an input is missing. */
    public Reading missing(String reason) {
        return row(null, MetricSchema.STATUS_MISSING_INPUT, reason);
    }

    /** No value: the inputs are there but give no number that means anything. */
    public Reading notMeaningful(String reason) {
        return row(null, MetricSchema.STATUS_NOT_MEANINGFUL, reason);
    }

    /** No value: the metric does not apply to this workload or rank. */
    public Reading notApplicable(String reason) {
        return row(null, MetricSchema.STATUS_NOT_APPLICABLE, reason);
    }

    /** A value from part of the inputs; the reason says which part is missing. */
    public Reading partial(Double value, String reason) {
        return row(value, MetricSchema.STATUS_PARTIAL, reason);
    }
}
