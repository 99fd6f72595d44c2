package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import org.tracelake.jobs.metrics.FigureReference;
import org.tracelake.jobs.metrics.verdict.KernelDeltas;
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
            Double ratioDelta) {
        /** Which way is better for this figure (FigureReference): higher, lower or none. */
        public String direction() {
            return FigureReference.direction(metric, figure).word();
        }

        /** better or worse (candidate against reference, in the figure's direction), null when neither can be said. */
        public String judgement() {
            if (reference == null || candidate == null) return null;
            return FigureReference.direction(metric, figure).judge(candidate - reference);
        }
    }

    /**
     * The step-time verdict that opens the comparison (METRICS.md §4 "Run comparison verdicts").
     *
     * @param change Δ of the median trimmed step; null when a run has too few steps
     * @param deltaMs med(candidate) − med(reference), ms
     * @param parts the change split by part of the step ({@code StepSample.PARTS}, then other), ms
     * @param kernels the kernels (or kernel categories) whose time per rank-step moved most
     * @param byCategory the runs ran on different device models, so kernels are compared by category
     */
    public record Verdict(
            String verdict,
            Double change,
            Double noise,
            Double deltaMs,
            Map<String, Double> parts,
            List<KernelDeltas.Moved> kernels,
            boolean byCategory) {}

    private final String reference;
    private final String candidate;
    private final List<Row> rows;
    /** Rows with a value on neither side: not listed, only counted. */
    private final int collapsed;
    /** The verdict on the two runs' steps; null when the comparison was made from metric rows alone. */
    private final Verdict verdict;
    /** The breakdown that explains the ratios; null when the comparison was made from metric rows alone. */
    private final ComparisonBreakdown breakdown;

    private Comparison(
            String reference,
            String candidate,
            List<Row> rows,
            int collapsed,
            Verdict verdict,
            ComparisonBreakdown breakdown) {
        this.reference = reference;
        this.candidate = candidate;
        this.rows = rows;
        this.collapsed = collapsed;
        this.verdict = verdict;
        this.breakdown = breakdown;
    }

    /** This comparison with the breakdown of the two runs (time split, kernels, collectives) beside its ratios. */
    Comparison withBreakdown(ReportQueries.ComparedRun ref, ReportQueries.ComparedRun cand) {
        return new Comparison(reference, candidate, rows, collapsed, verdict, ComparisonBreakdown.of(rows, ref, cand));
    }

    /** This comparison opened by the verdict on the two runs' steps. */
    Comparison withVerdict(Verdict v) {
        return new Comparison(reference, candidate, rows, collapsed, v, breakdown);
    }

    public Verdict verdict() {
        return verdict;
    }

    public int collapsed() {
        return collapsed;
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
        int collapsed = 0;
        for (MetricRow r : ref) {
            MetricRow c = byKey.get(id(r));
            if (c == null) continue;
            Double a = r.value();
            Double b = c.value();
            if (a == null && b == null) {
                collapsed++; // no value on either side (a metric neither run could compute): counted, not listed
                continue;
            }
            String unit = r.unit() != null ? r.unit() : c.unit();
            boolean hasDelta = RATIO_DELTA_ROWS.test(r.metric(), r.figure());
            Double delta = hasDelta && a != null && b != null ? b - a : null;
            Row shared = new Row(r.metric(), r.figure(), r.key(), unit, a, b, null, hasDelta, delta);
            Double ratio = a == null || b == null || a == 0.0 || NO_RATIO.test(shared, unit) ? null : b / a;
            rows.add(new Row(r.metric(), r.figure(), r.key(), unit, a, b, ratio, hasDelta, delta));
        }
        return new Comparison(reference, candidate, rows, collapsed, null, null);
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
            m.put("direction", r.direction());
            m.put("judgement", r.judgement());
            metrics.add(m);
        }
        o.put("metrics", metrics);
        o.put("collapsed", collapsed);
        if (verdict != null) o.put("verdict", verdictSummary());
        if (breakdown != null) o.put("breakdown", breakdown.summary());
        return o;
    }

    private Map<String, Object> verdictSummary() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("verdict", verdict.verdict());
        v.put("step_change", verdict.change());
        v.put("noise", verdict.noise());
        v.put("delta_ms", verdict.deltaMs());
        v.put("parts", verdict.parts());
        v.put("by_category", verdict.byCategory());
        List<Map<String, Object>> kernels = new ArrayList<>();
        for (KernelDeltas.Moved k : verdict.kernels()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("position", k.position());
            m.put("kernel", k.kernel());
            m.put("reference_ms", k.previousMs());
            m.put("candidate_ms", k.ms());
            m.put("delta_ms", k.deltaMs());
            kernels.add(m);
        }
        v.put("kernels", kernels);
        return v;
    }

    /** The verdict section of the text report: the verdict, the step change by part, the kernels that moved. */
    private void verdictText(StringBuilder sb) {
        sb.append("verdict    ").append(verdict.verdict());
        if (verdict.change() != null) {
            sb.append(String.format(
                    java.util.Locale.ROOT,
                    ": median trimmed step %+.1f%% (%+.3f ms), noise floor %.1f%%",
                    100 * verdict.change(),
                    verdict.deltaMs(),
                    100 * verdict.noise()));
        } else {
            sb.append(": too few steps in a run to weigh a change (METRICS.md §4)");
        }
        sb.append('\n');
        if (verdict.deltaMs() != null) {
            sb.append(
                    "\nThe step's change by part (median per part, ms; other = what the parts' medians do not add up to)\n");
            ReportFormatting.Table t = new ReportFormatting.Table("part", "change ms");
            verdict.parts()
                    .forEach((part, d) ->
                            t.row(part, d == null ? "-" : String.format(java.util.Locale.ROOT, "%+.3f", d)));
            t.row("step", String.format(java.util.Locale.ROOT, "%+.3f", verdict.deltaMs()));
            sb.append(t.render("  "));
        }
        if (!verdict.kernels().isEmpty()) {
            sb.append("\nKernels that moved most (mean ms per rank-step, candidate - reference")
                    .append(verdict.byCategory() ? "; by kernel category: the runs ran on different device models" : "")
                    .append(")\n");
            ReportFormatting.Table t = new ReportFormatting.Table("#", "kernel", "reference", "candidate", "change ms");
            for (KernelDeltas.Moved k : verdict.kernels()) {
                t.row(
                        k.position(),
                        k.kernel(),
                        ReportFormatting.num(k.previousMs()),
                        ReportFormatting.num(k.ms()),
                        String.format(java.util.Locale.ROOT, "%+.4f", k.deltaMs()));
            }
            sb.append(t.render("  "));
        }
        sb.append('\n');
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        String title = "tracelake comparison: " + candidate + " vs " + reference;
        sb.append(title).append('\n').append("=".repeat(title.length())).append('\n');
        sb.append("reference  ").append(reference).append('\n');
        sb.append("candidate  ").append(candidate).append('\n');
        if (verdict != null) verdictText(sb);
        sb.append(
                "ratio      candidate / reference (- when the reference is 0 or a value is missing, and for identifiers\n"
                        + "           and counts of things, such as a rank or a number of hung groups: read those side by side)\n"
                        + "change     better or worse in the figure's direction (docs/METRICS-REFERENCE.md); blank: no direction\n\n");
        ReportFormatting.Table t = new ReportFormatting.Table(
                "metric", "figure", "key", "unit", "reference", "candidate", "ratio", "delta", "change");
        for (Row r : rows) {
            t.row(
                    r.metric(),
                    r.figure(),
                    r.key(),
                    r.unit(),
                    ReportFormatting.num(r.reference()),
                    ReportFormatting.num(r.candidate()),
                    ratio(r.ratio()),
                    r.hasDelta() ? ReportFormatting.num(r.ratioDelta()) : "",
                    r.judgement() == null ? "" : r.judgement());
        }
        sb.append(t.render(""));
        if (collapsed > 0) {
            sb.append(ReportFormatting.count(collapsed, "row"))
                    .append(" with no value on either side not listed (metrics neither run could compute)\n");
        }
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
