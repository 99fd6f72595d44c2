package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.StructType;

/**
 * The {@code all_to_all_pairs} table (METRICS.md §4 all_to_all_imbalance): for each all_to_all instance whose ranks
 * carry split sizes, the bytes each rank sent to each rank of the group (split j of rank i goes to the j-th rank of
 * the group), so the report draws the rank × rank matrix without re-deriving the rule. {@code source} says where the
 * splits came from: {@code kineto} (In split size args) or {@code et} (execution-trace all_to_allv inputs).
 */
public final class AllToAllPairSchema {
    private AllToAllPairSchema() {}

    public static final StructType SCHEMA = new StructType()
            .add("workload", StringType, false)
            .add("match_key", StringType, false)
            .add("k", LongType, false)
            .add("source", StringType, false)
            .add("src_rank", IntegerType, false)
            .add("dst_rank", IntegerType, false)
            .add("bytes", LongType, true);
}
