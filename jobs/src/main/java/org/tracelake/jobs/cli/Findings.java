package org.tracelake.jobs.cli;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.when;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/** The top findings of the refreshed workloads, as the run summary prints them under each workload's line. */
final class Findings {
    private Findings() {}

    /** Findings shown per workload, most severe first. */
    static final int PER_WORKLOAD = 3;

    /** The most severe findings of each workload (a few rows each), read from the live findings table. */
    static Map<String, List<Row>> top(WarehouseTables tables, List<String> workloads) {
        Map<String, List<Row>> out = new TreeMap<>();
        if (workloads.isEmpty() || !tables.warehouse().exists(Tables.FINDINGS)) return out;
        List<Row> rows = tables.live(Tables.FINDINGS)
                .where(col("workload").isin(workloads.toArray()))
                .orderBy(
                        col("workload"),
                        when(col("severity").equalTo("critical"), 0)
                                .when(col("severity").equalTo("warning"), 1)
                                .otherwise(2),
                        col("rule"),
                        col("rank"))
                .select("workload", "severity", "rule", "rank", "cause", "message")
                .limit(workloads.size() * 16)
                .collectAsList();
        for (Row r : rows) {
            List<Row> mine = out.computeIfAbsent(r.getAs("workload"), k -> new ArrayList<>());
            if (mine.size() < PER_WORKLOAD) mine.add(r);
        }
        return out;
    }

    /** One finding as a line: severity, rule, and the sentence to act on. */
    static String line(Row f) {
        return f.<String>getAs("severity") + " " + f.<String>getAs("rule") + ": " + f.<String>getAs("message");
    }
}
