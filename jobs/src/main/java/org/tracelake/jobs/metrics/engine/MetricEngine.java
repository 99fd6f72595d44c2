package org.tracelake.jobs.metrics.engine;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.FilterFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.rank.RankEvent;
import org.tracelake.jobs.metrics.workload.Card;
import org.tracelake.jobs.metrics.workload.DevicePeakTable;
import org.tracelake.jobs.metrics.workload.EtAllToAll;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.MetricSchema;
import org.tracelake.schemas.Tables;

/**
 * Computes the tables of the metrics stage ({@code metrics}, {@code collectives}, {@code collective_members},
 * {@code all_to_all_pairs}, {@code collective_hangs}) of a set of workloads from their {@code events}, cards and
 * side tables (metrics never reread trace files), in one small Spark plan whatever the number of workloads:
 * <ol>
 * <li>each rank's events, sorted by time, pass once through plain Java ({@link RankPass}), which keeps a summary;</li>
 * <li>a workload's summaries, card, execution-trace all_to_all nodes and side-table rows meet in one task
 * ({@link WorkloadReducer}), where the metric families compute every row and the cross-rank join;</li>
 * <li>that output is kept, and each table is written from it.</li>
 * </ol>
 */
public final class MetricEngine {
    public static final String PIPELINE_VERSION = "0.1.0";


    /** Where the engine's tables go: the run's staging area. */
    public interface StagedTables {
        /** Writes rows as the staged table (partitioned by workload, rows of one workload in one partition). */
        void write(String table, Dataset<Row> rows);
    }

    /**
     * Computes the tables of the given events and writes them into {@code staged}. {@code sideTables} holds the side
     * tables (memory snapshots, telemetry, Flight Recorder dumps, execution-trace nodes) the run has, by name; a
     * family whose inputs the run lacks is not planned at all.
     */
    public void compute(SparkSession spark, Dataset<Row> events, Dataset<Row> workloads,
                        Map<String, Dataset<Row>> sideTables, DevicePeakTable peaks, StagedTables staged) {
        SideFamilies.Result side = SideFamilies.compute(spark, sideTables);
        Dataset<Row> etNodes = sideTables.get(Tables.ET_NODES);
        Dataset<Row> sideRows = side.metricRows();
        Dataset<Row> hangs = side.hangs();
        Dataset<Row> ranks = RankEvent.input(events)
                .repartition(col(EventSchema.WORKLOAD), col(EventSchema.RANK))
                .sortWithinPartitions(EventSchema.WORKLOAD, EventSchema.RANK, "row_kind", EventSchema.TS_NS)
                .mapPartitions(new RankPass(), Encoders.row(WorkloadInput.SCHEMA));
        Dataset<Row> inputs = ranks.union(workloads.map((MapFunction<Row, Row>) r ->
                WorkloadInput.row(r.getAs("workload"), WorkloadInput.CARD, Card.of(r)), Encoders.row(WorkloadInput.SCHEMA)));
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
        Dataset<Row> output = inputs
                .groupByKey((MapFunction<Row, String>) r -> r.getString(0), Encoders.STRING())
                .flatMapGroups(new WorkloadReducer(peaks), Encoders.row(WorkloadOutput.SCHEMA))
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            staged.write(Tables.COLLECTIVE_MEMBERS, table(output, WorkloadOutput.MEMBER));
            staged.write(Tables.COLLECTIVES, table(output, WorkloadOutput.INSTANCE));
            staged.write(Tables.ALL_TO_ALL_PAIRS, table(output, WorkloadOutput.PAIR));
            Timestamp computedAt = new Timestamp(System.currentTimeMillis());
            staged.write(Tables.METRICS, stamped(table(output, WorkloadOutput.METRIC),
                    computedAt));
            // no Flight Recorder dump in the run, no hangs: nothing staged is what an empty write would leave
            if (hangs != null) staged.write(Tables.COLLECTIVE_HANGS, hangs);
        } finally {
            output.unpersist();
        }
    }

    /** The rows of one table out of the workload step's output. */
    private static Dataset<Row> table(Dataset<Row> output, String tag) {
        return output.filter((FilterFunction<Row>) r -> tag.equals(r.getString(0))).select(col(tag + ".*"));
    }

    /** Metric rows with the columns the engine adds: when, and by which version of the pipeline. */
    private static Dataset<Row> stamped(Dataset<Row> rows, Timestamp computedAt) {
        String[] names = MetricSchema.QUERY_SCHEMA.fieldNames();
        List<Column> cols = new ArrayList<>();
        for (String n : names) cols.add(col(n));
        cols.add(lit(computedAt).as("computed_at"));
        cols.add(lit(PIPELINE_VERSION).as("pipeline_version"));
        return rows.select(cols.toArray(new Column[0]));
    }

    /** The catalog table of side tables the families read, by name. */
    public static final List<String> SIDE_TABLES = List.of(Tables.MEMORY_EVENTS, Tables.MEMORY_SEGMENTS,
            Tables.ITERATION_TELEMETRY, Tables.FLIGHT_RECORDER, Tables.PROCESS_GROUP_STATUS, Tables.ET_NODES);
}
