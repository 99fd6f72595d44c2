package org.tracelake.jobs.metrics;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.metrics.workload.Requirement;

/**
 * Every workload-scope (metric, figure) of METRICS.md once ({@code metrics/catalog.csv}): its unit, what it requires
 * (the engine's Gaps turns an unmet requirement into the reason a value is missing), and how people see it — label, whether
 * higher is better, category (CCL-Bench's four) and one line of description — for the leaderboard and the reports.
 * METRICS.md §4 is the definition; this is the one list the code reads.
 */
public final class MetricCatalog {
    private MetricCatalog() {}

    /** The categories an entry may name, as CCL-Bench's leaderboard groups metrics. */
    public static final List<String> CATEGORIES =
            List.of("model_execution", "gpu_efficiency", "memory", "communication");

    /** One (metric, figure); the figure is null for a metric with one number. */
    public record Entry(
            String metric,
            String figure,
            String unit,
            Requirement requires,
            String label,
            boolean higherIsBetter,
            String category,
            String description,
            FigureReference.Direction direction,
            String meaning) {}

    private static final int COLUMNS = 10;

    private static final List<Entry> ENTRIES = load();

    public static List<Entry> entries() {
        return ENTRIES;
    }

    /** The first entry of a metric (its figures share label, direction, category and description), or null. */
    public static Entry of(String metric) {
        for (Entry e : ENTRIES) if (e.metric().equals(metric)) return e;
        return null;
    }

    /**
     * Columns: metric, figure, unit, requires, label, better (higher|lower: the metric's, for the leaderboard),
     * category, direction (higher|lower|none: this figure's, FigureReference), description (the metric's), meaning (this
     * figure's). A text holding a comma is in double quotes.
     */
    private static List<Entry> load() {
        String[] lines = MetricResources.text("catalog.csv").split("\n");
        Map<String, Entry> byKey = new LinkedHashMap<>();
        Map<String, Entry> firstOfMetric = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String where = "metrics/catalog.csv line " + (i + 1);
            String[] f = MetricResources.csvFields(lines[i], where).toArray(new String[0]);
            if (f.length != COLUMNS) {
                throw new IllegalStateException(where + ": " + COLUMNS + " columns expected, not " + f.length);
            }
            if (f[9].isBlank()) throw new IllegalStateException(where + ": the figure's meaning is empty");
            String better = f[5].strip();
            if (!better.equals("higher") && !better.equals("lower")) {
                throw new IllegalStateException(where + ": better is 'higher' or 'lower', not '" + better + "'");
            }
            String category = f[6].strip();
            if (!CATEGORIES.contains(category))
                throw new IllegalStateException(where + ": unknown category " + category);
            Requirement requires;
            try {
                requires = Requirement.of(f[3].strip());
            } catch (IllegalArgumentException unknown) {
                throw new IllegalStateException(where + ": " + unknown.getMessage(), unknown);
            }
            Entry e = new Entry(
                    f[0].strip(),
                    f[1].isBlank() ? null : f[1].strip(),
                    f[2].strip(),
                    requires,
                    f[4].strip(),
                    better.equals("higher"),
                    category,
                    f[8].strip(),
                    FigureReference.Direction.parse(f[7].strip(), where),
                    f[9].strip());
            if (byKey.put(e.metric() + "," + e.figure(), e) != null) {
                throw new IllegalStateException(where + ": " + e.metric() + " " + e.figure() + " listed twice");
            }
            Entry first = firstOfMetric.computeIfAbsent(e.metric(), m -> e);
            if (!first.label().equals(e.label())
                    || first.higherIsBetter() != e.higherIsBetter()
                    || !first.category().equals(e.category())
                    || !first.description().equals(e.description())) {
                throw new IllegalStateException(where + ": the figures of " + e.metric()
                        + " must share label, better, category and description");
            }
        }
        return List.copyOf(byKey.values());
    }
}
