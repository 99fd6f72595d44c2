package org.tracelake.jobs.metrics.engine;

import static org.apache.spark.sql.functions.col;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.metrics.findings.FindingThresholds;
import org.tracelake.jobs.metrics.side.SideRows;
import org.tracelake.jobs.metrics.side.SideTable;
import org.tracelake.jobs.metrics.workload.Card;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.metrics.workload.EtAllToAll;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.Tables;

/**
 * Computes the tables of the metrics stage ({@code metrics}, {@code collectives}, {@code collective_members},
 * {@code all_to_all_pairs}, {@code kernel_totals}, {@code collective_hangs}, {@code findings}) of a set of workloads from their
 * {@code events}, cards and side tables (metrics never reread trace files), in one small Spark plan whatever the number
 * of workloads:
 * <ol>
 * <li>each rank's events, sorted by time, pass once through plain Java ({@link org.tracelake.jobs.rank.RankAccumulator}),
 * which keeps a summary: as ingest reads each file ({@link RankSummaryFiles}), or here ({@link RankPass}) for a
 * workload whose files could not all be summarised there;</li>
 * <li>a workload's summaries, card, execution-trace all_to_all nodes and side-table rows ({@link SideTableInputs}) meet
 * in one task ({@link WorkloadReducer}), where the metric families compute every row, the cross-rank join and the
 * stuck collectives, and that task writes the workload's staged partitions of the six tables
 * ({@link PartitionFiles}).</li>
 * </ol>
 * The whole is one Spark job (an RDD action over the inputs' plans: see {@link WorkloadInputs} for why), whatever side
 * tables the run has.
 */
public final class MetricEngine {
    /**
     * The engine that computed a row, in every {@code metrics} and {@code metrics_history} row: 0.1.0 was the Spark
     * SQL engine (a union of 84 metric queries, until issue 27), 0.2.0 is this one, plain-Java families in one job.
     * Bump it when a rewrite of the engine may change figures, so that history says which engine wrote a row.
     */
    public static final String PIPELINE_VERSION = "0.2.0";

    /** What a computation left: its row counts. */
    public record Result(int workloads, long metricRows, long collectives) {}

    /**
     * Computes the tables of the given workloads, writing the workload step's six tables through {@code files} (the
     * run's staging area). Each rank's summary comes from {@code summaries} (rows of {@link WorkloadInput#SCHEMA} that
     * ingest's per-rank pass left, {@link RankSummaryFiles}) or, for the workloads there, from a pass over
     * {@code events} here; either may be null. {@code sideTables} holds the side tables (memory snapshots, telemetry,
     * Flight Recorder dumps, execution-trace nodes) the run has, by name; a table the run lacks is not read at all.
     */
    public Result compute(
            SparkSession spark,
            Dataset<Row> events,
            Dataset<Row> summaries,
            Dataset<Row> workloads,
            Map<String, Dataset<Row>> sideTables,
            DevicePeakTable peaks,
            PartitionFiles files) {
        return compute(spark, events, summaries, workloads, sideTables, peaks, FindingThresholds.bundled(), files);
    }

    /** As above, with the findings rules' thresholds ({@code conf/findings.csv} or a site's copy). */
    public Result compute(
            SparkSession spark,
            Dataset<Row> events,
            Dataset<Row> summaries,
            Dataset<Row> workloads,
            Map<String, Dataset<Row>> sideTables,
            DevicePeakTable peaks,
            FindingThresholds thresholds,
            PartitionFiles files) {
        Dataset<Row> etNodes = sideTables.get(Tables.ET_NODES);
        JavaPairRDD<String, WorkloadInputs.Input> sideRows = SideTableInputs.of(sideTables);
        JavaPairRDD<String, WorkloadInputs.Input> inputs = WorkloadInputs.of(
                workloads, r -> WorkloadInputs.pair(r.getAs("workload"), WorkloadInput.CARD, Card.of(r)));
        if (events != null) inputs = inputs.union(ranksOf(events));
        if (summaries != null) inputs = inputs.union(WorkloadInputs.inSchema(summaries));
        if (etNodes != null) {
            inputs = inputs.union(WorkloadInputs.of(
                    etNodes.where(col("is_comm")
                            .and(col("collective").equalTo("all_to_all"))
                            .and(col("comm_seq").isNotNull())
                            .and(col("rank").isNotNull())),
                    r -> WorkloadInputs.pair(r.getAs("workload"), WorkloadInput.ET_ALL_TO_ALL, EtAllToAll.of(r))));
        }
        if (sideRows != null) inputs = inputs.union(sideRows);
        Timestamp computedAt = new Timestamp(System.currentTimeMillis());
        // one small pair of counts per workload comes back: the rows themselves stay on the executors
        List<long[]> counts = inputs.groupByKey()
                .map(new WorkloadReducer(peaks, files, computedAt, thresholds))
                .collect();
        long metricRows = 0;
        long collectives = 0;
        for (long[] c : counts) {
            metricRows += c[0];
            collectives += c[1];
        }
        return new Result(counts.size(), metricRows, collectives);
    }

    /** Each rank's summary from its events: the events sorted per rank, then one pass over each ({@link RankPass}). */
    private static JavaPairRDD<String, WorkloadInputs.Input> ranksOf(Dataset<Row> events) {
        return WorkloadInputs.ofPartitions(
                RankEvent.input(events)
                        .repartition(col(EventSchema.WORKLOAD), col(EventSchema.RANK))
                        .sortWithinPartitions(EventSchema.WORKLOAD, EventSchema.RANK, "row_kind", EventSchema.TS_NS),
                new RankPass());
    }

    /**
     * The tables beside {@code events} the engine reads, by name: the side families' ({@link SideRows#TABLES}) and the
     * execution traces' nodes (all_to_all split sizes).
     */
    public static final List<String> SIDE_TABLES = Stream.concat(
                    SideRows.TABLES.stream().map(SideTable::name), Stream.of(Tables.ET_NODES))
            .toList();
}
