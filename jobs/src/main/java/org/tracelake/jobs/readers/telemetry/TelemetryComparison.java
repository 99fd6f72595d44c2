package org.tracelake.jobs.readers.telemetry;

import static org.apache.spark.sql.functions.col;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The comparison of AORTA's {@code overlap_report.py} (FORMATS.md §4) between two workloads, for
 * {@code report --compare}: each workload's pooled {@code overlap_ratio} (metric {@code telemetry_overlap}, figure
 * {@code overlap_ratio}, scope workload, from telemetry.sql) and {@code ratio_delta = candidate − reference}.
 * A workload without telemetry has a null ratio and a count of 0 (AORTA writes {@code {"count": 0}}); the delta
 * is then null rather than a guess.
 */
public final class TelemetryComparison {
    private TelemetryComparison() {}

    /** AORTA's {@code summary.json} "comparison" object, plus each side's iteration count. */
    public record Comparison(String reference, String candidate, Double referenceOverlapRatio,
                             Double candidateOverlapRatio, Double ratioDelta, long referenceCount, long candidateCount) {
        /** As AORTA writes it: {@code {"reference_overlap_ratio":…,"candidate_overlap_ratio":…,"ratio_delta":…}}. */
        public String toJson() {
            return "{\"reference_overlap_ratio\":" + num(referenceOverlapRatio) + ",\"candidate_overlap_ratio\":"
                    + num(candidateOverlapRatio) + ",\"ratio_delta\":" + num(ratioDelta) + "}";
        }

        private static String num(Double d) {
            return d == null || !Double.isFinite(d) ? "null" : Double.toString(d);
        }
    }

    /** candidate − reference; null when either side is unknown. */
    public static Double ratioDelta(Double reference, Double candidate) {
        return reference == null || candidate == null ? null : candidate - reference;
    }

    /**
     * @param metrics rows of the {@code metrics} table (live or staged; any number of workloads)
     */
    public static Comparison compare(Dataset<Row> metrics, String reference, String candidate) {
        List<Row> rows = metrics
                .where(col("metric").equalTo("telemetry_overlap").and(col("scope").equalTo("workload"))
                        .and(col("figure").isin("overlap_ratio", "iterations"))
                        .and(col("workload").isin(reference, candidate)).and(col("value").isNotNull()))
                .select("workload", "figure", "value").collectAsList();
        Double refRatio = null;
        Double candRatio = null;
        long refCount = 0;
        long candCount = 0;
        for (Row r : rows) {
            boolean ref = reference.equals(r.getString(0));
            boolean ratio = "overlap_ratio".equals(r.getString(1));
            double v = r.getDouble(2);
            if (ratio) {
                if (ref) refRatio = v;
                if (candidate.equals(r.getString(0))) candRatio = v;
            } else {
                if (ref) refCount = (long) v;
                if (candidate.equals(r.getString(0))) candCount = (long) v;
            }
        }
        return new Comparison(reference, candidate, refRatio, candRatio, ratioDelta(refRatio, candRatio), refCount, candCount);
    }
}
