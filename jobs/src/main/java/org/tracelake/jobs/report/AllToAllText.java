package org.tracelake.jobs.report;

import java.util.HashMap;
import java.util.Map;
import org.tracelake.jobs.report.ReportModel.AllToAll;
import org.tracelake.jobs.report.ReportModel.MetricRow;

/** The "MoE all-to-all" section of the text report: imbalance per instance and, for a few ranks, the byte matrix. */
final class AllToAllText {
    /** Instances listed in text (the HTML page shows them all, up to the query's cap). */
    static final int INSTANCE_LINES = 20;
    /** A matrix wider than this does not fit a terminal; the HTML heat map shows it. */
    static final int MATRIX_RANKS = 16;

    private AllToAllText() {}

    static void render(StringBuilder sb, ReportModel m) {
        TextReport.section(sb, "MoE all-to-all");
        MetricRow mean = TextReport.anyKey(m.workloadMetrics(), "all_to_all_imbalance", "mean");
        MetricRow max = TextReport.anyKey(m.workloadMetrics(), "all_to_all_imbalance", "max");
        if (mean == null || mean.value() == null) {
            sb.append("  ")
                    .append(mean == null ? "all_to_all_imbalance absent" : mean.reason())
                    .append('\n');
            return;
        }
        TextReport.kv(
                sb,
                "imbalance mean / max",
                ReportFormatting.num(mean.value()) + " / " + (max == null ? "-" : ReportFormatting.num(max.value())));
        AllToAll a = m.allToAll();
        ReportFormatting.Table t = new ReportFormatting.Table("instance", "imbalance (max/mean bytes sent)");
        a.instances().stream()
                .limit(INSTANCE_LINES)
                .forEach(i -> t.row(i.instance(), ReportFormatting.num(i.imbalance())));
        sb.append('\n').append(t.render("  "));
        if (a.instances().size() > INSTANCE_LINES) {
            sb.append("  (the ")
                    .append(INSTANCE_LINES)
                    .append(" most imbalanced of ")
                    .append(a.instances().size())
                    .append(")\n");
        }
        if (a.ranks().isEmpty() || a.ranks().size() > MATRIX_RANKS) {
            sb.append("  rank-pair bytes: ").append(a.rankCount()).append(" ranks, see the HTML page\n");
            return;
        }
        Map<String, Long> bytes = new HashMap<>();
        for (long[] c : a.cells()) bytes.put(c[0] + ":" + c[1], c[2]);
        String[] header = new String[a.ranks().size() + 1];
        header[0] = "src \\ dst";
        for (int j = 0; j < a.ranks().size(); j++)
            header[j + 1] = Integer.toString(a.ranks().get(j));
        ReportFormatting.Table matrix = new ReportFormatting.Table(header);
        for (Integer src : a.ranks()) {
            String[] row = new String[header.length];
            row[0] = Integer.toString(src);
            for (int j = 0; j < a.ranks().size(); j++)
                row[j + 1] =
                        ReportFormatting.bytes(bytes.get(src + ":" + a.ranks().get(j)));
            matrix.row((Object[]) row);
        }
        sb.append("\n  bytes sent, summed over the instances above\n").append(matrix.render("  "));
    }
}
