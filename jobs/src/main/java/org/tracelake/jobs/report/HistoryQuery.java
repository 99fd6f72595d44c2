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
import org.tracelake.jobs.metrics.FigureReference;
import org.tracelake.jobs.metrics.MetricCatalog;
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
            for (Row r : history.select("run_id").distinct().collectAsList()) withMetrics.add(r.getString(0));
            allRuns.addAll(withMetrics);
        }
        Map<String, List<String>> changes = new HashMap<>();
        if (q.warehouse().exists(Tables.WORKLOAD_CHANGES)) {
            for (Row r : q.forWorkload(Tables.WORKLOAD_CHANGES, workload)
                    .select("run_id", "change", "file")
                    .orderBy("run_id", "change", "file")
                    .collectAsList()) {
                changes.computeIfAbsent(r.getString(0), k -> new ArrayList<>())
                        .add(r.isNullAt(2) ? r.getString(1) : r.getString(1) + " " + r.getString(2));
                allRuns.add(r.getString(0));
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
                workload, runs, history == null ? List.of() : series(workload, history, shown), allRuns.size());
    }

    /** Per run, the step-time verdict against the previous run (the regressions row of rule step_verdict). */
    private Map<String, String> stepVerdicts(String workload) {
        Map<String, String> out = new HashMap<>();
        if (!q.warehouse().exists(Tables.REGRESSIONS)) return out;
        for (Row r : q.forWorkload(Tables.REGRESSIONS, workload)
                .where(col("rule").equalTo(lit("step_verdict")))
                .select("run_id", "verdict")
                .collectAsList()) {
            out.put(r.getString(0), r.getString(1));
        }
        return out;
    }

    private Map<String, String> startTimes(List<String> runIds) {
        Map<String, String> out = new HashMap<>();
        if (runIds.isEmpty() || !q.warehouse().exists(Tables.RUNS)) return out;
        for (Row r : q.table(Tables.RUNS)
                .where(col("run_id").isin(runIds.toArray()))
                .select(col("run_id"), date_format(col("started_at"), "yyyy-MM-dd HH:mm:ss"))
                .collectAsList()) {
            out.put(r.getString(0), r.getString(1));
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
            MetricCatalog.Entry e = headlines.get(r.getString(1));
            if (e == null || !Objects.equals(e.figure(), r.getString(2))) continue;
            values.computeIfAbsent(e.metric(), k -> new Double[runIds.size()])[index.get(r.getString(0))] =
                    r.getDouble(3);
        }
        Set<String> flagged = new HashSet<>();
        if (q.warehouse().exists(Tables.REGRESSIONS)) {
            for (Row r : q.forWorkload(Tables.REGRESSIONS, workload)
                    .where(col("key").isNull().and(expr(MOVED)))
                    .select("run_id", "metric", "figure")
                    .collectAsList()) {
                flagged.add(r.getString(0) + "|" + r.getString(1) + "|" + r.getString(2));
            }
        }
        List<RunHistory.Series> out = new ArrayList<>();
        for (MetricCatalog.Entry e : headlines.values()) {
            Double[] v = values.get(e.metric());
            if (v == null) continue;
            List<Boolean> marks = new ArrayList<>();
            for (String id : runIds) marks.add(flagged.contains(id + "|" + e.metric() + "|" + e.figure()));
            out.add(new RunHistory.Series(
                    e.metric(),
                    e.figure(),
                    e.unit(),
                    e.label(),
                    FigureReference.direction(e.metric(), e.figure()).word(),
                    Arrays.asList(v),
                    marks));
        }
        return out;
    }
}
