package org.tracelake.jobs.cli;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.report.ChromeTrace;
import org.tracelake.jobs.report.Comparison;
import org.tracelake.jobs.report.ReportFileWriter;
import org.tracelake.jobs.report.ReportFormatting;
import org.tracelake.jobs.report.ReportQueries;
import org.tracelake.jobs.report.Reports;
import org.tracelake.jobs.report.RunHistory;
import org.tracelake.jobs.report.StepList;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Reports on the warehouse's workloads:",
            "  --workload W [--out FILE]",
            "      the text report (stdout without --out)",
            "  --html [--workload W] [--out DIR]",
            "      HTML pages with charts, one per workload",
            "      (DIR default <warehouse>/exports/reports)",
            "  --compare REF CAND [--out DIR]",
            "      opened by the step-time verdict, then shared workload-scope",
            "      metrics with CAND/REF ratios (text on stdout; with --out DIR:",
            "      compare.txt, compare.html and summary.json)",
            "  --workload W --against-run RUN [--out DIR]",
            "      the same against W's earlier run RUN (metrics_history;",
            "      report --history W lists the runs)",
            "  --history W [--out DIR]",
            "      headline metrics of W across the refresh runs, flagged",
            "      regressions and what each run found changed (text on stdout;",
            "      with --out DIR: history.txt, history.html)",
            "  --trace W [--step N | --window A:B] [--out FILE]",
            "      one Chrome-trace JSON file that Perfetto (ui.perfetto.dev) and",
            "      chrome://tracing open: one step of W (default: the first step",
            "      every rank has) or the activities overlapping A to B ms after",
            "      its first event; every rank a process on one aligned clock,",
            "      its GPU streams and CPU threads as in events, each matched",
            "      collective instance linked across its ranks by flow arrows",
            "      (collective_members), the straggler rank named (FILE default",
            "      <warehouse>/exports/traces/<W>-step<N>.pt.trace.json)"
        })
public final class ReportCommand implements Callable<Integer> {
    @Option(names = "--workload", paramLabel = "NAME", description = "The workload.")
    String workload;

    @Option(names = "--html", description = "Write HTML pages (charts; opens with no network).")
    boolean html;

    @Option(
            names = "--compare",
            arity = "2",
            paramLabel = "WORKLOAD",
            description = "Compare two workloads: REF (reference) and CAND (candidate).")
    List<String> compare;

    @Option(
            names = "--against-run",
            paramLabel = "RUN",
            description = "With --workload W: compare W with its earlier run RUN (a run id of metrics_history).")
    String againstRun;

    @Option(
            names = "--history",
            paramLabel = "WORKLOAD",
            description = "The workload's headline metrics across the refresh runs that read it.")
    String history;

    @Option(
            names = "--trace",
            paramLabel = "WORKLOAD",
            description =
                    "Write one step (or --window) of the workload as a Chrome-trace JSON file (Perfetto, chrome://tracing).")
    String trace;

    @Option(
            names = "--window",
            paramLabel = "A:B",
            description =
                    "With --trace: the activities overlapping A to B milliseconds after the workload's first event,"
                            + " instead of a step.")
    String window;

    @Option(
            names = "--max-events",
            paramLabel = "N",
            defaultValue = "" + ChromeTrace.DEFAULT_MAX_EVENTS,
            description =
                    "With --trace: at most about this many activities (the earliest are kept). Default: ${DEFAULT-VALUE}")
    long maxEvents;

    @Option(
            names = {"-o", "--out"},
            paramLabel = "PATH",
            description =
                    "Output: a file for the text report and --trace, a directory for --html, --compare and --history.")
    String out;

    @Option(
            names = "--step",
            paramLabel = "N",
            description =
                    "The step the HTML timeline shows (default: the middle step every rank has), or the step --trace"
                            + " writes (default: the first step every rank has). A step the workload does not have is an error"
                            + " that lists the steps it has.")
    Long step;

