package org.tracelake.jobs.metrics;

import java.io.Serializable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.schemas.MetricSchema;

/**
 * One row of the {@code metrics} table as a metric kernel emits it (METRICS.md §5), before the job stamps it with
 * {@code computed_at} and {@code pipeline_version}. Fields are in {@link MetricSchema#QUERY_SCHEMA}'s order.
 */
public record MetricRow(
        String workload,
        String metric,
        String figure,
        Double value,
        String unit,
        String scope,
        Integer rank,
        Long step,
        String key,
        String status,
        String reason)
        implements Serializable {

    /** The same row with another status and reason. */
    public MetricRow withStatus(String newStatus, String newReason) {
        return new MetricRow(workload, metric, figure, value, unit, scope, rank, step, key, newStatus, newReason);
    }

    /** The same row with another value. */
    public MetricRow withValue(Double newValue) {
        return new MetricRow(workload, metric, figure, newValue, unit, scope, rank, step, key, status, reason);
    }

    /** As a Spark row of {@link MetricSchema#QUERY_SCHEMA}. */
    public Row toRow() {
        return RowFactory.create(workload, metric, figure, value, unit, scope, rank, step, key, status, reason);
    }

    /** From a Spark row of {@link MetricSchema#QUERY_SCHEMA} (tests, and families that read staged rows). */
    public static MetricRow fromRow(Row r) {
        return new MetricRow(
                r.getString(0),
                r.getString(1),
                r.getString(2),
                r.isNullAt(3) ? null : r.getDouble(3),
                r.getString(4),
                r.getString(5),
                r.isNullAt(6) ? null : r.getInt(6),
                r.isNullAt(7) ? null : r.getLong(7),
                r.getString(8),
                r.getString(9),
                r.getString(10));
    }
}
