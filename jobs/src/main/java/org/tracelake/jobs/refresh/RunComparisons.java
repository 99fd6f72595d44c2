package org.tracelake.jobs.refresh;

import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.struct;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.FigureReference;
import org.tracelake.jobs.metrics.verdict.ComparisonQuery;
import org.tracelake.jobs.metrics.verdict.VerdictFunctions;

/**
 * Each refreshed workload compared with its previous run (METRICS.md §4 "Run comparison verdicts"), as queries over
 * two views: {@code run_metrics} (this run's metric rows) and {@code metrics_history_before} (every earlier run's).
 * The previous run's per-step rows ({@code iter_time}, {@code comm_comp_overlap}, {@code pipeline_bubble} at step
 * scope) and its kernels ({@code kernel_step_time_ms}) are in metrics_history, which keeps every row of every run, so
 * nothing else needs keeping. Everything runs on the executors: the verdict functions see one workload's steps at a time.
 */
final class RunComparisons {
    private final SparkSession spark;
    private final String runId;
    private final double threshold;

    RunComparisons(SparkSession spark, String runId, double threshold) {
        this.spark = spark;
        this.runId = runId;
        this.threshold = threshold;
    }

    /** The figure reference's directions as the view {@code figure_directions} (a local table: no job). */
    private void registerDirections() {
        List<Row> rows = new ArrayList<>();
        for (FigureReference.Figure f : FigureReference.figures())
            rows.add(RowFactory.create(f.metric(), f.figure(), f.direction().word()));
        StructType schema = new StructType()
                .add("metric", DataTypes.StringType, false)
                .add("figure", DataTypes.StringType, true)
                .add("direction", DataTypes.StringType, false);
        spark.createDataFrame(rows, schema).createOrReplaceTempView("figure_directions");
    }

    /** The rows of both runs under one name, side 'a' (previous) and 'b' (this run). */
    private static final String BOTH = """
            previous_run AS (
              SELECT workload, max(run_id) AS run_id FROM metrics_history_before GROUP BY workload
            ),
            both_runs AS (
              SELECT 'b' AS side, workload, metric, figure, scope, rank, step, key, value FROM run_metrics
              UNION ALL
              SELECT 'a' AS side, h.workload, h.metric, h.figure, h.scope, h.rank, h.step, h.key, h.value
              FROM metrics_history_before h JOIN previous_run p ON h.workload = p.workload AND h.run_id = p.run_id
            )""";

    /**
     * One row per workload of this run that has a previous run: the workload, the previous run's id, and the
     * comparison struct ({@link VerdictFunctions#COMPARISON}) as {@code c}. Persist it: the regressions rows and the
     * regression_kernels rows are both read from it.
     */
    Dataset<Row> comparisons() {
        VerdictFunctions.register(spark);
        return spark.sql(
                """
                WITH %s,
                %s
                SELECT w.workload, p.run_id AS previous_run_id, %s AS c
                FROM compared w
                JOIN previous_run p ON p.workload = w.workload
                %s
                """.formatted(BOTH, ComparisonQuery.expressions(false), ComparisonQuery.CALL, ComparisonQuery.JOINS));
    }

