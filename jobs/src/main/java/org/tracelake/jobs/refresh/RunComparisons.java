package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.col;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.tracelake.jobs.metrics.verdict.KernelDeltas;
import org.tracelake.jobs.metrics.verdict.RunPair;
import org.tracelake.jobs.metrics.verdict.RunRow;
import org.tracelake.jobs.metrics.verdict.RunVerdict;
import org.tracelake.jobs.metrics.verdict.StepComparison;
import org.tracelake.schemas.RunSchema;

/**
 * Each refreshed workload compared with its previous run (METRICS.md §4 "Run comparison verdicts"), on the executors:
 * this run's metric rows and the workloads' earlier runs' rows (metrics_history, which keeps every row of every run,
 * per-step rows and kernels included) meet in one shuffle by workload, and each workload's pair ({@link RunPair}) gives
 * its {@code regressions} and {@code regression_kernels} rows. Plain Java per workload rather than a SQL plan: the plan
 * of the same comparison was two dozen Spark jobs a night, each deserialising a wide plan in every task.
 */
final class RunComparisons {
    private final String runId;
    private final double threshold;

    RunComparisons(String runId, double threshold) {
        this.runId = runId;
        this.threshold = threshold;
    }

    /** One workload's rows of both tables (in {@code RunSchema.REGRESSIONS} and {@code REGRESSION_KERNELS}). */
    record WorkloadRows(List<Row> regressions, List<Row> kernels) implements Serializable {}

    /**
     * Per workload of {@code current} that has a previous run in {@code before}, its rows; nothing for the others.
     *
     * @param current this run's metric rows
     * @param before the earlier runs' rows of the same workloads (metrics_history: with {@code run_id})
     */
    JavaRDD<WorkloadRows> compare(Dataset<Row> current, Dataset<Row> before) {
        String run = runId;
        double limit = threshold;
        return RunRow.keyed(before, false, col("workload"))
                .union(RunRow.keyed(current, true, col("workload")))
                .groupByKey()
                .flatMap(w -> {
                    RunPair pair = RunPair.of(w._2());
                    return pair == null
                            ? java.util.Collections.emptyIterator()
                            : List.of(rows(run, limit, w._1(), pair)).iterator();
                });
    }

    /**
     * A workload's rows: one {@code step_verdict} row ({@code iter_time}/{@code avg_ms}, whatever its verdict), a
     * {@code threshold} row per other workload-scope figure that moved more than the threshold, with the verdict of
     * its per-step samples where the metric has them ({@code inconclusive} otherwise) and better/worse from the
     * figure's direction; and the kernels that moved most.
     */
    static WorkloadRows rows(String runId, double threshold, String workload, RunPair pair) {
        String previous = pair.referenceRunId();
        List<Row> regressions = new ArrayList<>();
        for (RunRow c : pair.candidateHeadlines()) {
            if (c.metric().equals("iter_time") && "avg_ms".equals(c.figure())) continue;
            Double p = pair.headline(false, c.metric(), c.figure(), c.key());
            if (p == null || !moved(p, c.value(), threshold)) continue;
            RunVerdict.Result v = pair.stepVerdict(c.metric(), c.figure(), c.key());
            String verdict = v == null
                    ? RunVerdict.INCONCLUSIVE
                    : v.verdict(org.tracelake.jobs.metrics.FigureReference.direction(c.metric(), c.figure()));
            regressions.add(regression(
                    runId,
                    workload,
                    c.metric(),
                    c.figure(),
                    c.key(),
                    previous,
                    p,
                    c.value(),
                    threshold,
                    "threshold",
                    verdict,
                    v == null ? null : v.noise(),
                    null,
                    null));
        }
        RunPair.Comparison cmp = pair.compare(false);
        StepComparison s = cmp.steps();
        KernelDeltas.Moved top = cmp.kernels().isEmpty() ? null : cmp.kernels().get(0);
        regressions.add(regression(
                runId,
                workload,
                "iter_time",
                "avg_ms",
                null,
                previous,
                pair.headline(false, "iter_time", "avg_ms", null),
                pair.headline(true, "iter_time", "avg_ms", null),
                threshold,
                "step_verdict",
                s.verdict(),
                s.result().noise(),
                s,
                top));
        List<Row> kernels = new ArrayList<>();
        for (KernelDeltas.Moved k : cmp.kernels()) {
            kernels.add(new GenericRowWithSchema(
                    new Object[] {
                        runId, workload, previous, k.position(), k.kernel(), k.previousMs(), k.ms(), k.deltaMs()
                    },
                    RunSchema.REGRESSION_KERNELS));
        }
        return new WorkloadRows(regressions, kernels);
    }

