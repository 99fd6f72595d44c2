package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * The metric catalog is the one place a metric's unit, label, direction and category live: every entry is complete,
 * and the metric families, which write each row's unit, agree with it on the sample archive's rows.
 */
class MetricCatalogTest {
    @Test
    void everyEntryIsComplete() {
        List<MetricCatalog.Entry> entries = MetricCatalog.entries();
        assertTrue(entries.size() > 100, "entries: " + entries.size());
        for (MetricCatalog.Entry e : entries) {
            assertFalse(
                    e.unit().isBlank() || e.label().isBlank() || e.description().isBlank(), e.toString());
            assertTrue(MetricCatalog.CATEGORIES.contains(e.category()), e.toString());
        }
        MetricCatalog.Entry busbw = MetricCatalog.of("busbw_gbps");
        assertEquals("GB/s", busbw.unit());
        assertTrue(busbw.higherIsBetter(), "more bus bandwidth is better");
        assertFalse(MetricCatalog.of("straggler_lag").higherIsBetter(), "less lag is better");
        assertEquals("communication", MetricCatalog.of("straggler_lag").category());
        assertEquals(null, MetricCatalog.of("no_such_metric"));
    }

    @Test
    void theSqlWritesTheCatalogsUnits() {
        SparkSession spark = SharedSpark.get();
        Map<String, String> units = new TreeMap<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) units.put(e.metric() + "." + e.figure(), e.unit());
        List<Row> rows = spark.read()
                .format("iceberg")
                .load(SampleWarehouse.get().table("metrics"))
                .where("scope = 'workload'")
                .selectExpr("metric", "figure", "unit")
                .distinct()
                .collectAsList();
        assertTrue(rows.size() > 100, "workload-scope (metric, figure, unit): " + rows.size());
        for (Row r : rows) {
            String key = r.getString(0) + "." + r.getString(1);
            assertNotNull(units.get(key), key + " is written by a family but not in metrics/catalog.csv");
            assertEquals(units.get(key), r.getString(2), key + ": the family's unit differs from the catalog's");
        }
    }

    @Test
    void noNullValueIsOkInTheSampleWarehouse() {
        // The generated sample archive: every null value, at every scope, says why (METRICS.md §5).
        MetricRows.load(SharedSpark.get(), SampleWarehouse.get().table("metrics"))
                .assertNoNullIsOk();
    }
}
