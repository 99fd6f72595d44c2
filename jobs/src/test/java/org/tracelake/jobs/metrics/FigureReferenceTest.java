package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.FigureReference.Direction;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * Every figure has its own meaning and direction (issue 42 item 5): every catalog entry and every figure the engine
 * writes for the sample archive has a direction and a meaning in metrics/catalog.csv, and the directions the issue found wrong are right.
 */
class FigureReferenceTest {
    @Test
    void everyCatalogEntryHasItsOwnFigureRowWithTextsWhole() {
        assertEquals(MetricCatalog.entries().size(), FigureReference.figures().size());
        // a quoted text keeps its commas; the metric's description and the figure's meaning are separate columns
        MetricCatalog.Entry calls = MetricCatalog.of("coll_call_num");
        assertEquals("Communication kernels per rank, mean over ranks", calls.description());
        assertEquals(
                "Communication kernels per rank (mean over ranks): how much communication was launched, neither good"
                        + " nor bad in itself",
                FigureReference.of("coll_call_num", null).meaning());
    }

    @Test
    void csvFieldsFollowTheQuotingRules() {
        assertEquals(
                List.of("a", "", "b, c", "say \"x\"", ""),
                MetricResources.csvFields("a,,\"b, c\",\"say \"\"x\"\"\",", "t"));
        assertEquals(List.of("a\"b"), MetricResources.csvFields("a\"b", "t"));
        IllegalStateException open = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalStateException.class, () -> MetricResources.csvFields("a,\"b", "catalog.csv line 7"));
        assertEquals("catalog.csv line 7: a quoted field does not end", open.getMessage());
    }

    @Test
    void everyFigureTheEngineWritesHasAnEntry() {
        List<Row> rows = SharedSpark.get()
                .read()
                .format("iceberg")
                .load(SampleWarehouse.get().table("metrics"))
                .where("scope = 'workload'")
                .selectExpr("metric", "figure")
                .distinct()
                .collectAsList();
        for (Row r : rows) {
            assertNotNull(
                    FigureReference.of(r.getString(0), r.getString(1)),
                    r.getString(0) + "." + r.getString(1) + " has no row in metrics/catalog.csv");
        }
    }

    @Test
    void figuresSayWhatTheyAreAndWhichWayIsBetter() {
        // exposed communication: less is better (it was marked higher, as its metric's overlap ratio is)
        assertEquals(Direction.LOWER, FigureReference.direction("comm_comp_overlap", "exposed_comm_ms"));
        assertEquals(Direction.HIGHER, FigureReference.direction("comm_comp_overlap", "overlap_ratio_of_comm"));
        // identifiers and counts of things have no better side
        assertEquals(Direction.NONE, FigureReference.direction("straggler_lag", "straggler_rank"));
        assertEquals(Direction.NONE, FigureReference.direction("collective_wait", "most_waiting_rank"));
        assertEquals(Direction.NONE, FigureReference.direction("straggler_lag", "num_collectives"));
        // each figure its own meaning: the shortest step is not "Mean step duration"
        assertEquals(
                "Shortest step duration of any (rank, step)",
                FigureReference.of("iter_time", "min_ms").meaning());
        assertNotEquals(
                FigureReference.of("iter_time", "avg_ms").meaning(),
                FigureReference.of("iter_time", "max_ms").meaning());
        assertNull(FigureReference.of("no_such_metric", null));
        // better and worse follow the direction
        assertEquals("worse", Direction.LOWER.judge(+1.0));
        assertEquals("better", Direction.LOWER.judge(-1.0));
        assertEquals("better", Direction.HIGHER.judge(+1.0));
        assertNull(Direction.NONE.judge(+1.0));
    }

    @Test
    void theGeneratedReferenceUsesTheFigureRows() {
        String md = MetricReference.markdown();
        org.junit.jupiter.api.Assertions.assertTrue(
                md.contains("| `iter_time` | `min_ms` | ms | lower |")
                        && md.contains("Shortest step duration of any (rank, step)"),
                md);
        org.junit.jupiter.api.Assertions.assertTrue(
                md.contains("| `straggler_lag` | `straggler_rank` | rank | none |"), md);
    }
}
