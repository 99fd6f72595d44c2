package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import org.tracelake.jobs.report.ReportModel.MetricRow;

/**
 * Two workloads side by side: every workload-scope (metric, figure, key) both have a row for, with
 * ratio = candidate ÷ reference (null when the reference is 0 or either value is null). Rows of overlap ratios
 * also get {@code ratio_delta = candidate − reference} (a difference of two ratios says more than their ratio).
 */
public final class Comparison {
    /**
     * Which rows get a {@code ratio_delta}: AORTA's {@code overlap_ratio} (figure of {@code telemetry_overlap}, as its
     * overlap_report.py compares two runs), and the {@code overlap_ratio_of_*} figures of {@code comm_comp_overlap}.
     */
    public static final BiPredicate<String, String> RATIO_DELTA_ROWS =
            (metric, figure) -> "overlap_ratio".equals(metric)
                    || "overlap_ratio".equals(figure)
                    || (figure != null && figure.startsWith("overlap_ratio_"));

    static final Set<String> COUNTS_OF_THINGS = Set.of(
            "straggler_lag.num_collectives",
            "telemetry_overlap.iterations",
            "hung_groups",
            "hang_root_ranks",
            "oom_count");

    /**
     * Which rows get no ratio: identifiers (unit {@code rank}: straggler_lag.straggler_rank, collective_wait's
     * most_waiting_rank — rank 1 then rank 3 is not "3x") and counts of things found in the run rather than amounts of
     * work (matched collective instances, telemetry iterations, hung groups and the ranks at their root, OOMs): how many
     * there are is read side by side, and a ratio of them (2 hung groups ÷ 1) says nothing more. Counts of work per rank
     * (coll_call_num, alloc_count, …) keep their ratio: 4x the calls is a measure.
     */
    public static final BiPredicate<Row, String> NO_RATIO = (row, unit) -> "rank".equals(unit)
            || COUNTS_OF_THINGS.contains(row.metric() + (row.figure() == null ? "" : "." + row.figure()));

    public record Row(
            String metric,
            String figure,
            String key,
            String unit,
            Double reference,
            Double candidate,
            Double ratio,
            boolean hasDelta,
            Double ratioDelta) {}

    private final String reference;
    private final String candidate;
    private final List<Row> rows;
    /** The breakdown that explains the ratios; null when the comparison was made from metric rows alone. */
    private final ComparisonBreakdown breakdown;

    private Comparison(String reference, String candidate, List<Row> rows, ComparisonBreakdown breakdown) {
        this.reference = reference;
        this.candidate = candidate;
        this.rows = rows;
        this.breakdown = breakdown;
    }

    /** This comparison with the breakdown of the two runs (time split, kernels, collectives) beside its ratios. */
    Comparison withBreakdown(ReportQueries.ComparedRun ref, ReportQueries.ComparedRun cand) {
        return new Comparison(reference, candidate, rows, ComparisonBreakdown.of(rows, ref, cand));
    }

    public ComparisonBreakdown breakdown() {
        return breakdown;
    }

    public String reference() {
        return reference;
    }

    public String candidate() {
        return candidate;
    }

    public List<Row> rows() {
        return rows;
    }

    /** Both lists are workload-scope rows ordered by (metric, figure, key); the result keeps the reference's order. */
    public static Comparison of(String reference, List<MetricRow> ref, String candidate, List<MetricRow> cand) {
        Map<String, MetricRow> byKey = new LinkedHashMap<>();
        for (MetricRow r : cand) byKey.put(id(r), r);
        List<Row> rows = new ArrayList<>();
        for (MetricRow r : ref) {
            MetricRow c = byKey.get(id(r));
            if (c == null) continue;
            Double a = r.value();
            Double b = c.value();
            String unit = r.unit() != null ? r.unit() : c.unit();
            boolean hasDelta = RATIO_DELTA_ROWS.test(r.metric(), r.figure());
            Double delta = hasDelta && a != null && b != null ? b - a : null;
            Row shared = new Row(r.metric(), r.figure(), r.key(), unit, a, b, null, hasDelta, delta);
            Double ratio = a == null || b == null || a == 0.0 || NO_RATIO.test(shared, unit) ? null : b / a;
            rows.add(new Row(r.metric(), r.figure(), r.key(), unit, a, b, ratio, hasDelta, delta));
        }
        return new Comparison(reference, candidate, rows, null);
    }

    private static String id(MetricRow r) {
        return r.metric() + "\u0000" + Objects.toString(r.figure(), "\u0001") + "\u0000"
                + Objects.toString(r.key(), "\u0001");
    }

    /**
     * {@code summary.json}: {"reference", "candidate", "metrics": [{metric, figure, key, unit, reference, candidate,
     * ratio[, ratio_delta]}], "breakdown": {"time_split", "kernel_categories", "kernels_moved_most", "collectives"}}.
     */
    public Map<String, Object> summary() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("reference", reference);
        o.put("candidate", candidate);
        List<Map<String, Object>> metrics = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("metric", r.metric());
            m.put("figure", r.figure());
            m.put("key", r.key());
            m.put("unit", r.unit());
            m.put("reference", r.reference());
            m.put("candidate", r.candidate());
            m.put("ratio", r.ratio());
            if (r.hasDelta()) m.put("ratio_delta", r.ratioDelta());
            metrics.add(m);
        }
        o.put("metrics", metrics);
        if (breakdown != null) o.put("breakdown", breakdown.summary());
        return o;
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        String title = "tracelake comparison: " + candidate + " vs " + reference;
        sb.append(title).append('\n').append("=".repeat(title.length())).append('\n');
        sb.append("reference  ").append(reference).append('\n');
        sb.append("candidate  ").append(candidate).append('\n');
        sb.append(
                "ratio      candidate / reference (- when the reference is 0 or a value is missing, and for identifiers\n"
                        + "           and counts of things, such as a rank or a number of hung groups: read those side by side)\n\n");
        ReportFormatting.Table t = new ReportFormatting.Table(
                "metric", "figure", "key", "unit", "reference", "candidate", "ratio", "delta");
        for (Row r : rows) {
            t.row(
                    r.metric(),
                    r.figure(),
                    r.key(),
                    r.unit(),
                    ReportFormatting.num(r.reference()),
                    ReportFormatting.num(r.candidate()),
                    ratio(r.ratio()),
                    r.hasDelta() ? ReportFormatting.num(r.ratioDelta()) : "");
        }
        sb.append(t.render(""));
        if (breakdown != null) sb.append(breakdown.text());
        return sb.toString();
    }

    private static String ratio(Double r) {
        return r == null ? "-" : ReportFormatting.num(r) + "x";
    }

    public String html() {
        Map<String, Object> d = summary();
        d.put("page", "compare");
        return HtmlPage.render("tracelake comparison: " + candidate + " vs " + reference, d);
    }
}
