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
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add("match_key", StringType, false, "the all_to_all instance's match key (collectives.match_key)")
            .add("k", LongType, false, "the instance's number within its key (collectives.k)")
            .add(
                    "source",
                    StringType,
                    false,
                    "where the split sizes came from: kineto (In split size args) or et (execution-trace all_to_allv inputs)")
            .add("src_rank", IntegerType, false, "the rank that sent")
            .add(
                    "dst_rank",
                    IntegerType,
                    false,
                    "the rank it sent to (split j of rank i goes to the j-th rank of the group)")
            .add("bytes", LongType, true, "the bytes sent");
}
