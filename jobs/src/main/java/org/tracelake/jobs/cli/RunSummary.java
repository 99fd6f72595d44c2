package org.tracelake.jobs.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.ingest.Progress;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.metrics.MetricsPhase;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.refresh.History;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.report.ReportFormatting;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/** The one-screen summary at the end of a refresh: per workload, its inputs and headline metrics. */
final class RunSummary {
    private RunSummary() {}

    /** Headline (metric, figure) pairs shown per workload, with their column titles. */
    private static final String[][] HEADLINES = {
        {"comm_comp_overlap", "overlap_ratio_of_comm", "overlap"},
        {"gpu_utilization", null, "gpu util %"},
        {"iter_time", "avg_ms", "step ms"},
        {"straggler_lag", "p50_lag_us", "lag p50 us"},
        {"coll_call_num", null, "colls/rank"},
    };

    /** Workloads whose headline metrics the summary reads (more are listed, without them). */
    static final int MAX_WORKLOADS_WITH_HEADLINES = 200;

    static void print(WarehouseTables tables, Refresh.Result run) {
        Warehouse warehouse = tables.warehouse();
        long failed = run.workloads().stream().filter(w -> !w.ok()).count();
        long refreshed = run.workloads().size() - failed;
        System.out.println();
        // the noun goes with the first count: "1 workload refreshed, 2 unchanged", "0 workloads refreshed, 1 unchanged"
        System.out.printf(
                Locale.ROOT,
                "run %s: %s refreshed, %d unchanged (not read), %d failed, %d removed%n",
                run.runId(),
                ReportFormatting.count(refreshed, "workload"),
                run.unchanged().size(),
                failed,
                run.removed().size());
        if (!run.restoredAfterCrash().isEmpty()) {
            System.out.println("restored after an interrupted run: " + String.join(", ", run.restoredAfterCrash()));
        }
        if (!run.workloads().isEmpty()) printWorkloads(warehouse, run.workloads(), headlineRows(tables, run));
        History.Regressions moved = run.regressions();
        if (moved.count() > 0) {
            System.out.println();
            System.out.println("metrics that moved more than "
                    + moved.shown().get(0).getAs("threshold") + " since the previous run:");
            for (Row r : moved.shown()) {
                System.out.printf(
                        Locale.ROOT,
                        "  %-28s %-34s %12.4g -> %-12.4g (%+.1f%%)%n",
                        r.getAs("workload"),
                        r.getAs("metric")
                                + (r.getAs("figure") == null ? "" : "." + r.getAs("figure"))
                                + (r.getAs("key") == null ? "" : "[" + r.getAs("key") + "]"),
                        (Double) r.getAs("previous_value"),
                        (Double) r.getAs("value"),
                        100 * (Double) r.getAs("relative_change"));
            }
            if (moved.count() > moved.shown().size()) {
                System.out.printf(
                        Locale.ROOT,
                        "  ... and %,d more: the regressions table, or report --history%n",
                        moved.count() - moved.shown().size());
            }
        }
        System.out.println();
        System.out.println("tables under " + warehouse.root() + " (" + String.join(", ", Tables.ALL) + ")");
        System.out.println("metrics per workload: " + warehouse.table(Tables.EXPORTS) + "/metrics/<workload>.json");
    }

    /**
     * The workload-scope rows of the headline metrics of the workloads refreshed without failing, read back from the
     * metrics table: a few rows per workload, for at most {@link #MAX_WORKLOADS_WITH_HEADLINES} workloads.
     */
    private static Map<String, List<Row>> headlineRows(WarehouseTables tables, Refresh.Result run) {
        List<String> ok = run.workloads().stream()
                .filter(WorkloadIngest::ok)
                .map(WorkloadIngest::workload)
                .sorted()
                .limit(MAX_WORKLOADS_WITH_HEADLINES)
                .toList();
        if (ok.isEmpty()) return Map.of(); // every workload failed: no metric rows to read
        List<String> metrics =
                Arrays.stream(HEADLINES).map(h -> h[0]).distinct().toList();
        // figures of one headline metric at workload scope: a few dozen at most (kernel_breakdown-like keys excluded)
        return new MetricsPhase(tables, run.runId()).workloadRows(ok, metrics, ok.size() * 64);
    }

    private static void printWorkloads(
            Warehouse warehouse, List<WorkloadIngest> results, Map<String, List<Row>> metrics) {
        StringBuilder header = new StringBuilder(
                String.format(Locale.ROOT, "%-32s %5s %6s %12s", "workload", "traces", "ranks", "events"));
        for (String[] h : HEADLINES) header.append(String.format(Locale.ROOT, " %11s", h[2]));
        System.out.println();
        System.out.println(header.append("  status"));
        for (WorkloadIngest r : results) {
            // the ranks the rows carry: a file of eight devices (an XSpace, an Nsight report) holds eight
            long ranks = r.files().stream()
                    .flatMap(f -> f.ranksHeld().stream())
                    .distinct()
                    .count();
            StringBuilder line = new StringBuilder(
                    String.format(Locale.ROOT, "%-32s %5d %6d %,12d", r.workload(), traceFiles(r), ranks, r.events()));
            List<Row> rows = metrics.getOrDefault(r.workload(), List.of());
            for (String[] h : HEADLINES) line.append(String.format(Locale.ROOT, " %11s", headline(rows, h[0], h[1])));
            line.append("  ")
                    .append(
                            r.clean()
                                    ? "ok"
                                    : r.ok()
                                            ? "ok, with file errors: " + String.join("; ", r.problems())
                                            : failed(warehouse, r.workload()) + String.join("; ", r.problems()));
            System.out.println(Progress.printable(line.toString())); // names and messages are data: one line each
        }
    }

    /**
     * The files of a workload that are traces: a format was recognised and it is not the card or a config. A skipped
     * file (a zip, a README: no reader claimed it, so its format is null) is no trace, though it is listed.
     */
    static long traceFiles(WorkloadIngest r) {
        return r.files().stream()
                .filter(f -> f.format != null && TraceFormat.isTrace(f.format))
                .count();
    }

    /**
     * What a failed workload's line says of its tables: a failed workload commits only its trace_files rows (so its
     * old events, if any, are still live after the run) — "kept" only when there were tables to keep.
     */
    static String failed(Warehouse warehouse, String workload) {
        boolean previous;
        try {
            previous = warehouse.catalog().workloads(Tables.EVENTS).contains(workload);
        } catch (RuntimeException e) {
            previous = false; // cannot tell: say nothing was kept rather than promise tables that may not be there
        }
        return previous ? "FAILED (previous tables kept): " : "FAILED (nothing committed: no previous tables): ";
    }

    private static String headline(List<Row> rows, String metric, String figure) {
        for (Row r : rows) {
            if (!metric.equals(r.getAs("metric")) || !"workload".equals(r.getAs("scope"))) continue;
            if (figure != null && !figure.equals(r.getAs("figure"))) continue;
            if (figure == null && r.getAs("figure") != null) continue;
            if (r.getAs("key") != null && !metric.equals("pipeline_bubble")) continue;
            Double v = r.getAs("value");
            return v == null ? "-" : String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : "%.3g", v);
        }
        return "-";
    }
}