    @Option(
            names = "--timeline-cap",
            paramLabel = "N",
            defaultValue = "" + ReportQueries.DEFAULT_TIMELINE_CAP,
            description = "At most this many activities in the HTML timeline. Default: ${DEFAULT-VALUE}")
    int timelineCap;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        if (trace != null && (compare != null || history != null || html || workload != null)) {
            System.err.println("--trace takes one workload and no --workload, --html, --compare or --history");
            return ExitCodes.USAGE;
        }
        if (trace == null && (window != null)) {
            System.err.println("--window goes with --trace");
            return ExitCodes.USAGE;
        }
        if (window != null && step != null) {
            System.err.println("--trace takes --step N or --window A:B, not both");
            return ExitCodes.USAGE;
        }
        double[] windowMs = window == null ? null : parseWindow(window);
        if (window != null && windowMs == null) {
            System.err.println("--window takes A:B, milliseconds after the workload's first event with 0 <= A < B (e.g."
                    + " --window 120:135.5), not '" + window + "'");
            return ExitCodes.USAGE;
        }
        if (maxEvents < 1) {
            System.err.println("--max-events must be at least 1");
            return ExitCodes.USAGE;
        }
        if (step != null && (compare != null || history != null)) {
            System.err.println("--step goes with --workload, --html or --trace");
            return ExitCodes.USAGE;
        }
        if (compare != null && (html || workload != null || history != null)) {
            System.err.println("--compare takes two workloads and no --workload, --html or --history");
            return ExitCodes.USAGE;
        }
        if (history != null && (html || workload != null)) {
            System.err.println("--history takes one workload and no --workload or --html");
            return ExitCodes.USAGE;
        }
        if (againstRun != null && (workload == null || html || compare != null || history != null || step != null)) {
            System.err.println("--against-run RUN goes with --workload W alone (and --out DIR)");
            return ExitCodes.USAGE;
        }
        if (compare == null && history == null && !html && workload == null && trace == null) {
            System.err.println(
                    "give --workload W (text report), --html, --compare REF CAND, --history W, or --trace W");
            return ExitCodes.USAGE;
        }
        if (timelineCap < 1) {
            System.err.println("--timeline-cap must be at least 1");
            return ExitCodes.USAGE;
        }
        LockedSparkCommand writer = new LockedSparkCommand("report", warehouseOption, sparkOptions);
        // Text on stdout writes nothing; pages and files under the warehouse (the --html default) make it a writer.
        String written = out != null
                ? out
                : html
                        ? writer.warehouse().table(Tables.EXPORTS) + "/reports"
                        : trace != null ? writer.warehouse().table(Tables.EXPORTS) + "/traces" : null;
        return writer.lockedIf(
                written != null && writer.inWarehouse(written), (lock, tables) -> report(tables, written, windowMs));
    }

    /** "A:B" as {A, B} milliseconds, or null when it is not two numbers with 0 <= A < B. */
    static double[] parseWindow(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 2) return null;
        try {
            double a = Double.parseDouble(parts[0].strip());
            double b = Double.parseDouble(parts[1].strip());
            return Double.isFinite(a) && Double.isFinite(b) && a >= 0 && a < b ? new double[] {a, b} : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The report asked for; {@code written} is where --html and --out write (null: stdout). */
    private int report(WarehouseTables tables, String written, double[] windowMs) throws IOException {
        SparkSession spark = tables.spark();
        Warehouse warehouse = tables.warehouse();
        Reports reports = new Reports(tables);
        List<String> known = reports.workloads();
        if (known.isEmpty()) {
            System.err.println("no metrics under " + warehouse.root() + ": run `tracelake refresh` first");
            return ExitCodes.FAILED;
        }
        List<String> named = compare != null
                ? compare
                : history != null
                        ? List.of(history)
                        : workload != null ? List.of(workload) : trace != null ? List.of(trace) : List.of();
        for (String w : named) {
            if (!known.contains(w)) {
                System.err.println("no workload " + w + " in " + warehouse.root() + " (there are: "
                        + String.join(", ", known) + ")");
                return ExitCodes.USAGE;
            }
        }
        // --step names a step of every workload it reports on: one it lacks is a usage error that lists its steps
        if (step != null) {
            String missing = reports.missingStep(html && workload == null ? known : named, step);
            if (missing != null) {
                System.err.println(missing);
                return ExitCodes.USAGE;
            }
        }
        if (trace != null) return trace(reports, reports.steps(trace), written, windowMs);
        if (compare != null || againstRun != null) {
            Comparison c;
            try {
                c = compare != null
                        ? reports.compare(compare.get(0), compare.get(1))
                        : reports.compareAgainstRun(workload, againstRun);
            } catch (IllegalArgumentException e) {
                System.err.println(e.getMessage());
                return ExitCodes.USAGE;
            }
            if (out == null) {
                System.out.print(c.text());
            } else {
                reports.writeComparison(c, out).forEach(f -> System.err.println("wrote " + f));
            }
        } else if (history != null) {
            RunHistory h = reports.history(history);
            if (out == null) {
                System.out.print(h.text());
            } else {
                reports.writeHistory(h, out).forEach(f -> System.err.println("wrote " + f));
            }
        } else if (html) {
            reports.html(workload != null ? List.of(workload) : known, written, step, timelineCap)
                    .forEach(f -> System.err.println("wrote " + f));
        } else {
            String text = reports.text(workload, step);
            if (out == null) {
                System.out.print(text);
            } else {
                System.err.println(
                        "wrote " + ReportFileWriter.write(spark.sparkContext().hadoopConfiguration(), out, text));
            }
        }
        return ExitCodes.OK;
    }

    /** {@code --trace}: the step (named, or the first every rank has) or the window, written as one file. */
    private int trace(Reports reports, StepList steps, String dir, double[] windowMs) throws IOException {
        ChromeTrace.Bounds bounds;
        if (windowMs != null) {
            bounds = ChromeTrace.Bounds.ofWindow(windowMs[0], windowMs[1]);
            System.err.println("report --trace " + trace + ": " + bounds.describe());
        } else if (step != null) {
            bounds = ChromeTrace.Bounds.ofStep(step);
            System.err.println("report --trace " + trace + ": step " + step + " (steps: " + steps.describe() + ")");
        } else {
            Long first = steps.firstFull();
            if (first == null) {
                System.err.println("workload " + trace + " has no step every rank has (steps: " + steps.describe()
                        + "): give --step N or --window A:B");
                return ExitCodes.USAGE;
            }
            bounds = ChromeTrace.Bounds.ofStep(first);
            System.err.println("report --trace " + trace + ": step " + first
                    + ", the first step every rank has (steps: " + steps.describe() + "; --step N for another)");
        }
        String file = out != null
                ? out
                : dir + "/"
                        + ReportFileWriter.fileName(
                                trace,
                                (bounds.step() != null ? "-step" + bounds.step() : "-window") + ".pt.trace.json");
        ChromeTrace.Written w;
        try {
            w = reports.trace(trace, bounds, maxEvents, file);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return ExitCodes.USAGE;
        }
        System.err.printf(
                Locale.ROOT,
                "wrote %s: %s, %s%s, %s, %s (open it in ui.perfetto.dev or chrome://tracing)%n",
                w.file(),
                ReportFormatting.count(w.ranks(), "rank"),
                ReportFormatting.count(w.activities(), "activity"),
                w.activities() < w.inBounds()
                        ? String.format(Locale.ROOT, " (the earliest of %,d: --max-events)", w.inBounds())
                        : "",
                ReportFormatting.count(w.instances(), "collective instance"),
                ReportFormatting.count(w.flows(), "flow arrow"));
        return ExitCodes.OK;
    }
}
