package org.tracelake.jobs.metrics.engine;

import static org.apache.spark.sql.functions.col;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.rank.RankEvent;
import org.tracelake.jobs.metrics.workload.Card;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.metrics.workload.EtAllToAll;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.Tables;

/**
 * Computes the tables of the metrics stage ({@code metrics}, {@code collectives}, {@code collective_members},
 * {@code all_to_all_pairs}, {@code kernel_totals}, {@code collective_hangs}) of a set of workloads from their {@code events}, cards and
 * side tables (metrics never reread trace files), in one small Spark plan whatever the number of workloads:
 * <ol>
 * <li>each rank's events, sorted by time, pass once through plain Java ({@link org.tracelake.jobs.metrics.rank.RankAccumulator}),
 * which keeps a summary: as ingest reads each file ({@link RankSummaryFiles}), or here ({@link RankPass}) for a
 * workload whose files could not all be summarised there;</li>
 * <li>a workload's summaries, card, execution-trace all_to_all nodes and side-table rows meet in one task
 * ({@link WorkloadReducer}), where the metric families compute every row and the cross-rank join, and that task
 * writes the workload's staged partitions of the five tables ({@link PartitionFiles}).</li>
 * </ol>
 * The whole is one Spark job; a run with Flight Recorder dumps also returns the {@code collective_hangs} rows for its
 * caller to stage.
 */
public final class MetricEngine {
    public static final String PIPELINE_VERSION = "0.1.0";

    /** What the workload step returns per workload: how many rows it wrote. */
    static final StructType COUNTS = new StructType()
            .add("workload", DataTypes.StringType, false)
            .add("metric_rows", DataTypes.LongType, false)
            .add("collectives", DataTypes.LongType, false);

    /** What a computation left: its row counts, and the hang rows to stage (null without Flight Recorder dumps). */
    public record Result(int workloads, long metricRows, long collectives, Dataset<Row> hangs) {}

    /**
     * Computes the tables of the given workloads, writing the workload step's five tables through {@code files} (the
     * run's staging area). Each rank's summary comes from {@code summaries} (rows of {@link WorkloadInput#SCHEMA} that
     * ingest's per-rank pass left, {@link RankSummaryFiles}) or, for the workloads there, from a pass over
     * {@code events} here; either may be null. {@code sideTables} holds the side tables (memory snapshots, telemetry,
     * Flight Recorder dumps, execution-trace nodes) the run has, by name; a family whose inputs the run lacks is not
     * planned at all.
     */
    public Result compute(SparkSession spark, Dataset<Row> events, Dataset<Row> summaries, Dataset<Row> workloads,
                          Map<String, Dataset<Row>> sideTables, DevicePeakTable peaks, PartitionFiles files) {
        SideFamilies.Result side = SideFamilies.compute(spark, sideTables);
        Dataset<Row> etNodes = sideTables.get(Tables.ET_NODES);
        Dataset<Row> sideRows = side.metricRows();
        Dataset<Row> inputs = workloads.map((MapFunction<Row, Row>) r ->
                WorkloadInput.row(r.getAs("workload"), WorkloadInput.CARD, Card.of(r)), Encoders.row(WorkloadInput.SCHEMA));
        if (events != null) inputs = inputs.union(ranksOf(events));
        if (summaries != null) inputs = inputs.union(summaries);
        if (etNodes != null) {
            inputs = inputs.union(etNodes
                    .where(col("is_comm").and(col("collective").equalTo("all_to_all")).and(col("comm_seq").isNotNull())
                            .and(col("rank").isNotNull()))
                    .map((MapFunction<Row, Row>) r -> WorkloadInput.row(r.getAs("workload"), WorkloadInput.ET_ALL_TO_ALL,
                            EtAllToAll.of(r)), Encoders.row(WorkloadInput.SCHEMA)));
        }
        if (sideRows != null) {
            inputs = inputs.union(sideRows.map((MapFunction<Row, Row>) r ->
                    WorkloadInput.row(r.getString(0), WorkloadInput.SIDE_METRIC, MetricRow.fromRow(r)),
                    Encoders.row(WorkloadInput.SCHEMA)));
        }
        Timestamp computedAt = new Timestamp(System.currentTimeMillis());
        // one small row per workload comes back (its counts): the rows themselves stay on the executors
        List<Row> counts = inputs
                .groupByKey((MapFunction<Row, String>) r -> r.getString(0), Encoders.STRING())
                .flatMapGroups(new WorkloadReducer(peaks, files, computedAt), Encoders.row(COUNTS))
                .collectAsList();
        long metricRows = 0;
        long collectives = 0;
        for (Row r : counts) {
            metricRows += r.getLong(1);
            collectives += r.getLong(2);
        }
        return new Result(counts.size(), metricRows, collectives, side.hangs());
    }

    /** Each rank's summary from its events: the events sorted per rank, then one pass over each ({@link RankPass}). */
    private static Dataset<Row> ranksOf(Dataset<Row> events) {
        return RankEvent.input(events)
                .repartition(col(EventSchema.WORKLOAD), col(EventSchema.RANK))
                .sortWithinPartitions(EventSchema.WORKLOAD, EventSchema.RANK, "row_kind", EventSchema.TS_NS)
                .mapPartitions(new RankPass(), Encoders.row(WorkloadInput.SCHEMA));
    }

    /** The catalog table of side tables the families read, by name. */
    public static final List<String> SIDE_TABLES = List.of(Tables.MEMORY_EVENTS, Tables.MEMORY_SEGMENTS,
            Tables.ITERATION_TELEMETRY, Tables.FLIGHT_RECORDER, Tables.PROCESS_GROUP_STATUS, Tables.ET_NODES);
}
