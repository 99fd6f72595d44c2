package org.tracelake.jobs.metrics;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.schemas.AllToAllPairSchema;
import org.tracelake.schemas.CollectiveMemberSchema;
import org.tracelake.schemas.CollectiveSchema;
import org.tracelake.schemas.EtNodeSchema;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.schemas.MetricSchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TelemetrySchema;

/**
 * Computes the tables of the metrics stage ({@code metrics}, {@code collectives}, {@code collective_members},
 * {@code collective_hangs}) of a set of workloads from their {@code events}, {@code workloads} and side-table rows
 * only (metrics never reread trace files). Interval arithmetic runs per (workload, rank) inside sorted partitions
 * ({@link RankSweepFunction}); everything else is the SQL in {@code resources/metrics/*.sql}, which a person can read
 * and rerun by hand.
 */
public final class MetricsJob {
    public static final String PIPELINE_VERSION = "0.1.0";

    /** Metric families, in the order their queries run. */
    static final List<String> METRIC_FILES = List.of(
            "communication.sql", "overlap.sql", "cross_rank.sql", "all_to_all.sql", "locality.sql", "steps.sql", "kernels.sql",
            "xla.sql", // xla.sql after communication.sql: it reads comm_fraction_per_step
            "memory.sql", "telemetry.sql", "hangs.sql"); // these read only the side tables below (hangs.sql: collective_hangs)

    private final SparkSession spark;
    /**
     * How to undo what compute() cached or registered (datasets it persisted, views the SQL files CACHE, the views of
     * the union's branches), newest first, for {@link #release()}.
     */
    private final Deque<Runnable> releases = new ArrayDeque<>();
    /** The views holding one metric query each, the branches of the computed metrics' union. */
    private final List<String> queryViews = new ArrayList<>();

    public MetricsJob(SparkSession spark) {
        this.spark = spark;
    }

    /**
     * Where the job's tables go: the run's staging area. What it writes there it reads back as plain Parquet tables,
     * so that later queries plan against a small leaf rather than re-deriving it from the events each time.
     */
    public interface StagedTables {
        /** Writes rows as the staged table (partitioned by workload), replacing it, or adding to what is there. */
        void write(String table, Dataset<Row> rows, boolean append);

        /** What this run staged of the table. */
        Dataset<Row> read(String table);
    }

    /**
     * Tables other than events and workloads that metric files read (memory.sql, telemetry.sql), with the schema
     * of the empty view registered when a run has none of them.
     */
    public static final Map<String, StructType> SIDE_TABLES = Map.of(
            Tables.MEMORY_EVENTS, MemorySchema.EVENTS,
            Tables.MEMORY_SEGMENTS, MemorySchema.SEGMENTS,
            Tables.ITERATION_TELEMETRY, TelemetrySchema.SCHEMA,
            Tables.FLIGHT_RECORDER, FlightRecorderSchema.ENTRIES, Tables.PROCESS_GROUP_STATUS, FlightRecorderSchema.GROUPS,
            Tables.ET_NODES, EtNodeSchema.SCHEMA); // all_to_all.sql: execution-trace all_to_allv splits

