package org.tracelake.jobs.metrics.verdict;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.io.Serializable;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import scala.Tuple2;

/**
 * One metric row of a run as a comparison weighs it: from the reference side (an earlier run, or the reference
 * workload) or the candidate side, with the run that wrote it ({@code runId}, null for rows of the live metrics table).
 *
 * @param rank null unless the row is per rank
 * @param step null unless the row is per step
 */
public record RunRow(
        boolean candidate,
        String runId,
        String metric,
        String figure,
        String scope,
        Integer rank,
        Long step,
        String key,
        Double value)
        implements Serializable {

    /**
     * The rows of a metrics-shaped dataset (metrics or metrics_history) keyed by {@code group}, one side of a
     * comparison. Read from Spark's internal rows: no typed Dataset, so no generated (de)serializer to compile (see
     * WorkloadInputs in the metric engine).
     *
     * @param group the key rows are compared under: the workload, or a constant for two workloads compared as one pair
     */
    public static JavaPairRDD<String, RunRow> keyed(Dataset<Row> rows, boolean candidate, Column group) {
        Column runId = java.util.Arrays.asList(rows.columns()).contains("run_id")
                ? col("run_id")
                : lit(null).cast("string");
        return rows.select(
                        group.cast("string"),
                        runId,
                        col("metric"),
                        col("figure"),
                        col("scope"),
                        col("rank"),
                        col("step"),
                        col("key"),
                        col("value"))
                .queryExecution()
                .toRdd()
                .toJavaRDD()
                .mapToPair(r -> new Tuple2<>(
                        string(r, 0),
                        new RunRow(
                                candidate,
                                string(r, 1),
                                string(r, 2),
                                string(r, 3),
                                string(r, 4),
                                r.isNullAt(5) ? null : r.getInt(5),
                                r.isNullAt(6) ? null : r.getLong(6),
                                string(r, 7),
                                r.isNullAt(8) ? null : r.getDouble(8))));
    }

    private static String string(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getUTF8String(i).toString();
    }
}
