package org.tracelake.jobs.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What each figure of each metric means on its own, and which way is better ({@code metrics/figures.csv}, keyed by
 * (metric, figure) like the catalog). The catalog's description and direction belong to the metric as a whole;
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

    /** Columns: metric, figure, direction (higher|lower|none), meaning (may hold commas). */
    private static Map<String, Figure> load() {
        String[] lines = MetricResources.text("figures.csv").split("\n");
        Map<String, Figure> out = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String where = "metrics/figures.csv line " + (i + 1);
            String[] f = lines[i].split(",", 4);
            if (f.length != 4 || f[3].isBlank())
                throw new IllegalStateException(where + ": metric,figure,direction,meaning expected");
            Figure e = new Figure(
                    f[0].strip(),
                    f[1].isBlank() ? null : f[1].strip(),
                    Direction.parse(f[2].strip(), where),
                    f[3].strip());
            if (out.put(key(e.metric(), e.figure()), e) != null)
                throw new IllegalStateException(where + ": " + e.metric() + " " + e.figure() + " listed twice");
        }
        return out;
    }
}
