package org.tracelake.jobs.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What each figure of each metric means on its own, and which way is better (the direction and meaning columns of
 * {@code metrics/catalog.csv}). The catalog's description and {@code better} belong to the metric as a whole;
 * {@code iter_time.min_ms} is not a mean, and a rank or a count of matched collectives is neither better nor worse when
 * it grows. The reference, the compare page, the history page and the regressions read the direction from here.
 */
public final class FigureReference {
    private FigureReference() {}

    /** Which way a figure is better: {@code none} for identifiers, counts of things and mixes. */
    public enum Direction {
        HIGHER,
        LOWER,
        NONE;

        /** As written in the resource and in every table: {@code higher}, {@code lower}, {@code none}. */
        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /**
         * {@code better} or {@code worse} for a change of this sign (B − A), null when the figure has no direction or
         * nothing changed.
         */
        public String judge(double change) {
            if (this == NONE || change == 0 || Double.isNaN(change)) return null;
            return (change > 0) == (this == HIGHER) ? "better" : "worse";
        }

        static Direction parse(String word, String where) {
            for (Direction d : values()) if (d.word().equals(word)) return d;
            throw new IllegalStateException(where + ": direction is higher, lower or none, not '" + word + "'");
        }
    }

    /** One (metric, figure); the figure is null for a metric with one number. */
    public record Figure(String metric, String figure, Direction direction, String meaning) {}

    private static final Map<String, Figure> FIGURES = load();

    public static List<Figure> figures() {
        return List.copyOf(FIGURES.values());
    }

    /** The entry of (metric, figure), or null when the resource has none. */
    public static Figure of(String metric, String figure) {
        return FIGURES.get(key(metric, figure));
    }

    /** The figure's direction; {@code none} for a (metric, figure) the resource does not list. */
    public static Direction direction(String metric, String figure) {
        Figure f = of(metric, figure);
        return f == null ? Direction.NONE : f.direction();
    }

    private static String key(String metric, String figure) {
        return metric + "\u0000" + Objects.toString(figure, "");
    }

    private static Map<String, Figure> load() {
        Map<String, Figure> out = new LinkedHashMap<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            out.put(key(e.metric(), e.figure()), new Figure(e.metric(), e.figure(), e.direction(), e.meaning()));
        }
        return out;
    }
}
