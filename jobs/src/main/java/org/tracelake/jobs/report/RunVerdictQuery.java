package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.metrics.verdict.ComparisonQuery;
import org.tracelake.jobs.metrics.verdict.KernelDeltas;
import org.tracelake.jobs.metrics.verdict.VerdictFunctions;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The verdict that opens {@code report --compare} (METRICS.md §4 "Run comparison verdicts"): the two runs' per-step
 * rows and kernels gathered as the nightly refresh gathers them ({@link ComparisonQuery}) and judged by the same
 * functions on the executors; one row comes back.
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
                side(metrics.where(col("workload").equalTo(lit(reference))), "a"),
                side(metrics.where(col("workload").equalTo(lit(candidate))), "b"),
                byCategory);
    }

    /** A workload against one of its earlier runs, from metrics_history (same workload: kernel names). */
    Comparison.Verdict againstRun(String workload, String runId) {
        if (!q.warehouse().exists(Tables.METRICS) || !q.warehouse().exists(Tables.METRICS_HISTORY)) return null;
        Dataset<Row> earlier = q.forWorkload(Tables.METRICS_HISTORY, workload)
                .where(col("run_id").equalTo(lit(runId)));
        return run(side(earlier, "a"), side(q.forWorkload(Tables.METRICS, workload), "b"), false);
    }

    private static Dataset<Row> side(Dataset<Row> rows, String side) {
        List<Column> cols = new ArrayList<>();
        cols.add(lit(side).as("side"));
        cols.add(lit("compare").as("workload"));
        for (String c : List.of("metric", "figure", "scope", "rank", "step", "key", "value")) cols.add(col(c));
        return rows.select(cols.toArray(Column[]::new));
    }

    private String deviceModel(String workload) {
        if (!q.warehouse().exists(Tables.WORKLOADS)) return null;
        List<Row> r =
                q.forWorkload(Tables.WORKLOADS, workload).select("xpu_model").collectAsList();
        return r.isEmpty() ? null : r.get(0).getString(0);
    }

    private Comparison.Verdict run(Dataset<Row> a, Dataset<Row> b, boolean byCategory) {
        SparkSession spark = a.sparkSession();
        VerdictFunctions.register(spark);
        a.unionByName(b).createOrReplaceTempView("_compare_both_runs");
        List<Row> rows = spark.sql("""
                        WITH both_runs AS (SELECT * FROM _compare_both_runs),
                        %s
                        SELECT %s AS c FROM compared w
                        %s
                        """.formatted(
                                ComparisonQuery.expressions(byCategory), ComparisonQuery.CALL, ComparisonQuery.JOINS))
                .collectAsList();
        if (rows.isEmpty()) return null;
        Row c = rows.get(0).getStruct(0);
        Map<String, Double> parts = new LinkedHashMap<>();
        for (String p : List.of("compute", "exposed_comm", "exposed_copy", "idle", "other")) {
            parts.put(p, dbl(c, p + "_delta_ms"));
        }
        List<KernelDeltas.Moved> kernels = new ArrayList<>();
        for (Row k : CollectionConverters.asJava(c.<scala.collection.Seq<Row>>getAs("kernels"))) {
            kernels.add(new KernelDeltas.Moved(k.getInt(0), k.getString(1), k.getDouble(2), k.getDouble(3)));
        }
        return new Comparison.Verdict(
                c.getAs("verdict"),
                dbl(c, "step_change"),
                dbl(c, "noise"),
                dbl(c, "delta_ms"),
                parts,
                kernels,
                byCategory);
    }

    private static Double dbl(Row r, String field) {
        int i = r.fieldIndex(field);
        return r.isNullAt(i) ? null : r.getDouble(i);
    }
}
