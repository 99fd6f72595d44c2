package org.tracelake.jobs.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.console.Progress;
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

    /**
     * A headline figure shown per workload: its (metric, figure), column title, how its numbers are written (one
     * number of decimals per column, so a column reads down: 0.581 above 0.000) and what the column means.
     */
    private record Headline(String metric, String figure, String title, String format, String meaning) {}

    private static final Headline[] HEADLINES = {
        new Headline(
                "comm_comp_overlap",
                "overlap_ratio_of_comm",
                "overlap",
                "%.3f",
                "share of communication time hidden under compute, 0 to 1, mean over ranks (comm_comp_overlap)"),
        new Headline(
                "gpu_utilization",
                null,
                "gpu util %",
                "%.1f",
                "share of each rank's span (first to last GPU activity) with GPU activity, mean over ranks, % (gpu_utilization)"),
        new Headline("iter_time", "avg_ms", "step ms", "%.2f", "mean step duration, in ms (iter_time.avg_ms)"),
        new Headline(
                "straggler_lag",
                "p50_lag_us",
                "lag p50 us",
                "%.1f",
                "median lag of the last rank to join a collective behind the first, in µs (straggler_lag)"),
        new Headline(
                "coll_call_num",
                null,
                "colls/rank",
                "%.1f",
                "communication kernels per rank, mean over ranks (coll_call_num)"),
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
        if (!run.workloads().isEmpty()) {
            printWorkloads(
                    warehouse, run.workloads(), headlineRows(tables, run), Findings.top(tables, okWorkloads(run)));
            printLegend();
        }
        History.Regressions moved = run.regressions();
        if (moved.count() > 0) {
            System.out.println();
            System.out.println("since each workload's previous run (step-time verdict; figures moved more than "
                    + moved.shown().get(0).getAs("threshold") + "):");
            RegressionLines.of(moved.shown(), moved.count()).forEach(System.out::println);
        }
        System.out.println();
        List<String> present = Tables.ALL.stream().filter(warehouse::exists).toList();
        System.out.println(ReportFormatting.count(present.size(), "table") + " under " + warehouse.root()
                + (present.isEmpty() ? "" : " (" + String.join(", ", present) + ")"));
        System.out.println("metrics per workload: " + warehouse.table(Tables.EXPORTS) + "/metrics/<workload>.json");
    }

    /**
     * The workload-scope rows of the headline metrics of the workloads refreshed without failing, read back from the
     * metrics table: a few rows per workload, for at most {@link #MAX_WORKLOADS_WITH_HEADLINES} workloads.
     */
    private static Map<String, List<Row>> headlineRows(WarehouseTables tables, Refresh.Result run) {
        List<String> ok = okWorkloads(run);
        if (ok.isEmpty()) return Map.of(); // every workload failed: no metric rows to read
        List<String> metrics =
                Arrays.stream(HEADLINES).map(Headline::metric).distinct().toList();
        // figures of one headline metric at workload scope: a few dozen at most (kernel_breakdown-like keys excluded)
        return new MetricsPhase(tables, run.runId()).workloadRows(ok, metrics, ok.size() * 64);
    }

    /** The workloads refreshed without failing, at most {@link #MAX_WORKLOADS_WITH_HEADLINES}. */
    private static List<String> okWorkloads(Refresh.Result run) {
        return run.workloads().stream()
                .filter(WorkloadIngest::ok)
                .map(WorkloadIngest::workload)
                .sorted()
                .limit(MAX_WORKLOADS_WITH_HEADLINES)
                .toList();
    }

    private static void printWorkloads(
            Warehouse warehouse,
            List<WorkloadIngest> results,
            Map<String, List<Row>> metrics,
            Map<String, List<Row>> findings) {
        StringBuilder header = new StringBuilder(
                String.format(Locale.ROOT, "%-32s %5s %6s %12s", "workload", "traces", "ranks", "events"));
        for (Headline h : HEADLINES) header.append(String.format(Locale.ROOT, " %11s", h.title()));
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
            for (Headline h : HEADLINES) line.append(String.format(Locale.ROOT, " %11s", headline(rows, h)));
            line.append("  ")
                    .append(
                            r.clean()
                                    ? "ok"
                                    : r.ok()
                                            ? "ok, with file errors: " + String.join("; ", r.problems())
                                            : failed(warehouse, r.workload()) + String.join("; ", r.problems()));
            System.out.println(Progress.printable(line.toString())); // names and messages are data: one line each
            for (Row f : findings.getOrDefault(r.workload(), List.of()))
                System.out.println(Progress.printable("  " + Findings.line(f)));
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

    private static String headline(List<Row> rows, Headline h) {
        for (Row r : rows) {
            if (!h.metric().equals(r.getAs("metric")) || !"workload".equals(r.getAs("scope"))) continue;
            if (h.figure() != null && !h.figure().equals(r.getAs("figure"))) continue;
            if (h.figure() == null && r.getAs("figure") != null) continue;
            if (r.getAs("key") != null) continue;
            Double v = r.getAs("value");
            return v == null ? "-" : String.format(Locale.ROOT, h.format(), v);
        }
        return "-";
    }

    /** What each column of the workload table means; {@code -} where a workload has no such figure. */
    private static void printLegend() {
        System.out.println();
        System.out.println(
                "  traces      trace files read (not the card or configs); ranks: the ranks their rows carry");
        System.out.println(
                "  events      rows read, the side tables' too (telemetry lines, execution-trace nodes, ...)");
        for (Headline h : HEADLINES) System.out.printf(Locale.ROOT, "  %-11s %s%n", h.title(), h.meaning());
        System.out.println(
                "  -           the figure needs GPU kernels, steps or collectives the workload's format lacks");
    }
}
