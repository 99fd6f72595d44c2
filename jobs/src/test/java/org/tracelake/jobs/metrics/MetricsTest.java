package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.workload.Requirement;
import org.tracelake.schemas.MetricSchema;

/**
 * The families write their rows through handles they declare ({@code static final Metric X = Metric.of("x")} in the
 * family's file): every metric of the catalog that the traces can give has exactly one, found here in every class of
 * the metrics layer, and every handle is a catalog metric; a figure the catalog does not list exists only as one of
 * the few named unlisted figures.
 */
class MetricsTest {
    private static final Metric ITER_TIME = Metric.of("iter_time");

    /** The static handles (of {@code type}) of every class of {@code org.tracelake.jobs.metrics} and below. */
    private static List<Object> constants(Class<?> type) throws Exception {
        Path root = Path.of(
                Metric.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path metrics = root.resolve("org/tracelake/jobs/metrics");
        List<Path> classes;
        try (Stream<Path> s = Files.walk(metrics)) {
            classes = s.filter(f -> f.toString().endsWith(".class")).sorted().toList();
        }
        assertTrue(classes.size() > 50, "the metrics classes under " + metrics);
        List<Object> out = new ArrayList<>();
        for (Path c : classes) {
            String name = root.relativize(c).toString().replace('/', '.').replaceAll("\\.class$", "");
            for (Field f : Class.forName(name).getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == type) {
                    f.setAccessible(true);
                    out.add(f.get(null));
                }
            }
        }
        return out;
    }

    @Test
    void everyCatalogMetricHasOneHandleAndEveryHandleIsInTheCatalog() throws Exception {
        Set<String> handles = new TreeSet<>();
        for (Object m : constants(Metric.class)) {
            assertTrue(handles.add(((Metric) m).name()), "two handles of " + m);
        }
        Set<String> catalog = new TreeSet<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            // a metric no trace can give (a network simulator's) is only ever a gap row: no family writes it
            if (e.requires() != Requirement.SIMULATOR) catalog.add(e.metric());
        }
        assertEquals(catalog, handles);
    }

    @Test
    void unlistedFiguresAreNotInTheCatalog() throws Exception {
        Set<String> listed = new HashSet<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries()) listed.add(e.metric() + " " + e.figure());
        List<Object> unlisted = new ArrayList<>();
        for (Object o : constants(Figure.class))
            if (!listed.contains(((Figure) o).metric() + " " + ((Figure) o).figure())) unlisted.add(o);
        assertFalse(unlisted.isEmpty());
        for (Object o : unlisted) {
            Figure f = (Figure) o;
            assertTrue(listed.stream().anyMatch(k -> k.startsWith(f.metric() + " ")), f + ": no such metric");
        }
    }

    @Test
    void unitsComeFromTheCatalog() {
        assertEquals("ms", ITER_TIME.figure("avg_ms").unit());
        assertEquals(
                "bytes (requested sizes)",
                Metric.of("peak_allocated_bytes").figure(null).unit());
        assertEquals(
                "GiB/s",
                Metric.of("bandwidth_utilization_allreduce").figure(null).unit());
    }

    @Test
    void unknownMetricsAndFiguresFailLoudly() {
        assertThrows(IllegalStateException.class, () -> Metric.of("no_such_metric"));
        assertThrows(IllegalArgumentException.class, () -> ITER_TIME.figure("no_such_figure"));
        // iter_time has no figure-less workload row: a step's duration is the unlisted ITER_TIME_OF_STEP
        assertThrows(IllegalArgumentException.class, () -> ITER_TIME.at(0));
        assertThrows(IllegalStateException.class, () -> ITER_TIME.unlisted("avg_ms", "ms"));
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
                ITER_TIME.figure("avg_ms").at(3).value(1.5).in("w"));
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
                Metric.of("pipeline_bubble")
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
                Metric.of("coll_call_num").key("all_reduce").missing("none").in("w"));
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
                Metric.of("comm_bytes_total").workload().partial(2.0, "some").in("w"));
    }
}
