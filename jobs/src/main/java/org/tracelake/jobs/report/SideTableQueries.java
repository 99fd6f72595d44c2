package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.TelemetrySchema;

/**
 * What a workload page shows of the side tables that have no events: AORTA step telemetry ({@code
 * iteration_telemetry}) as per-step means, and the execution-trace nodes ({@code et_nodes}) counted. Small aggregates
 * only: one row per step (at most {@link #STEP_CAP}) and per collective kind reach the driver.
 */
final class SideTableQueries {
    /** Steps of telemetry drawn at most (the first ones). */
    static final int STEP_CAP = 2000;

    /** Node names listed at most in the execution-trace summary. */
    static final int TOP_NAMES = 10;

    /** The telemetry columns drawn, in ms, with their series names. */
    private static final String[][] TELEMETRY_MS = {
        {"total_ms", "total"},
        {"compute_ms", "compute stream"},
        {"allreduce_ms", "all-reduce stream"},
        {"reducescatter_ms", "reduce-scatter stream"},
        {"aux_ms", "aux stream"},
        {"idle_ms", "idle"},
    };

    private final SparkSession spark;
    private final ReportQueries queries;

    SideTableQueries(WarehouseTables tables, ReportQueries queries) {
        this.spark = tables.spark();
        this.queries = queries;
    }

    ReportModel.Telemetry telemetry(String workload, String table) {
        var rows = queries.forWorkload(table, workload);
        if (rows.columns().length == 0) return ReportModel.Telemetry.NONE;
        rows.where("row_kind = '" + TelemetrySchema.KIND_ITERATION + "'").createOrReplaceTempView("_report_telemetry");
        StringBuilder means = new StringBuilder();
        for (String[] c : TELEMETRY_MS)
            means.append(", avg(").append(c[0]).append(") AS ").append(c[0]);
        List<Row> steps = spark.sql("SELECT coalesce(global_step, step) AS s" + means
                        + " FROM _report_telemetry GROUP BY 1 ORDER BY 1 NULLS LAST LIMIT " + STEP_CAP)
                .collectAsList();
        if (steps.isEmpty()) return ReportModel.Telemetry.NONE;
        Row totals = spark.sql("SELECT count(*) AS n, count(DISTINCT rank) AS ranks FROM _report_telemetry")
                .first();
        List<Long> stepList = new ArrayList<>();
        LinkedHashMap<String, List<Double>> ms = new LinkedHashMap<>();
        for (int i = 0; i < TELEMETRY_MS.length; i++) {
            List<Double> values = new ArrayList<>();
            for (Row r : steps) values.add(finite(r.getAs(TELEMETRY_MS[i][0])));
            if (values.stream().anyMatch(v -> v != null)) ms.put(TELEMETRY_MS[i][1], values);
        }
        for (Row r : steps) stepList.add(r.getAs("s"));
        return new ReportModel.Telemetry(totals.getAs("n"), totals.getAs("ranks"), stepList, ms);
    }

    ReportModel.ExecutionTrace executionTrace(String workload, String table) {
        var rows = queries.forWorkload(table, workload);
        if (rows.columns().length == 0) return ReportModel.ExecutionTrace.NONE;
        rows.createOrReplaceTempView("_report_et");
        Row totals = spark.sql(
                        "SELECT count(*) AS n, count_if(is_comm) AS comm, count(DISTINCT rank) AS ranks FROM _report_et")
                .first();
        if (totals.<Long>getAs("n") == 0) return ReportModel.ExecutionTrace.NONE;
        List<ReportModel.EtCollective> collectives = new ArrayList<>();
        for (Row r : spark.sql("""
                SELECT coalesce(collective, 'unknown') AS collective, count(*) AS n, count(DISTINCT rank) AS ranks,
                       sum(in_bytes) AS in_bytes
                FROM _report_et WHERE is_comm GROUP BY 1 ORDER BY 1""").collectAsList()) {
            collectives.add(new ReportModel.EtCollective(
                    r.getAs("collective"), r.getAs("n"), r.getAs("ranks"), r.getAs("in_bytes")));
        }
        List<ReportModel.EtName> names = new ArrayList<>();
        for (Row r : spark.sql("SELECT coalesce(name, '') AS name, count(*) AS n FROM _report_et GROUP BY 1"
                        + " ORDER BY n DESC, 1"
                        + " LIMIT " + TOP_NAMES)
                .collectAsList()) {
            names.add(new ReportModel.EtName(r.getAs("name"), r.getAs("n")));
        }
        return new ReportModel.ExecutionTrace(
                totals.getAs("n"), totals.getAs("comm"), totals.getAs("ranks"), collectives, names);
    }

    /** A mean as JSON can carry it: NaN and infinities (a log's NaN loss, say) as null. */
    private static Double finite(Double v) {
        return v != null && Double.isFinite(v) ? v : null;
    }
}