    /**
     * The regressions rows (columns in {@code RunSchema.REGRESSIONS} order): one {@code step_verdict} row per compared
     * workload ({@code iter_time}/{@code avg_ms}, whatever its verdict), and a {@code threshold} row per other
     * workload-scope figure that moved more than the threshold, with the verdict of its per-step samples where the metric
     * has them ({@code inconclusive} otherwise) and better/worse from the figure's direction.
     *
     * @param comparisons the view name of {@link #comparisons()}
     */
    Dataset<Row> regressions(String comparisons) {
        registerDirections();
        return spark.sql("""
                WITH %s,
                headline AS (
                  SELECT side, workload, metric, figure, key, value FROM both_runs WHERE scope = 'workload'
                ),
                step_samples AS (
                  SELECT side, workload, metric, figure, key, collect_list(struct(rank, step, value)) AS samples
                  FROM both_runs
                  WHERE scope = 'step' AND rank IS NOT NULL AND step IS NOT NULL AND value IS NOT NULL
                  GROUP BY side, workload, metric, figure, key
                ),
                moved AS (
                  SELECT c.workload, c.metric, c.figure, c.key, pr.run_id AS previous_run_id,
                         p.value AS previous_value, c.value
                  FROM headline c
                  JOIN previous_run pr ON pr.workload = c.workload
                  JOIN headline p ON p.side = 'a' AND c.workload = p.workload AND c.metric = p.metric
                    AND c.figure <=> p.figure AND c.key <=> p.key
                  WHERE c.side = 'b' AND c.value IS NOT NULL AND p.value IS NOT NULL
                    AND NOT (c.metric = 'iter_time' AND c.figure = 'avg_ms')
                    AND (p.value = 0 AND c.value <> 0 OR abs(c.value - p.value) > %s * abs(p.value))
                ),
                threshold_rows AS (
                  SELECT m.*, d.direction AS figure_direction,
                         sa.samples IS NOT NULL AND sb.samples IS NOT NULL AS has_steps,
                         %s(sa.samples, sb.samples, d.direction) AS v
                  FROM moved m
                  LEFT JOIN figure_directions d ON d.metric = m.metric AND d.figure <=> m.figure
                  LEFT JOIN step_samples sa ON sa.side = 'a' AND sa.workload = m.workload AND sa.metric = m.metric
                    AND sa.figure <=> m.figure AND sa.key <=> m.key
                  LEFT JOIN step_samples sb ON sb.side = 'b' AND sb.workload = m.workload AND sb.metric = m.metric
                    AND sb.figure <=> m.figure AND sb.key <=> m.key
                ),
                verdict_rows AS (
                  SELECT v.workload, v.previous_run_id, v.c, a.value AS previous_value, b.value AS value
                  FROM %s v
                  LEFT JOIN headline a ON a.side = 'a' AND a.workload = v.workload AND a.metric = 'iter_time'
                    AND a.figure = 'avg_ms' AND a.key IS NULL
                  LEFT JOIN headline b ON b.side = 'b' AND b.workload = v.workload AND b.metric = 'iter_time'
                    AND b.figure = 'avg_ms' AND b.key IS NULL
                )
                SELECT '%s' AS run_id, workload, metric, figure, key, previous_run_id, previous_value, value,
                       (value - previous_value) / abs(previous_value) AS relative_change,
                       CAST(%s AS DOUBLE) AS threshold, 'threshold' AS rule,
                       -- a metric with per-step samples in both runs gets their verdict; one value per run cannot
                       CASE WHEN has_steps THEN v.verdict ELSE 'inconclusive' END AS verdict,
                       CASE WHEN has_steps THEN v.noise END AS noise,
                       %s AS direction,
                       CAST(NULL AS DOUBLE) AS step_change, CAST(NULL AS DOUBLE) AS delta_ms,
                       CAST(NULL AS DOUBLE) AS compute_delta_ms, CAST(NULL AS DOUBLE) AS exposed_comm_delta_ms,
                       CAST(NULL AS DOUBLE) AS exposed_copy_delta_ms, CAST(NULL AS DOUBLE) AS idle_delta_ms,
                       CAST(NULL AS DOUBLE) AS other_delta_ms, CAST(NULL AS STRING) AS top_kernel,
                       CAST(NULL AS DOUBLE) AS top_kernel_delta_ms
                FROM threshold_rows
                UNION ALL
                SELECT '%s', workload, 'iter_time', 'avg_ms', CAST(NULL AS STRING), previous_run_id, previous_value,
                       value, (value - previous_value) / abs(previous_value), CAST(%s AS DOUBLE), 'step_verdict',
                       c.verdict, c.noise, %s,
                       c.step_change, c.delta_ms, c.compute_delta_ms, c.exposed_comm_delta_ms,
                       c.exposed_copy_delta_ms, c.idle_delta_ms, c.other_delta_ms,
                       c.kernels[0].kernel, c.kernels[0].delta_ms
                FROM (SELECT *, 'lower' AS figure_direction FROM verdict_rows)
                """.formatted(
                        BOTH,
                        threshold,
                        VerdictFunctions.STEP_VERDICT_FN,
                        comparisons,
                        runId,
                        threshold,
                        JUDGE,
                        runId,
                        threshold,
                        JUDGE));
    }

    /** better/worse of a row's change in its figure's direction (FigureReference.Direction#judge). */
    private static final String JUDGE = VerdictFunctions.JUDGE_FN + "(figure_direction, value - previous_value)";

    /** The regression_kernels rows (columns in {@code RunSchema.REGRESSION_KERNELS} order) of the comparisons. */
    Dataset<Row> kernels(String comparisons) {
        return spark.sql("""
                SELECT '%s' AS run_id, workload, previous_run_id, k.position, k.kernel, k.previous_ms, k.ms, k.delta_ms
                FROM %s LATERAL VIEW explode(c.kernels) e AS k
                """.formatted(runId, comparisons));
    }

    /**
     * The regressions rows (struct {@code r}) and the regression_kernels rows (struct {@code k}) in one dataset, the
     * other struct null, so that one cached dataset feeds the count and both writes.
     */
    Dataset<Row> bothTables(String comparisons, StructType regressionsSchema, StructType kernelsSchema) {
        Dataset<Row> r = regressions(comparisons);
        Dataset<Row> k = kernels(comparisons);
        return r.select(
                        struct(columns(r)).as("r"),
                        lit(null).cast(nullable(kernelsSchema)).as("k"))
                .unionByName(k.select(
                        lit(null).cast(nullable(regressionsSchema)).as("r"),
                        struct(columns(k)).as("k")));
    }

    private static Column[] columns(Dataset<Row> d) {
        return java.util.Arrays.stream(d.columns()).map(functions::col).toArray(Column[]::new);
    }

    /** A schema's struct type with every field nullable (the cast of a null to it). */
    private static StructType nullable(StructType schema) {
        StructType out = new StructType();
        for (org.apache.spark.sql.types.StructField f : schema.fields()) out = out.add(f.name(), f.dataType(), true);
        return out;
    }
}
