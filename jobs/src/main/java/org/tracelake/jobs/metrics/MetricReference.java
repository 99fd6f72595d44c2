package org.tracelake.jobs.metrics;

import java.util.List;

/**
 * The project's metric reference (docs/METRICS-REFERENCE.md), made from the metric catalog so that a clone can answer
 * "what does this number mean": every metric and figure, its unit, what it needs from the traces or the card, and
 * what it says; docs/METRICS.md beside it says how each is computed. {@code MetricReferenceTest} keeps the committed file equal to this.
 */
public final class MetricReference {
    private MetricReference() {}

    /** The reference as Markdown. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Metric reference\n\n");
        sb.append("Generated from `jobs/src/main/resources/metrics/catalog.csv` (the metrics, what each figure means"
                + " and which way is better: `higher`, `lower`, or `none` for identifiers, counts of things and mixes)"
                + " by `MetricReference` (a test keeps it in step). How each metric is"
                + " computed, rule by rule, is [METRICS.md](METRICS.md); this lists what each row of the `metrics`"
                + " table is. Every metric has a workload-scope row for every workload: a value, or a null with a"
                + " `status` and a `reason` saying which input was missing. The first figure of a metric is its"
                + " headline (the leaderboard number). `bin/tracelake sql` answers the same from the `metric_reference`"
                + " view where the server offers it.\n\n");
        for (String category : MetricCatalog.CATEGORIES) {
            sb.append("## ").append(category.replace('_', ' ')).append("\n\n");
            sb.append("| metric | figure | unit | better | needs | meaning |\n|---|---|---|---|---|---|\n");
            List<MetricCatalog.Entry> entries = MetricCatalog.entries().stream()
                    .filter(e -> e.category().equals(category))
                    .toList();
            for (MetricCatalog.Entry e : entries) {
                sb.append("| `")
                        .append(e.metric())
                        .append("` | ")
                        .append(e.figure() == null ? "" : "`" + e.figure() + "`")
                        .append(" | ")
                        .append(e.unit())
                        .append(" | ")
                        .append(e.direction().word())
                        .append(" | ")
                        .append(e.requires().needs())
                        .append(" | ")
                        .append(e.meaning().replace("|", "\\|"))
                        .append(" |\n");
            }
            sb.append('\n');
        }
        // one line break at the end, as the build's formatter keeps Markdown files
        return sb.toString().stripTrailing() + "\n";
    }
}
