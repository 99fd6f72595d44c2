package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.tracelake.schemas.MetricSchema;

/**
 * The families write their rows through {@link Metrics}' handles: every metric of the catalog has one and every handle
 * is a catalog metric; a figure the catalog does not list exists only as one of the few named unlisted figures.
 */
class MetricsTest {
    private static List<Object> constants(Class<?> type) throws IllegalAccessException {
        List<Object> out = new ArrayList<>();
        for (Field f : Metrics.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == type) out.add(f.get(null));
        }
        return out;
    }

    @Test
    void everyCatalogMetricHasAHandleAndEveryHandleIsInTheCatalog() throws IllegalAccessException {
        Set<String> handles = new TreeSet<>();
        for (Object m : constants(Metric.class)) {
            assertTrue(handles.add(((Metric) m).name()), "two handles of " + m);
        }
        Set<String> catalog = new TreeSet<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) catalog.add(e.metric());
        assertEquals(catalog, handles);
    }

    @Test
    void unlistedFiguresAreNotInTheCatalog() throws IllegalAccessException {
        Set<String> listed = new HashSet<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) listed.add(e.metric() + " " + e.figure());
        List<Object> unlisted = constants(Figure.class);
        assertFalse(unlisted.isEmpty());
        for (Object o : unlisted) {
            Figure f = (Figure) o;
            assertFalse(listed.contains(f.metric() + " " + f.figure()), f + " is listed: use figure()");
            assertTrue(listed.stream().anyMatch(k -> k.startsWith(f.metric() + " ")), f + ": no such metric");
        }
    }

    @Test
    void unitsComeFromTheCatalog() {
        assertEquals("ms", Metrics.ITER_TIME.figure("avg_ms").unit());
        assertEquals(
                "bytes (requested sizes)",
                Metrics.PEAK_ALLOCATED_BYTES.figure(null).unit());
        assertEquals(
                "GiB/s", Metrics.BANDWIDTH_UTILIZATION_ALLREDUCE.figure(null).unit());
    }

    @Test
    void unknownMetricsAndFiguresFailLoudly() {
        assertThrows(IllegalStateException.class, () -> Metric.of("no_such_metric"));
        assertThrows(IllegalArgumentException.class, () -> Metrics.ITER_TIME.figure("no_such_figure"));
        // iter_time has no figure-less workload row: a step's duration is the unlisted ITER_TIME_OF_STEP
        assertThrows(IllegalArgumentException.class, () -> Metrics.ITER_TIME.at(0));
        assertThrows(IllegalStateException.class, () -> Metrics.ITER_TIME.unlisted("avg_ms", "ms"));
    }

    @Test
    void aReadingIsTheRowTheFamiliesWrote() {
        assertEquals(
                new MetricRow(
                        "w",
                        "iter_time",
                        "avg_ms",
                        1.5,
                        "ms",
                        MetricSchema.SCOPE_RANK,
                        3,
                        null,
                        null,
                        MetricSchema.STATUS_OK,
                        null),
                Metrics.ITER_TIME.figure("avg_ms").at(3).value(1.5).in("w"));
        assertEquals(
                new MetricRow(
                        "w",
                        "pipeline_bubble",
                        "bubble_ratio",
                        null,
                        "ratio",
                        MetricSchema.SCOPE_STEP,
                        0,
                        7L,
                        "gaps",
                        MetricSchema.STATUS_NOT_MEANINGFUL,
                        "why"),
                Metrics.PIPELINE_BUBBLE
                        .figure("bubble_ratio")
                        .step(0, 7)
                        .keyed("gaps")
                        .notMeaningful("why")
                        .in("w"));
        assertEquals(
                new MetricRow(
                        "w",
                        "coll_call_num",
                        null,
                        null,
                        "count",
                        MetricSchema.SCOPE_KEY,
                        null,
                        null,
                        "all_reduce",
                        MetricSchema.STATUS_MISSING_INPUT,
                        "none"),
                Metrics.COLL_CALL_NUM.key("all_reduce").missing("none").in("w"));
        assertEquals(
                new MetricRow(
                        "w",
                        "comm_bytes_total",
                        null,
                        2.0,
                        "bytes",
                        MetricSchema.SCOPE_WORKLOAD,
                        null,
                        null,
                        null,
                        MetricSchema.STATUS_PARTIAL,
                        "some"),
                Metrics.COMM_BYTES_TOTAL.workload().partial(2.0, "some").in("w"));
    }
}
