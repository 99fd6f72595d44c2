package org.tracelake.jobs.metrics;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.schemas.FlightRecorderSchema;
import scala.collection.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One row of {@code collective_hangs} ({@link FlightRecorderSchema#HANGS}, METRICS.md §4 "Hangs"): a stuck collective,
 * a (process group, collective sequence id) that some member rank never enqueued while another holds it. The one
 * form of the row: the hang family writes it ({@code side/CollectiveHangs}), the hang finding rule and the report's
 * Hang part read it.
 */
public record CollectiveHang(
        String workload,
        String pgName,
        String pgDesc,
        Long pgId,
        long collectiveSeqId,
        String op,
        String inputSize,
        String dtype,
        Long createdNs,
        List<Integer> missingRanks,
        List<Integer> holdingRanks,
        boolean isRoot)
        implements Serializable {

    /** The same collective, marked the first stuck one in time of one of its missing ranks. */
    public CollectiveHang asRoot() {
        return new CollectiveHang(
                workload,
                pgName,
                pgDesc,
                pgId,
                collectiveSeqId,
                op,
                inputSize,
                dtype,
                createdNs,
                missingRanks,
                holdingRanks,
                true);
    }

    /** A row of {@link FlightRecorderSchema#HANGS}. */
    public Row toRow() {
        return RowFactory.create(
                workload,
                pgName,
                pgDesc,
                pgId,
                collectiveSeqId,
                op,
                inputSize,
                dtype,
                createdNs,
                seq(missingRanks),
                seq(holdingRanks),
                isRoot);
    }

    /** An array column's value as Spark's row encoder takes it. */
    private static Seq<Integer> seq(List<Integer> values) {
        return values == null ? null : CollectionConverters.asScala(values).toSeq();
    }

    /** From a row of the table, read by column name (a row with the table's columns, in any order). */
    public static CollectiveHang fromRow(Row r) {
        return new CollectiveHang(
                r.getAs("workload"),
                r.getAs("pg_name"),
                r.getAs("pg_desc"),
                r.getAs("pg_id"),
                r.<Long>getAs("collective_seq_id"),
                r.getAs("op"),
                r.getAs("input_size"),
                r.getAs("dtype"),
                r.getAs("created_ns"),
                r.isNullAt(r.fieldIndex("missing_ranks")) ? null : r.getList(r.fieldIndex("missing_ranks")),
                r.isNullAt(r.fieldIndex("holding_ranks")) ? null : r.getList(r.fieldIndex("holding_ranks")),
                r.<Boolean>getAs("is_root"));
    }
}
