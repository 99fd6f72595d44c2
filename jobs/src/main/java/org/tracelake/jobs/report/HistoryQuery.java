package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.date_format;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.metrics.findings.Finding;
import org.tracelake.jobs.metrics.findings.FindingRules;
import org.tracelake.jobs.metrics.findings.FindingThresholds;
import org.tracelake.schemas.Tables;

/**
 * The Spark side of {@code report --history W}: one workload's rows of the history tables, filtered on the executors
 * to the headline figure of each metric at workload scope (the catalog's first figure) and to the last
 * {@link #RUN_CAP} runs, so what reaches the driver is at most runs × metrics numbers.
 */
final class HistoryQuery {
    static final int RUN_CAP = 120;

    /**
     * A regressions row that moved past its threshold: every threshold row, and a step-verdict row (written for every
     * compared workload, neutral included) only when its iter_time.avg_ms moved as a threshold row would have.
     */
    static final String MOVED = "rule IS NULL OR rule <> 'step_verdict' OR previous_value = 0 AND value <> 0"
            + " OR abs(value - previous_value) > threshold * abs(previous_value)";

    private final ReportQueries q;

    HistoryQuery(ReportQueries q) {
        this.q = q;
    }

    RunHistory of(String workload) {
        TreeSet<String> allRuns = new TreeSet<>();
        Set<String> withMetrics = new HashSet<>();
        Dataset<Row> history = null;
        if (q.warehouse().exists(Tables.METRICS_HISTORY)) {
            history = q.forWorkload(Tables.METRICS_HISTORY, workload)
                    .where(col("scope").equalTo(lit("workload")).and(col("key").isNull()));
            for (Row r : history.select("run_id").distinct().collectAsList()) withMetrics.add(r.getAs("run_id"));
            allRuns.addAll(withMetrics);
        }
        Map<String, List<String>> changes = new HashMap<>();
        if (q.warehouse().exists(Tables.WORKLOAD_CHANGES)) {
            for (Row r : q.forWorkload(Tables.WORKLOAD_CHANGES, workload)
                    .select("run_id", "change", "file")
                    .orderBy("run_id", "change", "file")
                    .collectAsList()) {
                String change = r.getAs("change");
                String file = r.getAs("file");
                changes.computeIfAbsent(r.getAs("run_id"), k -> new ArrayList<>())
                        .add(file == null ? change : change + " " + file);
                allRuns.add(r.getAs("run_id"));
            }
        }
        // Run ids start with their UTC start time (RunIds), so their order is the runs' order.
        List<String> shown = new ArrayList<>(allRuns).subList(Math.max(0, allRuns.size() - RUN_CAP), allRuns.size());
        Map<String, String> started = startTimes(shown);
        Map<String, String> verdicts = stepVerdicts(workload);
        List<RunHistory.Run> runs = new ArrayList<>();
        for (String id : shown) {
            runs.add(new RunHistory.Run(
                    id,
                    started.get(id),
                    changes.getOrDefault(id, List.of()),
                    withMetrics.contains(id),
                    verdicts.get(id)));
        }
        return new RunHistory(
                workload,
                runs,
                history == null ? List.of() : series(workload, history, shown),
                allRuns.size(),
                recurring(workload, shown));
    }

    /** Metrics the findings rules read that metrics_history keeps per run (step rows aside: exposed_comm). */
    private static final List<String> FINDING_INPUTS = List.of(
            "straggler_lag",
            "lateness_cause",
            "lateness_top_kernel",
            "gpu_slowness",
            "idle_breakdown",
            "mean_sm_coverage",
            "fragmentation");

