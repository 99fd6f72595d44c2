package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/**
 * The {@code kernel_totals} table, written by the metrics phase: per rank, its GPU activities grouped by kernel name,
 * activity class and kernel category, and communication also by collective kind and power-of-2 size bucket (METRICS.md
 * §2 bus size S): how many, their total duration, their known bytes, and how many are bus-bandwidth samples (known size,
 * group of at least 2, duration above 0). An XLA async collective's two halves are one call (one instance). Reports
 * and ad-hoc questions sum this table instead of re-classifying {@code events}; {@code rank} is null for events that
 * carry no rank.
 */
public final class KernelTotalsSchema {
    private KernelTotalsSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("name", StringType, true)
            .add("activity_class", StringType, false)
            .add("kernel_category", StringType, true)
            .add("collective", StringType, true)
            .add("size_bucket", LongType, true)
            .add("calls", LongType, false)
            .add("dur_ns", LongType, false)
            .add("bytes", LongType, true)
            .add("busbw_samples", LongType, false);
}