    /**
     * Computes the {@code collective_members}, {@code collectives}, {@code collective_hangs} and {@code metrics} tables
     * of the given events and writes them into {@code staged}; the side tables present for these workloads are given by
     * name (any not given is registered empty).
     */
    public void compute(Dataset<Row> events, Dataset<Row> workloads, Dataset<Row> devicePeaks,
                        Map<String, Dataset<Row>> sideTables, StagedTables staged) {
        SIDE_TABLES.forEach((name, schema) -> {
            Dataset<Row> t = sideTables.get(name);
            (t != null ? t : spark.createDataFrame(new ArrayList<Row>(), schema)).createOrReplaceTempView(name);
        });
        events.createOrReplaceTempView("events");
        workloads.createOrReplaceTempView("workloads");
        devicePeaks.createOrReplaceTempView("device_peak_flops");

        Dataset<Row> facts = spark.sql(SqlScripts.text("sweep_input.sql"))
                .repartition(col("workload"), col("rank"))
                .sortWithinPartitions("workload", "rank", "row_kind", "ts_ns", "end_ns")
                .mapPartitions(new RankSweepFunction(), Encoders.row(RankSweepFunction.OUTPUT))
                .persist(StorageLevel.MEMORY_AND_DISK());
        releases.push(facts::unpersist);
        facts.createOrReplaceTempView("rank_facts");
        runAll("views.sql");

        // collectives.sql defines collective_members, then queries it: the members are staged first, and the
        // instances are computed from the staged table, which the metric queries then read as `collectives`.
        Dataset<Row> instances = null;
        for (String statement : SqlScripts.statements("collectives.sql")) {
            if (!isQuery(statement)) {
                run(statement);
                continue;
            }
            stage(Tables.COLLECTIVE_MEMBERS, "collective_members", spark.table("collective_members"),
                    CollectiveMemberSchema.SCHEMA, staged);
            instances = spark.sql(statement);
        }
        if (instances == null) throw new IllegalStateException("collectives.sql has no query");
        stage(Tables.COLLECTIVES, "collectives", instances, CollectiveSchema.SCHEMA, staged);

        stage(Tables.COLLECTIVE_HANGS, "collective_hangs", lastQuery("collective_hangs.sql"), FlightRecorderSchema.HANGS, staged);

        // Every metric query becomes one branch of a single union, written by executors in one job, whatever the
        // number of queries or workloads; no metric row comes to the driver. Each query is a view of its own
        // (metric_query_N) so that the union is analysed once, as one SQL statement, rather than re-analysed at
        // every Dataset.union.
        for (String file : METRIC_FILES) {
            for (String statement : SqlScripts.statements(file)) {
                if (isQuery(statement)) {
                    String view = "metric_query_" + (queryViews.size() + 1);
                    spark.sql(conformed(statement)).createOrReplaceTempView(view);
                    queryViews.add(view);
                    releases.push(() -> spark.catalog().dropTempView(view));
                } else {
                    run(statement);
                }
            }
        }
        // all_to_all.sql defined the rank-pair volume of the all_to_all instances with split sizes.
        stage(Tables.ALL_TO_ALL_PAIRS, "all_to_all_pairs", spark.table("all_to_all_pairs"), AllToAllPairSchema.SCHEMA, staged);
        // One time for every row of this run, so that a workload's rows say when they were computed alike.
        java.sql.Timestamp computedAt = new java.sql.Timestamp(System.currentTimeMillis());
        // The union has a partition per partition of every branch (queries x shuffle partitions), and each of its
        // tasks deserialises the whole union's lineage: coalesced to one partition per core, that is paid a few times,
        // not hundreds.
        Dataset<Row> computed = spark.sql(unionOf(queryViews, spark.sparkContext().defaultParallelism()));
        staged.write(Tables.METRICS, stamped(computed, computedAt), false);

        // gaps.sql adds a row for every catalog metric a workload has no workload-scope row of; it reads the rows
        // just staged (computed_metrics), a Parquet table, not the union's plan.
        staged.read(Tables.METRICS).createOrReplaceTempView("computed_metrics");
        MetricCatalog.asDataFrame(spark).createOrReplaceTempView("metric_catalog");
        staged.write(Tables.METRICS, stamped(spark.sql(conformed(lastStatement("gaps.sql"))), computedAt), true);
    }

    /** Writes a view's rows as a staged table, then makes the view read the staged table. */
    private void stage(String table, String view, Dataset<Row> rows, StructType schema, StagedTables staged) {
        staged.write(table, castTo(rows, schema), false);
        staged.read(table).createOrReplaceTempView(view);
    }

    /**
     * Metric rows with the columns the job adds: when, and by which version of the pipeline. One projection: each
     * Dataset made over the union of every metric query is analysed again, whole (a second of the driver's time each).
     */
    private static Dataset<Row> stamped(Dataset<Row> rows, java.sql.Timestamp computedAt) {
        String[] names = MetricSchema.QUERY_SCHEMA.fieldNames();
        Column[] cols = new Column[names.length + 2];
        for (int i = 0; i < names.length; i++) cols[i] = col(names[i]);
        cols[names.length] = lit(computedAt).as("computed_at");
        cols[names.length + 1] = lit(PIPELINE_VERSION).as("pipeline_version");
        return rows.select(cols);
    }

