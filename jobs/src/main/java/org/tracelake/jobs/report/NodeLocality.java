package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.report.ReportModel.MetricRow;

/**
 * The "Node locality" part of a workload report: the comm_locality rows (METRICS.md §4) as the metrics table holds
 * them, one line per collective kind and one for the whole workload. The rule that decides intra vs inter lives in
 * LocalityFamily of the metric engine; this only arranges its figures.
 *
 * @param unavailable why there is no split (the workload row's reason), or null when there is one
 * @param lines the kinds in name order, then the workload total (kind null)
 */
record NodeLocality(String unavailable, List<Line> lines) {
    static final String METRIC = "comm_locality";

    /** One kind's split; {@code mode} is the row's reason: mode=pg_ranks, or mode=world and why. */
    record Line(String kind, Double intraBytes, Double interBytes, Double intraMs, Double interMs, String mode) {
        /** The share of the bytes that crossed nodes, or null without bytes. */
        Double interShare() {
            if (intraBytes == null || interBytes == null || intraBytes + interBytes <= 0) return null;
            return interBytes / (intraBytes + interBytes);
        }
    }

    static NodeLocality of(ReportModel m) {
        MetricRow headline = TextReport.anyKey(m.workloadMetrics(), METRIC, "inter_node_bytes");
        if (headline == null)
            return new NodeLocality("comm_locality absent (metrics computed before it existed)", List.of());
        if (headline.value() == null) return new NodeLocality(headline.reason(), List.of());
        Map<String, List<MetricRow>> byKind = new LinkedHashMap<>();
        m.keyMetrics().stream()
                .filter(r -> r.metric().equals(METRIC))
                .sorted((a, b) -> a.key().compareTo(b.key()))
                .forEach(r ->
                        byKind.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        List<Line> lines = new ArrayList<>();
        byKind.forEach((kind, rows) -> lines.add(line(kind, rows)));
        lines.add(line(
                null,
                m.workloadMetrics().stream()
                        .filter(r -> r.metric().equals(METRIC))
                        .toList()));
        return new NodeLocality(null, lines);
    }

    private static Line line(String kind, List<MetricRow> rows) {
        return new Line(
                kind,
                TextReport.value(rows, METRIC, "intra_node_bytes", kind),
                TextReport.value(rows, METRIC, "inter_node_bytes", kind),
                TextReport.value(rows, METRIC, "intra_node_time_ms", kind),
                TextReport.value(rows, METRIC, "inter_node_time_ms", kind),
                rows.stream()
                        .filter(r -> "inter_node_bytes".equals(r.figure()))
                        .map(MetricRow::reason)
                        .findFirst()
                        .orElse(null));
    }

    /** The text report's section. */
    void render(StringBuilder sb) {
        TextReport.section(sb, "Node locality");
        if (unavailable != null) {
            sb.append("  ").append(unavailable).append('\n');
            return;
        }
        ReportFormatting.Table t = new ReportFormatting.Table(
                "kind", "intra-node bytes", "inter-node bytes", "inter share", "intra ms", "inter ms", "mode");
        for (Line l : lines) {
            t.row(
                    l.kind() == null ? "all kinds" : l.kind(),
                    bytes(l.intraBytes()),
                    bytes(l.interBytes()),
                    l.interShare() == null ? "-" : ReportFormatting.pct(l.interShare()),
                    ReportFormatting.num(l.intraMs()),
                    ReportFormatting.num(l.interMs()),
                    l.mode() == null ? "-" : l.mode());
        }
        sb.append(t.render("  "));
    }

    private static String bytes(Double b) {
        return b == null ? "-" : ReportFormatting.bytes(b.longValue());
    }
}
