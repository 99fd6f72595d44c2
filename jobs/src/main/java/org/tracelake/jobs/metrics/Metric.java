package org.tracelake.jobs.metrics;

import java.util.HashMap;
import java.util.Map;

/**
 * A metric of {@code metrics/catalog.csv} by name, the handle a family writes its rows through: the metric's name and
 * each figure's unit come from the catalog, never from a literal in the family. The family that writes a metric declares
 * its handle ({@code static final Metric ITER_TIME = Metric.of("iter_time")} in StepFamily), so a family's file holds
 * everything it writes; making one of a name the catalog lacks, or asking for a figure it does not list, fails when
 * the family's class loads, and MetricsTest finds every handle of every family.
 */
public final class Metric {
    private final String name;
    /** The catalog's figures of this metric, by figure name (the key null for the metric's one number). */
    private final Map<String, Figure> figures = new HashMap<>();

    private Metric(String name) {
        this.name = name;
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            if (e.metric().equals(name)) figures.put(e.figure(), new Figure(name, e.figure(), e.unit()));
        }
        if (figures.isEmpty()) throw new IllegalStateException("metric " + name + " is not in metrics/catalog.csv");
    }

    public static Metric of(String name) {
        return new Metric(name);
    }

    public String name() {
        return name;
    }

    /** A figure the catalog lists for this metric (null: the metric's one number). */
    public Figure figure(String figure) {
        Figure f = figures.get(figure);
        if (f == null) {
            throw new IllegalArgumentException(
                    "metrics/catalog.csv lists no figure " + (figure == null ? "(none)" : figure) + " of " + name);
        }
        return f;
    }

    /**
     * A figure the catalog does not list, because it is never written at workload scope (a per-rank share, an
     * instance's value under a key): its unit is given here. If the catalog comes to list it, this fails, so that the
     * catalog's unit is the one used.
     */
    public Figure unlisted(String figure, String unit) {
        if (figures.containsKey(figure)) {
            throw new IllegalStateException("metrics/catalog.csv lists " + name + " " + figure + ": use figure()");
        }
        return new Figure(name, figure, unit);
    }

    /** The metric's one number (its figure null) at workload scope. */
    public Slot workload() {
        return figure(null).workload();
    }

    public Slot at(Where where) {
        return figure(null).at(where);
    }

    public Slot at(int rank) {
        return figure(null).at(rank);
    }

    public Slot step(Integer rank, long step) {
        return figure(null).step(rank, step);
    }

    public Slot key(String key) {
        return figure(null).key(key);
    }

    @Override
    public String toString() {
        return name;
    }
}
