package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * Issue 40's archive-wide answer: the {@code straggler_runs} view lines up each workload's straggler, node and cause
 * run by run from metrics_history. One generated workload of 4 ranks whose rank 3 arrives 300 µs late at every
 * collective, its card edited to 2 GPUs per node (so rank 3 is on node 3 ÷ 2 = 1), refreshed twice (the second time
 * after one of its files changed): two rows, the latest run at {@code runs_back} 1, both naming rank 3 on node 1 with
 * the cause each run's {@code lateness_cause} row gives; the cookbook's grouping counts 2 runs for it, 1 in the last 1.
 */
class StragglerRunsViewTest {
    @TempDir
    Path tmp;

    @Test
    void eachRunsStragglerNodeAndCause() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("late3", 4, 3, 3, 300);
        Path card = archive.workload("late3").resolve("late3.yaml");
        String yaml = Files.readString(card, StandardCharsets.UTF_8);
        assertTrue(yaml.contains("count_per_node: 4"), yaml);
        Files.writeString(card, yaml.replace("count_per_node: 4", "count_per_node: 2"), StandardCharsets.UTF_8);
        Refresh.Result first = archive.refresh(spark);
        assertTrue(first.allOk(), first.toString());
        Path trace = archive.generatedTrace("late3", 0, 3);
        Files.writeString(trace, Files.readString(trace, StandardCharsets.UTF_8) + "\n", StandardCharsets.UTF_8);
        Refresh.Result second = archive.refresh(spark);
        assertTrue(second.allOk(), second.toString());

        SparkSession own = spark.newSession();
        List<String> tables = new WarehouseViews(
                        own,
                        new Warehouse(
                                archive.warehouse.toString(),
                                spark.sparkContext().hadoopConfiguration()),
                        WarehouseViews.Scope.SESSION)
                .refresh();
        assertFalse(tables.contains(WarehouseViews.STRAGGLER_RUNS), "a view, not one of the warehouse's tables");
        List<Row> rows = own.sql("SELECT run_id, runs_back, straggler_rank, node, cause, cause_share, p50_lag_us"
                        + " FROM straggler_runs WHERE workload = 'late3' ORDER BY runs_back")
                .collectAsList();
        assertEquals(2, rows.size(), rows.toString());
        assertEquals(
                List.of(second.runId(), first.runId()),
                List.of(rows.get(0).getString(0), rows.get(1).getString(0)));
        for (int i = 0; i < 2; i++) {
            Row r = rows.get(i);
            assertEquals(i + 1, r.getInt(1));
            assertEquals(3, r.getInt(2), "rank 3 is late at every collective");
            assertEquals(1, r.getInt(3), "rank 3 ÷ 2 GPUs per node");
            Row cause = own.sql("SELECT key, value FROM metrics_history WHERE workload = 'late3' AND run_id = '"
                            + r.getString(0) + "' AND metric = 'lateness_cause' AND figure IS NULL"
                            + " AND scope = 'workload'")
                    .first();
            assertEquals(cause.getString(0), r.getString(4));
            assertEquals(cause.getDouble(1), r.getDouble(5), 0.0);
            assertTrue(r.getDouble(6) >= 250, "the median lag of a rank 300 µs late: " + r);
        }
        Row grouped = own.sql("SELECT straggler_rank, node, count(*) AS runs, count_if(runs_back <= 1) AS last_one"
                        + " FROM straggler_runs WHERE workload = 'late3' GROUP BY ALL")
                .first();
        assertEquals(2, grouped.getLong(2));
        assertEquals(1, grouped.getLong(3));
    }
}
