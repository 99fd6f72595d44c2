package org.tracelake.jobs.metrics;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.metrics.engine.MetricEngine;
import org.tracelake.jobs.metrics.findings.FindingThresholds;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * The metrics phase of a refresh: computes the metric stage's tables for the workloads this run ingested (their
 * events, cards and side tables as staged) into the run's staging area; after the swap, writes their exports.
 */
public final class MetricsPhase {
    /** Tables a metrics run stages for a workload. */
    public static final List<String> TABLES = TableCatalog.perWorkload(TableCatalog.Stage.METRICS);

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;
    private final String runId;

    public MetricsPhase(WarehouseTables tables, String runId) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
        this.runId = runId;
    }

    /**
     * Metrics for workloads staged by this run's ingest. {@code summarised}: those of them whose rank summaries
     * ingest left ({@link RankSummaryFiles#cover}); the metrics read the others' events.
     */
    public void computeStaged(List<String> workloads, Set<String> summarised) {
        if (workloads.isEmpty()) return;
        List<String> fromEvents =
                workloads.stream().filter(w -> !summarised.contains(w)).toList();
        List<String> fromSummaries =
                workloads.stream().filter(summarised::contains).toList();
        Dataset<Row> events = fromEvents.isEmpty() ? null : tables.staged(runId, Tables.EVENTS, fromEvents);
        // none: no file of the run had events to summarise
        Dataset<Row> summaries = fromSummaries.isEmpty() ? null : RankSummaryFiles.read(tables, runId, fromSummaries);
        compute(events, summaries, tables.staged(runId, Tables.WORKLOADS, workloads), sideTables(workloads));
    }

    /**
     * The memory and telemetry tables of the workloads that have them (most have neither: a table is read only
     * from the partitions that exist, and left out when none does).
     */
    private Map<String, Dataset<Row>> sideTables(List<String> workloads) {
        Map<String, Dataset<Row>> out = new TreeMap<>();
        for (String table : MetricEngine.SIDE_TABLES) {
            List<String> present = tables.stagedWith(runId, table, workloads);
            if (!present.isEmpty()) out.put(table, tables.staged(runId, table, present));
        }
        return out;
    }

    /**
     * Settings of the metrics phase. Its plan is a handful of stages whose work is plain Java over rows: adaptive
     * execution and code generation would only add planning and compilation to it, so both are off, code generation
     * down to the projections and encoders ({@code spark.sql.codegen.factoryMode=NO_CODEGEN}: Spark's interpreted
     * forms, with no Janino compile per expression). Shuffles have one partition per core: the workload step holds a
     * few rows per rank.
     */
    private Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.sql.adaptive.enabled", "false");
        settings.put("spark.sql.autoBroadcastJoinThreshold", "-1");
        settings.put(
                "spark.sql.shuffle.partitions",
                Integer.toString(spark.sparkContext().defaultParallelism()));
        if (!Settings.of(spark).get(Settings.METRICS_CODEGEN)) {
            settings.put("spark.sql.codegen.wholeStage", "false");
            settings.put("spark.sql.codegen.factoryMode", "NO_CODEGEN");
        }
        return settings;
    }

    private void compute(
            Dataset<Row> events, Dataset<Row> summaries, Dataset<Row> workloads, Map<String, Dataset<Row>> sideTables) {
        SessionSettings.with(spark, settings(), () -> {
            try {
                spark.sparkContext().setJobDescription("metrics");
                MetricEngine.Result result = new MetricEngine()
                        .compute(
                                spark,
                                events,
                                summaries,
                                workloads,
                                sideTables,
                                DevicePeaks.table(spark),
                                FindingThresholds.load(Settings.of(spark).get(Settings.FINDINGS)),
                                PartitionFiles.forRun(warehouse, runId));
                Progress.info(String.format(
                        Locale.ROOT,
                        "metrics: %s and %s for %s",
                        Progress.count(result.metricRows(), "row"),
                        Progress.count(result.collectives(), "collective instance"),
                        Progress.count(result.workloads(), "workload")));
                return null;
            } finally {
                spark.sparkContext().setJobDescription(null);
            }
        });
    }

    public void dropExport(String workload) throws IOException {
        warehouse
                .fs()
                .delete(
                        MetricsExport.exportFile(
                                new Path(warehouse.table(Tables.EXPORTS), "metrics"), workload + ".json"),
                        false);
    }

    /** The live metrics rows of some workloads. */
    public Dataset<Row> readLive(List<String> workloads) {
        return tables.live(Tables.METRICS, workloads);
    }

    /** After the swap: exports/metrics/<workload>.json from the live metrics of the workloads, written by executors. */
    public void export(List<String> workloads) throws IOException {
        export(workloads, false);
    }

    /**
     * {@link #export(List)}; with {@code history}, the same job also writes the workloads' rows of {@code
     * metrics_history} (tagged with the run) to the run's folder of that table, for the history step to commit
     * ({@link WarehouseTables#appendStaged}); what an earlier attempt of the run left there is replaced.
     */
    public void export(List<String> workloads, boolean history) throws IOException {
        if (workloads.isEmpty()) return;
        PartitionFiles historyFiles = null;
        if (history) {
            warehouse.fs().delete(new Path(warehouse.stagedTable(runId, Tables.METRICS_HISTORY)), true);
            historyFiles = PartitionFiles.forRun(warehouse, runId);
        }
        PartitionFiles historyOut = historyFiles;
        spark.sparkContext().setJobDescription("metrics: export");
        try {
            // without adaptive execution the export's one shuffle is one job, not a job per stage
            SessionSettings.with(spark, Map.of("spark.sql.adaptive.enabled", "false"), () -> {
                MetricsExport.writeAll(
                        tables.live(Tables.METRICS, workloads),
                        warehouse.fs(),
                        warehouse.table(Tables.EXPORTS),
                        historyOut,
                        runId);
                return null;
            });
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
        List<Row> rows = readLive(workloads)
                .where(col("scope").equalTo("workload").and(col("metric").isin(metrics.toArray())))
                .select("workload", "metric", "figure", "key", "scope", "value")
                .coalesce(1)
                .limit(limit)
                .collectAsList();
        for (Row r : rows)
            byWorkload.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r);
        return byWorkload;
    }
}
