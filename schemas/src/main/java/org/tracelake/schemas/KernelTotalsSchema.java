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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("rank", IntegerType, true, "the rank; null for events that carry no rank")
            .add("name", StringType, true, "the kernel's name")
            .add("activity_class", StringType, false, "the activity class (METRICS.md §2)")
            .add("kernel_category", StringType, true, "the kernel category (METRICS.md §2)")
            .add("collective", StringType, true, "the collective kind, for communication")
            .add(
                    "size_bucket",
                    LongType,
                    true,
                    "the largest power of 2 not above the message size S, for communication")
            .add("calls", LongType, false, "how many activities (an XLA async collective's two halves are one)")
            .add("dur_ns", LongType, false, "their total duration, ns")
            .add("bytes", LongType, true, "their known bytes")
            .add(
                    "busbw_samples",
                    LongType,
                    false,
                    "how many are bus-bandwidth samples: known size, group of at least 2, duration above 0");
}
