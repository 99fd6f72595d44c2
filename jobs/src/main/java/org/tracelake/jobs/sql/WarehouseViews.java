package org.tracelake.jobs.sql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.warehouse.SparkCatalogs;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;

/**
 * Every warehouse table that exists as a view of the same name, plus {@code metric_reference} (the metric catalog:
 * what every metric and figure means, its unit and what it needs).
 *
 * <p>A table's view is SQL text that names the Iceberg table in its catalog ({@link SparkCatalogs#register}: {@code
 * tracelake.events}), not a DataFrame and not a folder: Spark analyses a view's text again at every query, the catalog
 * loads the table's current metadata (no cache), and the query is planned from it, reading only the files of the
 * snapshot, without listing a folder. So every query sees the latest refresh's commit, and a reader never waits for a
 * writer. A view, rather than making the catalog the session's current one, because the udfs and {@code
 * metric_reference} are the session catalog's, and every Spark Connect session of {@code serve} must find all three by
 * their plain names. {@link #refresh} adds the views of tables a refresh created since (the sql job calls it before a
 * statement, serve every 2 s; at most every 2 s either way).
 */
public final class WarehouseViews {
    /** The view of the metric catalog. */
    public static final String METRIC_REFERENCE = "metric_reference";

    /**
     * The archive-wide straggler view (METRICS.md §4 "Why"): one row per (workload, run) of metrics_history, with the
     * run's straggler, its node and the dominant cause of its lateness.
     */
    public static final String STRAGGLER_RUNS = "straggler_runs";

    /** Whose views they are. */
    public enum Scope {
        /** Temporary views of one session (the {@code sql} job). */
        SESSION,
        /**
         * Views in the session catalog, which every session of the application shares: {@code serve}'s Spark Connect
         * clients each get a session of their own, and see these.
         */
        SHARED
    }

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final Scope scope;
    private final Set<String> registered = new LinkedHashSet<>();
    private String catalog;
    private String asOfRun;

    public WarehouseViews(SparkSession spark, Warehouse warehouse, Scope scope) {
        this.spark = spark;
        this.warehouse = warehouse;
        this.scope = scope;
    }

    /**
     * Views of the warehouse as a run left it ({@code sql --as-of RUN}): each table at the snapshot that run (or the
     * one before it that last wrote the table) committed, so that the tables agree with each other as they did then;
     * a table the run did not have yet has no view.
     */
    public WarehouseViews asOf(String runId) {
        this.asOfRun = runId;
        return this;
    }

    /** Registers every table with no view yet (and the metric reference, once); returns the warehouse tables with a view. */
    public synchronized List<String> refresh() {
        if (!registered.contains(METRIC_REFERENCE)) {
            spark.sql(create(METRIC_REFERENCE) + metricReferenceQuery());
            registered.add(METRIC_REFERENCE);
        }
        if (catalog == null) catalog = SparkCatalogs.register(spark, warehouse);
        for (String table : Tables.ALL) {
            if (registered.contains(table) || !warehouse.exists(table)) continue;
            String version = "";
            if (asOfRun != null) {
                Long snapshot = warehouse.catalog().snapshotAsOf(table, asOfRun);
                if (snapshot == null) continue;
                version = " VERSION AS OF " + snapshot;
            }
            spark.sql(create(table) + "SELECT * FROM " + catalog + "." + quoted(table) + version);
            registered.add(table);
        }
        if (!registered.contains(STRAGGLER_RUNS)
                && registered.contains(Tables.METRICS_HISTORY)
                && registered.contains(Tables.WORKLOADS)) {
            spark.sql(create(STRAGGLER_RUNS) + STRAGGLER_RUNS_QUERY);
            registered.add(STRAGGLER_RUNS);
        }
        List<String> tables = new ArrayList<>(registered);
        tables.remove(METRIC_REFERENCE);
        tables.remove(STRAGGLER_RUNS);
        return tables;
    }

    /**
     * "Which rank, on which node, was the straggler in how many of the last N runs, and why" over the archive's history:
     * per (workload, run) that computed {@code straggler_lag}, {@code runs_back} (1 = the workload's latest run, 2 = the
     * one before, ...), the straggler's rank (null: no rank stood out), its node (rank ÷ the card's {@code
     * count_per_node}; null without it), the dominant cause of its late arrivals ({@code lateness_cause}'s key) and that
     * cause's share, and the median lag. Filter {@code runs_back <= N} and group by rank, node and cause.
     */
    static final String STRAGGLER_RUNS_QUERY = """
            WITH s AS (
              SELECT workload, run_id, CAST(value AS INT) AS straggler_rank FROM metrics_history
              WHERE metric = 'straggler_lag' AND figure = 'straggler_rank' AND scope = 'workload'),
            lag AS (
              SELECT workload, run_id, value AS p50_lag_us FROM metrics_history
              WHERE metric = 'straggler_lag' AND figure = 'p50_lag_us' AND scope = 'workload'),
            cause AS (
              SELECT workload, run_id, key AS cause, value AS cause_share FROM metrics_history
              WHERE metric = 'lateness_cause' AND figure IS NULL AND scope = 'workload' AND value IS NOT NULL)
            SELECT s.workload, s.run_id,
                   CAST(dense_rank() OVER (PARTITION BY s.workload ORDER BY s.run_id DESC) AS INT) AS runs_back,
                   s.straggler_rank,
                   CAST(floor(s.straggler_rank / nullif(w.count_per_node, 0)) AS INT) AS node,
                   cause.cause, cause.cause_share, lag.p50_lag_us
            FROM s
            LEFT JOIN lag ON lag.workload = s.workload AND lag.run_id = s.run_id
            LEFT JOIN cause ON cause.workload = s.workload AND cause.run_id = s.run_id
            LEFT JOIN workloads w ON w.workload = s.workload""";

    private String create(String name) {
        return "CREATE OR REPLACE " + (scope == Scope.SESSION ? "TEMPORARY " : "") + "VIEW " + quoted(name) + " AS ";
    }

    /**
     * The catalog as a VALUES list (a view of text, so a shared view needs no DataFrame): one row per (metric, figure),
     * with what its requirement asks of a workload in words, as docs/METRICS-REFERENCE.md shows it.
     */
    static String metricReferenceQuery() {
        StringBuilder sb = new StringBuilder("SELECT * FROM VALUES ");
        boolean first = true;
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            if (!first) sb.append(", ");
            first = false;
            sb.append('(')
                    .append(literal(e.metric()))
                    .append(", ")
                    .append(literal(e.figure()))
                    .append(", ")
                    .append(literal(e.unit()))
                    .append(", ")
                    .append(literal(e.direction().word()))
                    .append(", ")
                    .append(literal(e.category()))
                    .append(", ")
                    .append(literal(e.requires().needs()))
                    .append(", ")
                    .append(literal(e.label()))
                    .append(", ")
                    .append(literal(e.meaning()))
                    .append(')');
        }
        return sb.append(" AS t(metric, figure, unit, better, category, needs, label, description)")
                .toString();
    }

    /** A SQL string literal (or NULL), with quotes and backslashes escaped for Spark's parser. */
    static String literal(String s) {
        if (s == null) return "CAST(NULL AS STRING)";
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** A quoted identifier (a table name or a path): backticks doubled. */
    static String quoted(String s) {
        return "`" + s.replace("`", "``") + "`";
    }
}
