package org.tracelake.jobs.metrics;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * Computes metrics for a set of workloads whose events and cards sit in some location (the run's staging area,
 * or the live tables) and writes {@code metrics} and {@code collectives} into the run's staging area.
 */
public final class MetricsRun {
    /** Tables a metrics run stages for a workload. */
    public static final List<String> TABLES = TableCatalog.perWorkload(TableCatalog.Stage.METRICS);

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final String runId;

    public MetricsRun(SparkSession spark, Warehouse warehouse, String runId) {
        this.spark = spark;
        this.warehouse = warehouse;
        this.runId = runId;
    }

    /** Reads the given workloads' partitions of a table from a root holding {@code <table>/workload=<w>/}. */
    Dataset<Row> readPartitions(String tableRoot, List<String> workloads) {
        String[] paths = workloads.stream().map(w -> tableRoot + "/" + Warehouse.partitionDir(w)).toArray(String[]::new);
        return spark.read().option("basePath", tableRoot).parquet(paths);
    }

    /** Metrics for workloads staged by this run's ingest. */
    public void computeStaged(List<String> workloads) {
        if (workloads.isEmpty()) return;
        String stagingRoot = warehouse.staging(runId);
        compute(readPartitions(stagingRoot + "/" + Tables.EVENTS, workloads),
                readPartitions(stagingRoot + "/" + Tables.WORKLOADS, workloads), sideTables(stagingRoot, workloads));
    }

    /** Metrics for workloads already live (the {@code metrics} job alone). */
    public void computeLive(List<String> workloads) {
        if (workloads.isEmpty()) return;
        compute(readPartitions(warehouse.table(Tables.EVENTS), workloads),
                readPartitions(warehouse.table(Tables.WORKLOADS), workloads), sideTables(warehouse.root(), workloads));
    }

    /**
     * The memory and telemetry tables of the workloads that have them (most have neither: a table is read only
     * from the partitions that exist, and left out when none does).
     */
    private Map<String, Dataset<Row>> sideTables(String root, List<String> workloads) {
        Map<String, Dataset<Row>> out = new TreeMap<>();
        for (String table : MetricsJob.SIDE_TABLES.keySet()) {
            String tableRoot = root + "/" + table;
            List<String> present = new ArrayList<>();
            for (String w : workloads) {
                String path = tableRoot + "/" + Warehouse.partitionDir(w);
                try {
                    if (warehouse.fs().exists(new org.apache.hadoop.fs.Path(path))) present.add(w);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            if (!present.isEmpty()) out.put(table, readPartitions(tableRoot, present));
        }
        return out;
    }

    /**
     * Settings of the metrics phase, whose plan is one union of every metric query with a hundred or more shuffle
     * stages. Adaptive execution would re-optimise and re-explain that whole plan after each stage (measured: most of
     * the driver's time), so the plan is made once, up front. Joins shuffle rather than broadcast: a broadcast is a
     * job of its own that brings its rows to the driver, and some join sides here are metric rows. Shuffles have one
     * partition per core, not {@code spark.sql.shuffle.partitions}: each of the hundred exchanges carries aggregates,
     * and without adaptive execution nothing would coalesce their mostly empty partitions. Code generation is off
     * unless {@link Settings#METRICS_CODEGEN} is set: compiling a class per stage, on the driver and again in the
     * executors, took longer than running those stages interpreted (bench/NOTES.md, "codegen").
     */
    private Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.sql.adaptive.enabled", "false");
        settings.put("spark.sql.autoBroadcastJoinThreshold", "-1");
        settings.put("spark.sql.shuffle.partitions", Integer.toString(spark.sparkContext().defaultParallelism()));
        // lower() of the card's phase through ICU first builds ICU's case-mapping tables, once per executor JVM: 21 % of
        // the task threads' CPU samples of a data/ refresh (JFR). The JVM's own case mapping is the same on card text.
        settings.put("spark.sql.icu.caseMappings.enabled", "false");
        if (!Settings.of(spark).get(Settings.METRICS_CODEGEN)) {
            settings.put("spark.sql.codegen.wholeStage", "false");
            settings.put("spark.sql.codegen.factoryMode", "NO_CODEGEN"); // projections and predicates interpreted too
        }
        return settings;
    }

    private void compute(Dataset<Row> events, Dataset<Row> workloads, Map<String, Dataset<Row>> sideTables) {
        MetricsJob job = new MetricsJob(spark);
        SessionSettings.with(spark, settings(), () -> {
            try {
                spark.sparkContext().setJobDescription("metrics");
                job.compute(events, workloads, DevicePeaks.load(spark), sideTables, new Staging());
                return null;
            } finally {
                spark.sparkContext().setJobDescription(null);
                job.release();
            }
        });
    }

    /** The run's staging area, where the metrics job writes its tables, one {@code workload=} partition each. */
    private final class Staging implements MetricsJob.StagedTables {
        private final String root = warehouse.staging(runId);

        @Override
        public void write(String table, Dataset<Row> rows, boolean append) {
            spark.sparkContext().setJobDescription("metrics: " + table);
            try {
                rows.repartition(col("workload")).write().mode(append ? SaveMode.Append : SaveMode.Overwrite)
                        .partitionBy("workload").parquet(root + "/" + table);
            } finally {
                spark.sparkContext().setJobDescription("metrics");
            }
        }

        @Override
        public Dataset<Row> read(String table) {
            // the catalog's schema: the partition column stays a string, and a table with no rows still reads
            return spark.read().schema(TableCatalog.of(table).schema()).parquet(root + "/" + table);
        }
    }

    public void dropExport(String workload) throws IOException {
        warehouse.fs().delete(new org.apache.hadoop.fs.Path(warehouse.table(Tables.EXPORTS) + "/metrics/" + workload + ".json"), false);
    }

    /** The live metrics rows of some workloads. */
    public Dataset<Row> readLive(List<String> workloads) {
        return readPartitions(warehouse.table(Tables.METRICS), workloads);
    }

    /** After the swap: exports/metrics/<workload>.json from the live metrics of the workloads, written by executors. */
    public void export(List<String> workloads) {
        if (workloads.isEmpty()) return;
        spark.sparkContext().setJobDescription("metrics: export");
        try {
            MetricsExport.writeAll(readPartitions(warehouse.table(Tables.METRICS), workloads), warehouse.fs(),
                    warehouse.table(Tables.EXPORTS));
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
    }

    /**
     * The workload-scope rows of a few metrics of some workloads, for a summary a person reads (a handful of rows per
     * workload, at most {@code limit} in all).
     */
    public Map<String, List<Row>> workloadRows(List<String> workloads, List<String> metrics, int limit) {
        Map<String, List<Row>> byWorkload = new TreeMap<>();
        if (workloads.isEmpty() || metrics.isEmpty()) return byWorkload;
        List<Row> rows = readLive(workloads).where(col("scope").equalTo("workload").and(col("metric").isin(metrics.toArray())))
                .select("workload", "metric", "figure", "key", "scope", "value").limit(limit).collectAsList();
        for (Row r : rows) byWorkload.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r);
        return byWorkload;
    }
}
