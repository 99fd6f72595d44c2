package org.tracelake.jobs.metrics;

import org.tracelake.schemas.MetricSchema;

/**
 * Where a metric row applies (METRICS.md §5): its scope and, as the scope asks, its rank, step and key. Families that
 * give several figures at one place, or one helper for several scopes, pass a {@code Where} rather than four columns.
 */
public record Where(String scope, Integer rank, Long step, String key) {
    private static final Where WORKLOAD = new Where(MetricSchema.SCOPE_WORKLOAD, null, null, null);

    /** The whole workload. */
    public static Where workload() {
        return WORKLOAD;
    }

    /** One rank (null: a side table's rows that carry none). */
    public static Where rank(Integer rank) {
        return new Where(MetricSchema.SCOPE_RANK, rank, null, null);
    }

    /** One step of one rank; the rank is null for a figure over all ranks of the step (iter_time_skew_ms). */
    public static Where step(Integer rank, long step) {
        return new Where(MetricSchema.SCOPE_STEP, rank, step, null);
    }

    /** One key (a collective kind, a kernel name, a size bucket...) over the whole workload. */
    public static Where key(String key) {
        return new Where(MetricSchema.SCOPE_KEY, null, null, key);
    }

    /** The same place with a key: a workload, rank or step row that says which part it is of (kind, phase, device). */
    public Where keyed(String newKey) {
        return new Where(scope, rank, step, newKey);
    }
}
