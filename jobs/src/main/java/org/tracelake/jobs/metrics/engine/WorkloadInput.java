package org.tracelake.jobs.metrics.engine;

import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.rank.RankSummaryFiles;

/**
 * The rows that meet per workload in the workload step: one per rank (its summary), the workload's card, the
 * execution-trace all_to_all nodes, and chunks of its side tables' rows ({@link RowChunk}), each a Java value in a
 * blob.
 */
final class WorkloadInput {
    private WorkloadInput() {}

    static final String RANK = RankSummaryFiles.KIND;
    static final String CARD = "card";
    static final String ET_ALL_TO_ALL = "et_all_to_all";
    static final String SIDE_ROWS = "side_rows";

    /** The same columns as the rank summaries ingest leaves, which are inputs too. */
    static final StructType SCHEMA = RankSummaryFiles.SCHEMA;
}
