package org.tracelake.jobs.metrics;

/**
 * One (metric, figure) with its unit: what a family writes a value of. The catalog's figures come from
 * {@link Metric#figure}; the few a family writes only below workload scope, which the catalog does not list, from
 * {@link Metric#unlisted}, which names their unit.
 */
public final class Figure {
    private final String metric;
    private final String figure;
    private final String unit;

    Figure(String metric, String figure, String unit) {
        this.metric = metric;
        this.figure = figure;
        this.unit = unit;
    }

    /** A catalog entry's figure: what the rows that say why a workload lacks a figure are written as (Gaps). */
    public static Figure of(MetricCatalog.Entry e) {
        return new Figure(e.metric(), e.figure(), e.unit());
    }

    public String metric() {
        return metric;
    }

    /** The figure's name, or null for a metric's one number. */
    public String figure() {
        return figure;
    }

    public String unit() {
        return unit;
    }

    public Slot at(Where where) {
        return new Slot(this, where);
    }

    public Slot workload() {
        return at(Where.workload());
    }

    public Slot at(int rank) {
        return at(Where.rank(rank));
    }

    public Slot step(Integer rank, long step) {
        return at(Where.step(rank, step));
    }

    public Slot key(String key) {
        return at(Where.key(key));
    }

    @Override
    public String toString() {
        return metric + (figure == null ? "" : "." + figure) + " [" + unit + "]";
    }
}