    /** The threshold rule: a value that left 0, or moved by more than the threshold of the previous value. */
    private static boolean moved(double previous, double value, double threshold) {
        return (previous == 0 && value != 0) || Math.abs(value - previous) > threshold * Math.abs(previous);
    }

    private static Row regression(
            String runId,
            String workload,
            String metric,
            String figure,
            String key,
            String previousRunId,
            Double previous,
            Double value,
            double threshold,
            String rule,
            String verdict,
            Double noise,
            StepComparison steps,
            KernelDeltas.Moved topKernel) {
        Double change = previous == null || value == null ? null : value - previous;
        Map<String, Double> parts = steps == null ? Map.of() : steps.parts();
        return new GenericRowWithSchema(
                new Object[] {
                    runId,
                    workload,
                    metric,
                    figure,
                    key,
                    previousRunId,
                    previous,
                    value,
                    change == null || previous == 0 ? null : change / Math.abs(previous),
                    threshold,
                    rule,
                    verdict,
                    noise,
                    RunPair.judge(metric, figure, change),
                    steps == null ? null : steps.result().change(),
                    steps == null ? null : steps.deltaMs(),
                    parts.get("compute"),
                    parts.get("exposed_comm"),
                    parts.get("exposed_copy"),
                    steps == null ? null : steps.idleDeltaMs(),
                    parts.get("other"),
                    topKernel == null ? null : topKernel.kernel(),
                    topKernel == null ? null : topKernel.deltaMs(),
                    parts.get("idle_host_wait"),
                    parts.get("idle_device_wait"),
                    parts.get("idle_other")
                },
                RunSchema.REGRESSIONS);
    }

    /**
     * The counts of a run's rows of both tables and its first {@code limit} regressions rows in {@link ShownOrder},
     * gathered in one pass over the workloads (a Spark aggregate: each task keeps a bounded list, the driver merges).
     */
    static final class Tally implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int limit;
        private long regressions;
        private long kernels;
        private final ArrayList<Row> shown = new ArrayList<>();

        Tally(int limit) {
            this.limit = limit;
        }

        long regressions() {
            return regressions;
        }

        long kernels() {
            return kernels;
        }

        List<Row> shown() {
            return List.copyOf(shown);
        }

        Tally add(WorkloadRows w) {
            regressions += w.regressions().size();
            kernels += w.kernels().size();
            keep(w.regressions());
            return this;
        }

        Tally merge(Tally other) {
            regressions += other.regressions;
            kernels += other.kernels;
            keep(other.shown);
            return this;
        }

        private void keep(List<Row> rows) {
            shown.addAll(rows);
            shown.sort(new ShownOrder());
            if (shown.size() > limit) shown.subList(limit, shown.size()).clear();
        }
    }

    /** The order of the rows a run summary shows: step verdicts first, then by workload, metric, figure and key. */
    static final class ShownOrder implements Comparator<Row>, Serializable {
        private static final long serialVersionUID = 1L;
        private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());

        @Override
        public int compare(Row x, Row y) {
            int c = Boolean.compare(isVerdict(y), isVerdict(x));
            if (c != 0) return c;
            for (String f : List.of("workload", "metric", "figure", "key")) {
                c = Objects.compare(x.<String>getAs(f), y.<String>getAs(f), NULLS_FIRST);
                if (c != 0) return c;
            }
            return 0;
        }

        private static boolean isVerdict(Row r) {
            return "step_verdict".equals(r.getAs("rule"));
        }
    }
}
