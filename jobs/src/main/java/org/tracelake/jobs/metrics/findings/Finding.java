package org.tracelake.jobs.metrics.findings;

import java.io.Serializable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * One row of the {@code findings} table: a rule that fired for a workload (and a rank, for rules about one), how
 * severe, the value against its threshold, the cause where the rule has one, the metric rows that are its evidence
 * ({@code metric[/figure][ rank r][ step s][ key k]}, separated by {@code "; "}) and one sentence a person can act on.
 */
public record Finding(
        String workload,
        String rule,
        String severity,
        Integer rank,
        Double value,
        Double threshold,
        String unit,
        String cause,
        String evidence,
        String message)
        implements Serializable {

    /** The row in {@link org.tracelake.schemas.FindingSchema#SCHEMA}. */
    public Row toRow() {
        return RowFactory.create(workload, rule, severity, rank, value, threshold, unit, cause, evidence, message);
    }

    /** Severity order, most severe first: critical 0, warning 1, info 2. */
    public static int order(String severity) {
        return switch (severity) {
            case "critical" -> 0;
            case "warning" -> 1;
            default -> 2;
        };
    }
}
