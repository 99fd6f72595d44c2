package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload across the refresh runs that read it ({@code report --history W}): every headline metric as a series
 * over those runs, the runs {@code regressions} flagged for it, and what made each run read the workload again
 * ({@code workload_changes}). Built by {@link HistoryQuery}; rendered as text and as an HTML page here.
 *
 * @param runs oldest first, at most {@link HistoryQuery#RUN_CAP}
 * @param series the headline figures that have a value in at least one of those runs, in catalog order
 */
public record RunHistory(
        String workload, List<Run> runs, List<Series> series, long totalRuns, List<Recurring> findings) {
    public RunHistory(String workload, List<Run> runs, List<Series> series, long totalRuns) {
        this(workload, runs, series, totalRuns, List.of());
    }

    /**
     * A findings rule (for a rank, or the workload) and the runs it fired in, as the rules give it on each run's
     * metrics_history rows; {@code last} is its sentence on the latest run it fired in.
     */
    public record Recurring(String rule, Integer rank, List<Integer> runs, String cause, String last) {}

    /** Text columns: the last runs fit a terminal; the HTML page draws them all. */
    static final int TEXT_RUNS = 6;

    /**
     * @param started the run's start (UTC, to the second), or null when the runs table lacks it
     * @param changes what the run found changed ("changed file rank3_trace.json"), empty before workload_changes existed
     * @param hasMetrics false when the run read the workload but it failed, so no metrics are in the history
     * @param verdict the step-time verdict against the previous run (METRICS.md §4), null for a first run or one
     *     recorded before verdicts existed
     */
    public record Run(String runId, String started, List<String> changes, boolean hasMetrics, String verdict) {}

    /**
     * @param values per run (same order as runs), null where the run has no value
     * @param direction which way is better (higher, lower, none: FigureReference)
     * @param flagged per run: the run's value moved past the threshold (a regressions row)
     */
    public record Series(
            String metric,
            String figure,
            String unit,
            String label,
            String direction,
            List<Double> values,
            List<Boolean> flagged) {
        String name() {
            return metric + (figure == null ? "" : "." + figure);
        }
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        String title = "tracelake history: " + workload;
        sb.append(title).append('\n').append("=".repeat(title.length())).append('\n');
        if (runs.isEmpty()) {
            sb.append("no refresh run has recorded this workload (metrics_history is empty for it)\n");
            return sb.toString();
        }
        sb.append(runs.size()).append(" runs read this workload");
        if (totalRuns > runs.size())
            sb.append(" (the last ")
                    .append(runs.size())
                    .append(" of ")
                    .append(totalRuns)
                    .append(')');
        sb.append('\n');
        TextReport.section(sb, "Runs");
        ReportFormatting.Table t = new ReportFormatting.Table(
                "#", "run", "started (UTC)", "step verdict", "flagged", "read again because");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            int run = i;
            long flags = series.stream().filter(s -> s.flagged().get(run)).count();
            String why = r.changes().isEmpty() ? "-" : String.join("; ", r.changes());
            t.row(
                    i + 1,
                    r.runId(),
                    r.started() == null ? "-" : r.started(),
                    r.verdict() == null ? "-" : r.verdict(),
                    flags == 0 ? "" : Long.toString(flags),
                    r.hasMetrics() ? why : why + " (failed: no metrics)");
        }
        sb.append(t.render("  "));
        int from = Math.max(0, runs.size() - TEXT_RUNS);
        TextReport.section(sb, "Headline metrics");
        sb.append("  runs #")
                .append(from + 1)
                .append("..#")
                .append(runs.size())
                .append("; * = the run moved it past the regression threshold; on iter_time, R = regression_likely,"
                        + " I = improvement_likely (the step-time verdict)\n");
        List<String> header = new ArrayList<>(List.of("metric", "unit"));
        for (int i = from; i < runs.size(); i++) header.add("#" + (i + 1));
        header.add("first -> last");
        ReportFormatting.Table m = new ReportFormatting.Table(header.toArray(String[]::new));
        for (Series s : series) {
            List<Object> row = new ArrayList<>(List.of(s.name(), s.unit()));
            for (int i = from; i < runs.size(); i++) {
                row.add(ReportFormatting.num(s.values().get(i))
                        + (s.flagged().get(i) ? "*" : "")
                        + (s.metric().equals("iter_time")
                                ? verdictMark(runs.get(i).verdict())
                                : ""));
            }
            row.add(change(s.values()));
            m.row(row.toArray());
        }
        sb.append(m.render("  "));
        if (!findings.isEmpty()) {
            TextReport.section(sb, "Findings across runs");
            ReportFormatting.Table f =
                    new ReportFormatting.Table("rule", "rank", "fired in", "runs", "cause", "latest");
            for (Recurring r : findings) {
                StringBuilder which = new StringBuilder();
                for (int run : r.runs())
                    which.append(which.length() == 0 ? "#" : ", #").append(run);
                f.row(
                        r.rule(),
                        r.rank() == null ? "-" : r.rank(),
                        r.runs().size() + " of " + runs.size(),
                        which,
                        r.cause() == null ? "-" : r.cause(),
                        r.last());
            }
            sb.append(f.render("  "));
        }
        return sb.toString();
    }

    /** R for a likely regression, I for a likely improvement, nothing otherwise. */
    static String verdictMark(String verdict) {
        if ("regression_likely".equals(verdict)) return "R";
        if ("improvement_likely".equals(verdict)) return "I";
        return "";
    }

    /** The relative change from the first value to the last, "-" when either is missing or the first is 0. */
    static String change(List<Double> values) {
        Double first = null;
        Double last = null;
        for (Double v : values) {
            if (v == null) continue;
            if (first == null) first = v;
            last = v;
        }
        if (first == null || first == 0) return "-";
        double c = (last - first) / Math.abs(first);
        return (c > 0 ? "+" : "") + ReportFormatting.pct(c);
    }

    public String html() {
        return HtmlPage.render("tracelake history: " + workload, data());
    }

    Map<String, Object> data() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("page", "history");
        d.put("workload", workload);
        d.put("totalRuns", totalRuns);
        List<Map<String, Object>> rs = new ArrayList<>();
        for (Run r : runs) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("runId", r.runId());
            o.put("started", r.started());
            o.put("changes", r.changes());
            o.put("hasMetrics", r.hasMetrics());
            o.put("verdict", r.verdict());
            rs.add(o);
        }
        d.put("runs", rs);
        List<Map<String, Object>> ss = new ArrayList<>();
        for (Series s : series) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", s.name());
            o.put("label", s.label());
            o.put("unit", s.unit());
            o.put("direction", s.direction());
            o.put("values", s.values());
            o.put("flagged", s.flagged());
            ss.add(o);
        }
        d.put("series", ss);
        return d;
    }
}
