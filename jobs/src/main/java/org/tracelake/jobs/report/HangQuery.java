package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.report.ReportModel.Hang;
import org.tracelake.jobs.report.ReportModel.HangCell;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.Tables;

/**
 * The "Hang" part of a workload report, from NCCL Flight Recorder dumps: the {@code collective_hangs} rows (roots
 * first, then by creation time), the rank × group matrix of last enqueued / completed collective ids from
 * {@code process_group_status} (groups named as in {@code collective_hangs}: the pg_id their entries carry), and the
 * fault log a launcher left beside the dumps (kept by the reader in {@code trace_files.metadata}). All bounded:
 * a row per stuck collective, a cell per (rank, group), one log.
 */
final class HangQuery {
    /** At most this many groups in the matrix: the stuck ones first, then by name. */
    static final int GROUP_CAP = 48;

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;

    HangQuery(WarehouseTables tables) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
    }

    private Dataset<Row> of(String table, String workload) {
        return tables.live(table).where(col("workload").equalTo(lit(workload)));
    }

    Hang hang(String workload) {
        if (!warehouse.exists(Tables.PROCESS_GROUP_STATUS)
                || of(Tables.PROCESS_GROUP_STATUS, workload).limit(1).isEmpty()) {
            return new Hang(
                    "no NCCL Flight Recorder dump for this workload",
                    List.of(),
                    List.of(),
                    List.of(),
                    List.of(),
                    null,
                    null);
        }
        List<CollectiveHang> rows = new ArrayList<>();
        if (warehouse.exists(Tables.COLLECTIVE_HANGS)) {
            for (Row r : of(Tables.COLLECTIVE_HANGS, workload)
                    .orderBy(col("is_root").desc(), col("created_ns"), col("pg_name"), col("collective_seq_id"))
                    .collectAsList()) {
                rows.add(CollectiveHang.fromRow(r));
            }
        }
        of(Tables.PROCESS_GROUP_STATUS, workload).createOrReplaceTempView("_report_pg_status");
        Dataset<Row> entries = warehouse.exists(Tables.FLIGHT_RECORDER)
                ? of(Tables.FLIGHT_RECORDER, workload)
                : spark.createDataFrame(new ArrayList<Row>(), FlightRecorderSchema.ENTRIES);
        entries.createOrReplaceTempView("_report_fr");
        List<Row> cells = spark.sql("""
                WITH ids AS (SELECT pg_name, min(pg_id) AS pg_id FROM _report_fr
                             WHERE pg_name IS NOT NULL AND pg_id IS NOT NULL GROUP BY pg_name),
                     descs AS (SELECT pg_name, min(pg_desc) AS pg_desc FROM _report_pg_status
                               WHERE pg_name IS NOT NULL GROUP BY pg_name)
                SELECT s.rank, i.pg_name, d.pg_desc, s.last_enqueued_collective, s.last_completed_collective
                FROM _report_pg_status s
                JOIN ids i ON i.pg_id = s.pg_id
                LEFT JOIN descs d ON d.pg_name = i.pg_name
                WHERE s.rank IS NOT NULL AND s.last_enqueued_collective IS NOT NULL
                ORDER BY s.rank, i.pg_name""").collectAsList();
        TreeSet<String> stuck = new TreeSet<>();
        for (CollectiveHang r : rows) stuck.add(r.pgName());
        Map<String, String> labels = new LinkedHashMap<>();
        TreeSet<String> others = new TreeSet<>();
        Map<String, String> descOf = new LinkedHashMap<>();
        for (Row c : cells) {
            String group = c.getAs("pg_name");
            descOf.putIfAbsent(group, c.getAs("pg_desc"));
            if (!stuck.contains(group)) others.add(group);
        }
        List<String> groups = new ArrayList<>();
        for (String g : stuck) if (descOf.containsKey(g) && groups.size() < GROUP_CAP) groups.add(g);
        for (String g : others) if (groups.size() < GROUP_CAP) groups.add(g);
        for (String g : groups) labels.put(g, g + (descOf.get(g) == null ? "" : " " + descOf.get(g)));
        TreeSet<Integer> ranks = new TreeSet<>();
        List<HangCell> matrix = new ArrayList<>();
        for (Row c : cells) {
            if (!labels.containsKey(c.<String>getAs("pg_name"))) continue;
            ranks.add(c.getAs("rank"));
            matrix.add(new HangCell(
                    c.getAs("rank"),
                    c.getAs("pg_name"),
                    c.getAs("last_enqueued_collective"),
                    c.getAs("last_completed_collective")));
        }
        String logFile = null;
        String log = null;
        if (warehouse.exists(Tables.TRACE_FILES)) {
            List<Row> logs = of(Tables.TRACE_FILES, workload)
                    .where(col("format")
                            .equalTo(lit(TraceFormat.FLIGHT_RECORDER.id()))
                            .and(col("metadata").getItem("fault_log").isNotNull()))
                    .select(
                            col("metadata").getItem("fault_log_file").as("fault_log_file"),
                            col("metadata").getItem("fault_log").as("fault_log"))
                    .orderBy(col("path"))
                    .limit(1)
                    .collectAsList();
            if (!logs.isEmpty()) {
                logFile = logs.get(0).getAs("fault_log_file");
                log = logs.get(0).getAs("fault_log");
            }
        }
        String reason = rows.isEmpty()
                ? "Flight Recorder dumps present; no stuck collective: no member of any group is "
                        + "behind a collective another member holds"
                : null;
        return new Hang(
                reason,
                rows,
                new ArrayList<>(labels.values()),
                new ArrayList<>(ranks),
                matrixByLabel(matrix, labels),
                logFile,
                log);
    }

    /** Cells with the group's label (name and description) in place of its name. */
    private static List<HangCell> matrixByLabel(List<HangCell> cells, Map<String, String> labels) {
        List<HangCell> out = new ArrayList<>(cells.size());
        for (HangCell c : cells) out.add(new HangCell(c.rank(), labels.get(c.group()), c.enqueued(), c.completed()));
        return out;
    }
}
