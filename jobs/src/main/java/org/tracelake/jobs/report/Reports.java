package org.tracelake.jobs.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/** The {@code report} job's work, callable from the command line and from tests with any SparkSession. */
public final class Reports {
    private final SparkSession spark;
    private final Warehouse warehouse;
    private final ReportQueries queries;

    public Reports(WarehouseTables tables) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.queries = new ReportQueries(tables);
    }

    public List<String> workloads() {
        return queries.workloads();
    }

    public boolean has(String workload) {
        return queries.hasWorkload(workload);
    }

    public ReportModel model(String workload, Long step, int timelineCap) {
        return queries.build(workload, step, timelineCap);
    }

    public String text(String workload, Long step) {
        return TextReport.render(model(workload, step, ReportQueries.DEFAULT_TIMELINE_CAP));
    }

    /** One page per workload, {@code <dir>/<workload>.html}; returns the files written. */
    public List<String> html(List<String> workloads, String dir, Long step, int timelineCap) throws IOException {
        List<String> written = new ArrayList<>();
        for (String w : workloads) {
            String page = HtmlReport.render(model(w, step, timelineCap));
            written.add(ReportFileWriter.write(conf(), dir + "/" + ReportFileWriter.fileName(w, ".html"), page));
        }
        return written;
    }

    /** The steps the workload's events carry (what --step may name). */
    public StepList steps(String workload) {
        return StepList.of(queries.forWorkload(Tables.EVENTS, workload));
    }

    /**
     * Null when every one of the workloads has {@code step}; else the line for the first that lacks it, naming the
     * steps it has (a usage error: the step was mistyped or belongs to another workload).
     */
    public String missingStep(List<String> workloads, long step) {
        for (String w : workloads) {
            StepList s = steps(w);
            if (!s.has(step)) return "no step " + step + " in workload " + w + ": its steps are " + s.describe();
        }
        return null;
    }

    /** {@code report --trace}: the workload within {@code bounds} as one Chrome trace-event JSON file at {@code file}. */
    public ChromeTrace.Written trace(String workload, ChromeTrace.Bounds bounds, long maxEvents, String file)
            throws IOException {
        return new ChromeTrace(spark, queries).write(workload, bounds, maxEvents, file);
    }

    public Comparison compare(String reference, String candidate) {
        List<ReportModel.MetricRow> ref = queries.workloadMetrics(reference);
        List<ReportModel.MetricRow> cand = queries.workloadMetrics(candidate);
        Comparison shared = Comparison.of(reference, ref, candidate, cand);
        Progress.info(String.format(
                Locale.ROOT,
                "compare %s (%,d workload-scope rows) with %s (%,d): %,d shared, %,d with a ratio",
                Progress.printable(reference),
                ref.size(),
                Progress.printable(candidate),
                cand.size(),
                shared.rows().size(),
                shared.rows().stream().filter(r -> r.ratio() != null).count()));
        Comparison c = shared.withBreakdown(queries.comparedRun(reference), queries.comparedRun(candidate))
                .withVerdict(new RunVerdictQuery(queries).workloads(reference, candidate));
        Progress.info(String.format(
                Locale.ROOT,
                "compare: breakdown of %s, %s and %s",
                ReportFormatting.count(c.breakdown().categories().size(), "kernel category"),
                ReportFormatting.count(c.breakdown().movedKernels().size(), "moved kernel"),
                ReportFormatting.count(c.breakdown().collectives().size(), "collective bucket")));
        return c;
    }

    /**
     * {@code report --workload W --against-run RUN}: the workload today against one of its earlier runs in
     * metrics_history, opened by the verdict on their steps; the breakdown's kernel tables need both runs' kernel_totals,
     * which only today's has, so this comparison has none.
     */
    public Comparison compareAgainstRun(String workload, String runId) {
        List<ReportModel.MetricRow> earlier = queries.historyMetrics(workload, runId);
        if (earlier.isEmpty()) {
            throw new IllegalArgumentException("no run " + runId + " of workload " + workload
                    + " in metrics_history (report --history " + workload + " lists its runs)");
        }
        Comparison c = Comparison.of(workload + " @ " + runId, earlier, workload, queries.workloadMetrics(workload))
                .withVerdict(new RunVerdictQuery(queries).againstRun(workload, runId));
        Progress.info(String.format(
                Locale.ROOT,
                "compare %s with its run %s: %,d shared rows",
                Progress.printable(workload),
                Progress.printable(runId),
                c.rows().size()));
        return c;
    }

    /** The workload across the refresh runs that read it: headline metrics per run, flagged runs, what changed. */
    public RunHistory history(String workload) {
        RunHistory h = new HistoryQuery(queries).of(workload);
        Progress.info(String.format(
                Locale.ROOT,
                "history %s: %s, %s",
                Progress.printable(workload),
                ReportFormatting.count(h.runs().size(), "run"),
                ReportFormatting.count(h.series().size(), "headline series")));
        return h;
    }

    /** {@code history.txt} and {@code history.html} in {@code dir}; returns the files. */
    public List<String> writeHistory(RunHistory h, String dir) throws IOException {
        return List.of(
                ReportFileWriter.write(conf(), dir + "/history.txt", h.text()),
                ReportFileWriter.write(conf(), dir + "/history.html", h.html()));
    }

    /** {@code compare.txt}, {@code compare.html} and {@code summary.json} in {@code dir}; returns the files. */
    public List<String> writeComparison(Comparison c, String dir) throws IOException {
        List<String> written = new ArrayList<>();
        written.add(ReportFileWriter.write(conf(), dir + "/compare.txt", c.text()));
        written.add(ReportFileWriter.write(conf(), dir + "/compare.html", c.html()));
        written.add(ReportFileWriter.write(conf(), dir + "/summary.json", prettyJson(c.summary())));
        return written;
    }

    static String prettyJson(Object o) {
        try {
            return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(o) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Configuration conf() {
        return spark.sparkContext().hadoopConfiguration();
    }

    public Warehouse warehouse() {
        return warehouse;
    }
}
