package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.verdict.RunPair;
import org.tracelake.jobs.metrics.verdict.RunRow;
import org.tracelake.jobs.metrics.verdict.StepComparison;
import org.tracelake.schemas.Tables;

/**
 * The verdict that opens {@code report --compare} (METRICS.md §4 "Run comparison verdicts"): the two runs' per-step
 * rows and kernels gathered and judged as the nightly refresh gathers and judges them ({@link RunPair}), on the
 * executors; one comparison comes back.
 */
final class RunVerdictQuery {
    private final ReportQueries q;

    RunVerdictQuery(ReportQueries q) {
        this.q = q;
    }

    /** Two workloads of the warehouse: kernel categories when their cards name different device models. */
    Comparison.Verdict workloads(String reference, String candidate) {
        if (!q.warehouse().exists(Tables.METRICS)) return null;
        Dataset<Row> metrics = q.table(Tables.METRICS);
        boolean byCategory = !Objects.equals(deviceModel(reference), deviceModel(candidate));
        return run(
                metrics.where(col("workload").equalTo(lit(reference))),
                metrics.where(col("workload").equalTo(lit(candidate))),
                byCategory);
    }

    /** A workload against one of its earlier runs, from metrics_history (same workload: kernel names). */
    Comparison.Verdict againstRun(String workload, String runId) {
        if (!q.warehouse().exists(Tables.METRICS) || !q.warehouse().exists(Tables.METRICS_HISTORY)) return null;
        Dataset<Row> earlier = q.forWorkload(Tables.METRICS_HISTORY, workload)
                .where(col("run_id").equalTo(lit(runId)));
        return run(earlier, q.forWorkload(Tables.METRICS, workload), false);
    }

    private String deviceModel(String workload) {
        if (!q.warehouse().exists(Tables.WORKLOADS)) return null;
        List<Row> r =
                q.forWorkload(Tables.WORKLOADS, workload).select("xpu_model").collectAsList();
        return r.isEmpty() ? null : r.get(0).getAs("xpu_model");
    }

    /**
     * The pair compared on the executors ({@link RunPair}, as the nightly refresh compares a workload with its previous
     * run); only the comparison comes back.
     */
    private Comparison.Verdict run(Dataset<Row> a, Dataset<Row> b, boolean byCategory) {
        List<RunPair.Comparison> compared = RunRow.keyed(a, false, lit(PAIR))
                .union(RunRow.keyed(b, true, lit(PAIR)))
                .groupByKey()
                .flatMap(g -> {
                    RunPair pair = RunPair.of(g._2());
                    return pair == null
                            ? java.util.Collections.emptyIterator()
                            : List.of(pair.compare(byCategory)).iterator();
                })
                .collect();
        if (compared.isEmpty()) return null;
        StepComparison steps = compared.get(0).steps();
        return new Comparison.Verdict(
                steps.verdict(),
                steps.result().change(),
                steps.result().noise(),
                steps.deltaMs(),
                new LinkedHashMap<>(steps.parts()),
                compared.get(0).kernels(),
                byCategory);
    }

    /** The one group key of the two sides. */
    private static final String PAIR = "compare";
}
