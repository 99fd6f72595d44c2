package org.tracelake.jobs.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.report.Comparison;
import org.tracelake.jobs.report.ReportQueries;
import org.tracelake.jobs.report.Reports;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Reports on the warehouse's workloads:",
                "  --workload W [--out FILE]          text report (stdout without --out)",
                "  --html [--workload W] [--out DIR]  HTML pages with charts, one per workload",
                "                                     (DIR default <warehouse>/exports/reports)",
                "  --compare REF CAND [--out DIR]     shared workload-scope metrics with CAND/REF",
                "                                     ratios (text on stdout; with --out DIR:",
                "                                     compare.txt, compare.html, summary.json)",
                "  --history W [--out DIR]            headline metrics of W across the refresh runs,",
                "                                     flagged regressions and what each run found",
                "                                     changed (text on stdout; with --out DIR:",
                "                                     history.txt, history.html)"})
public final class ReportCommand implements Callable<Integer> {
    @Option(names = "--workload", paramLabel = "NAME", description = "The workload.")
    String workload;

    @Option(names = "--html", description = "Write HTML pages (charts; opens with no network).")
    boolean html;

    @Option(names = "--compare", arity = "2", paramLabel = "WORKLOAD",
            description = "Compare two workloads: REF (reference) and CAND (candidate).")
    List<String> compare;

    @Option(names = "--history", paramLabel = "WORKLOAD",
            description = "The workload's headline metrics across the refresh runs that read it.")
    String history;

    @Option(names = {"-o", "--out"}, paramLabel = "PATH",
            description = "Output: a file for the text report, a directory for --html, --compare and --history.")
    String out;

    @Option(names = "--step", paramLabel = "N",
            description = "The step the HTML timeline shows (default: the middle step every rank has).")
    Long step;

    @Option(names = "--timeline-cap", paramLabel = "N", defaultValue = "" + ReportQueries.DEFAULT_TIMELINE_CAP,
            description = "At most this many activities in the HTML timeline. Default: ${DEFAULT-VALUE}")
    int timelineCap;

    @Mixin WarehouseOption warehouseOption;
    @Mixin SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        if (compare != null && (html || workload != null || history != null)) {
            System.err.println("--compare takes two workloads and no --workload, --html or --history");
            return ExitCodes.USAGE;
        }
        if (history != null && (html || workload != null)) {
            System.err.println("--history takes one workload and no --workload or --html");
            return ExitCodes.USAGE;
        }
        if (compare == null && history == null && !html && workload == null) {
            System.err.println("give --workload W (text report), --html, --compare REF CAND, or --history W");
            return ExitCodes.USAGE;
        }
        if (timelineCap < 1) {
            System.err.println("--timeline-cap must be at least 1");
            return ExitCodes.USAGE;
        }
        WarehouseWriter writer = new WarehouseWriter("report", warehouseOption, sparkOptions);
        // Text on stdout writes nothing; pages and files under the warehouse (the --html default) make it a writer.
        String written = out != null ? out : html ? writer.warehouse().table(Tables.EXPORTS) + "/reports" : null;
        return writer.lockedIf(written != null && writer.inWarehouse(written), (lock, spark) -> report(spark, written));
    }

    /** The report asked for; {@code written} is where --html and --out write (null: stdout). */
    private int report(SparkSession spark, String written) throws java.io.IOException {
        Warehouse warehouse = new Warehouse(warehouseOption.warehouse, spark.sparkContext().hadoopConfiguration());
        Reports reports = new Reports(spark, warehouse);
        List<String> known = reports.workloads();
        if (known.isEmpty()) {
            System.err.println("no metrics under " + warehouse.root() + ": run `tracelake refresh` first");
            return ExitCodes.FAILED;
        }
        List<String> named = compare != null ? compare : history != null ? List.of(history)
                : workload != null ? List.of(workload) : List.of();
        for (String w : named) {
            if (!known.contains(w)) {
                System.err.println("no workload " + w + " in " + warehouse.root() + " (there are: " + String.join(", ", known) + ")");
                return ExitCodes.USAGE;
            }
        }
        if (compare != null) {
            Comparison c = reports.compare(compare.get(0), compare.get(1));
            if (out == null) {
                System.out.print(c.text());
            } else {
                reports.writeComparison(c, out).forEach(f -> System.err.println("wrote " + f));
            }
        } else if (history != null) {
            org.tracelake.jobs.report.RunHistory h = reports.history(history);
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
                System.err.println("wrote " + org.tracelake.jobs.report.Outputs.write(
                        spark.sparkContext().hadoopConfiguration(), out, text));
            }
        }
        return ExitCodes.OK;
    }
}