    /**
     * {@code SELECT * FROM v1 UNION ALL SELECT * FROM v2 ...} over the given views (names of our own making), in
     * {@code partitions} partitions: the union has a partition per partition of every branch (queries × shuffle
     * partitions), and each of its tasks deserialises the whole union's lineage; coalesced to one partition per core,
     * that is paid a few times, not hundreds.
     */
    static String unionOf(List<String> views, int partitions) {
        StringBuilder sql = new StringBuilder();
        for (String view : views) {
            if (sql.length() > 0) sql.append("\nUNION ALL\n");
            sql.append("SELECT * FROM ").append(view);
        }
        return "SELECT /*+ COALESCE(" + partitions + ") */ * FROM (\n" + sql + "\n) AS metric_rows";
    }

    /** Runs a file's view definitions and returns its final query. */
    private Dataset<Row> lastQuery(String file) {
        return spark.sql(lastStatement(file));
    }

    /** Runs a file's view definitions and returns the text of its final query. */
    private String lastStatement(String file) {
        String query = null;
        for (String statement : SqlScripts.statements(file)) {
            if (isQuery(statement)) query = statement;
            else run(statement);
        }
        if (query == null) throw new IllegalStateException(file + " has no query");
        return query;
    }

    private void runAll(String file) {
        for (String statement : SqlScripts.statements(file)) run(statement);
    }

    /** A view definition or a CACHE TABLE, remembering what it cached. */
    private void run(String statement) {
        Matcher cache = CACHE_TABLE.matcher(statement.strip());
        if (cache.matches()) {
            String view = cache.group(1);
            releases.push(() -> spark.sql("UNCACHE TABLE IF EXISTS " + view));
        }
        // A view is registered from its analysed query rather than run as a CREATE VIEW command: a SQL temp view keeps
        // its text and is analysed again wherever it is referenced (views of views, in ~70 queries), and each command
        // is a SQL execution of its own. Same rows, ~9 % off the metrics phase on data/ (bench/NOTES.md).
        Matcher view = CREATE_VIEW.matcher(statement.strip());
        if (view.matches()) {
            spark.sql(view.group(2)).createOrReplaceTempView(view.group(1));
            return;
        }
        spark.sql(statement);
    }

    private static final Pattern CREATE_VIEW =
            Pattern.compile("(?is)CREATE\\s+OR\\s+REPLACE\\s+TEMP(?:ORARY)?\\s+VIEW\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+AS\\s+(.*)");

    private static final Pattern CACHE_TABLE = Pattern.compile("(?is)CACHE\\s+(?:LAZY\\s+)?TABLE\\s+([A-Za-z_][A-Za-z0-9_]*).*");

    /**
     * Frees what {@link #compute} cached (the per-rank facts, the views its SQL caches), once the
     * caller has written the output: a long-lived session (the tests', an interactive one) would otherwise keep every
     * run's caches until it ends.
     */
    public void release() {
        // Newest first: a cache made from an older one goes before it, because dropping a cache that a later one reads
        // makes Spark re-plan the later one (for the union of every metric query: many seconds).
        while (!releases.isEmpty()) releases.pop().run();
        queryViews.clear();
    }

    static boolean isQuery(String statement) {
        String s = statement.strip().toUpperCase(Locale.ROOT);
        return s.startsWith("SELECT") || s.startsWith("WITH") || s.startsWith("(");
    }

    /**
     * A metric query with its columns named by position (queries need not alias them: workload, metric, figure,
     * value, unit, scope, rank, step, key, status, reason) and cast to the metrics table's types, as one SQL statement:
     * renaming and casting with Dataset calls analysed the query, views and all, three times. A query with another
     * number of columns fails its analysis, saying how many aliases and columns there were.
     */
    static String conformed(String query) {
        StructType schema = MetricSchema.QUERY_SCHEMA;
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < schema.size(); i++) {
            if (i > 0) select.append(", ");
            String name = "`" + schema.fields()[i].name() + "`";
            select.append("CAST(").append(name).append(" AS ").append(schema.fields()[i].dataType().sql()).append(") AS ")
                    .append(name);
        }
        return select + "\nFROM (\n" + query + "\n) AS metric_query(`" + String.join("`, `", schema.fieldNames()) + "`)";
    }

    /** The schema's columns of the rows, by name, in the schema's order and cast to its types. */
    private static Dataset<Row> castTo(Dataset<Row> rows, StructType schema) {
        Column[] cols = new Column[schema.size()];
        for (int i = 0; i < cols.length; i++) {
            var field = schema.fields()[i];
            cols[i] = col(field.name()).cast(field.dataType()).as(field.name());
        }
        return rows.select(cols);
    }
}