    /**
     * The findings rules applied to each shown run's rows of metrics_history (the rules are pure functions of a
     * workload's rows, so a past run gets the findings it would have had), grouped by (rule, rank): what recurs.
     */
    private List<RunHistory.Recurring> recurring(String workload, List<String> runIds) {
        if (runIds.isEmpty() || !q.warehouse().exists(Tables.METRICS_HISTORY)) return List.of();
        Map<String, List<org.tracelake.jobs.metrics.MetricRow>> byRun = new HashMap<>();
        for (Row r : q.forWorkload(Tables.METRICS_HISTORY, workload)
                .where(col("run_id")
                        .isin(runIds.toArray())
                        .and(col("metric").isin(FINDING_INPUTS.toArray()))
                        .and(col("scope")
                                .equalTo(lit("workload"))
                                .or(col("figure").equalTo(lit("last_arrival_share")))))
                .select("run_id", "metric", "figure", "value", "unit", "scope", "rank", "step", "key", "status")
                .collectAsList()) {
            byRun.computeIfAbsent(r.getAs("run_id"), k -> new ArrayList<>())
                    .add(new org.tracelake.jobs.metrics.MetricRow(
                            workload,
                            r.getAs("metric"),
                            r.getAs("figure"),
                            r.getAs("value"),
                            r.getAs("unit"),
                            r.getAs("scope"),
                            r.getAs("rank"),
                            r.getAs("step"),
                            r.getAs("key"),
                            r.getAs("status"),
                            null));
        }
        FindingThresholds thresholds = FindingThresholds.load(
                org.tracelake.jobs.spark.Settings.of(q.spark()).get(org.tracelake.jobs.spark.Settings.FINDINGS));
        Map<String, List<Integer>> fired = new LinkedHashMap<>();
        Map<String, Finding> latest = new HashMap<>();
        for (int i = 0; i < runIds.size(); i++) {
            List<org.tracelake.jobs.metrics.MetricRow> rows = byRun.get(runIds.get(i));
            if (rows == null) continue;
            for (Finding f : FindingRules.all(workload, rows, List.of(), thresholds)) {
                String id = f.rule() + "|" + f.rank();
                fired.computeIfAbsent(id, k -> new ArrayList<>()).add(i + 1);
                latest.put(id, f);
            }
        }
        List<RunHistory.Recurring> out = new ArrayList<>();
        fired.forEach((id, runs) -> {
            Finding f = latest.get(id);
            out.add(new RunHistory.Recurring(f.rule(), f.rank(), runs, f.cause(), f.message()));
        });
        out.sort((a, b) -> Integer.compare(b.runs().size(), a.runs().size()));
        return out;
    }

    /** Per run, the step-time verdict against the previous run (the regressions row of rule step_verdict). */
    private Map<String, String> stepVerdicts(String workload) {
        Map<String, String> out = new HashMap<>();
        if (!q.warehouse().exists(Tables.REGRESSIONS)) return out;
        for (Row r : q.forWorkload(Tables.REGRESSIONS, workload)
                .where(col("rule").equalTo(lit("step_verdict")))
                .select("run_id", "verdict")
                .collectAsList()) {
            out.put(r.getAs("run_id"), r.getAs("verdict"));
        }
        return out;
    }

    private Map<String, String> startTimes(List<String> runIds) {
        Map<String, String> out = new HashMap<>();
        if (runIds.isEmpty() || !q.warehouse().exists(Tables.RUNS)) return out;
        for (Row r : q.table(Tables.RUNS)
                .where(col("run_id").isin(runIds.toArray()))
                .select(
                        col("run_id"),
                        date_format(col("started_at"), "yyyy-MM-dd HH:mm:ss").as("started"))
                .collectAsList()) {
            out.put(r.getAs("run_id"), r.getAs("started"));
        }
        return out;
    }

    private List<RunHistory.Series> series(String workload, Dataset<Row> history, List<String> runIds) {
        Map<String, MetricCatalog.Entry> headlines = new LinkedHashMap<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) headlines.putIfAbsent(e.metric(), e);
        Map<String, Double[]> values = new LinkedHashMap<>();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < runIds.size(); i++) index.put(runIds.get(i), i);
        List<Row> rows = history.where(
                        col("run_id").isin(runIds.toArray()).and(col("value").isNotNull()))
                .select("run_id", "metric", "figure", "value")
                .collectAsList();
        for (Row r : rows) {
            MetricCatalog.Entry e = headlines.get(r.<String>getAs("metric"));
            if (e == null || !Objects.equals(e.figure(), r.getAs("figure"))) continue;
            values.computeIfAbsent(e.metric(), k -> new Double[runIds.size()])[index.get(r.<String>getAs("run_id"))] =
                    r.getAs("value");
        }
        Set<String> flagged = new HashSet<>();
        if (q.warehouse().exists(Tables.REGRESSIONS)) {
            for (Row r : q.forWorkload(Tables.REGRESSIONS, workload)
                    .where(col("key").isNull().and(expr(MOVED)))
                    .select("run_id", "metric", "figure")
                    .collectAsList()) {
                flagged.add(
                        r.<String>getAs("run_id") + "|" + r.<String>getAs("metric") + "|" + r.<String>getAs("figure"));
            }
        }
        List<RunHistory.Series> out = new ArrayList<>();
        for (MetricCatalog.Entry e : headlines.values()) {
            Double[] v = values.get(e.metric());
            if (v == null) continue;
            List<Boolean> marks = new ArrayList<>();
            for (String id : runIds) marks.add(flagged.contains(id + "|" + e.metric() + "|" + e.figure()));
            out.add(new RunHistory.Series(
                    e.metric(), e.figure(), e.unit(), e.label(), e.direction().word(), Arrays.asList(v), marks));
        }
        return out;
    }
}
