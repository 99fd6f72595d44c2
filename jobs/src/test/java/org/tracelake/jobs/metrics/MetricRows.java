package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The metrics table of a test warehouse, collected once (a few hundred rows per workload), with lookups by the
 * table's key (workload, metric, figure, scope, rank, step, key) that fail loudly when a row is missing or doubled.
 */
final class MetricRows {
    /** Relative tolerance for doubles: a family's sums may differ from a worked-out value in the last digits. */
    static final double REL = 1e-9;

    private final List<Row> rows;
    /** Per workload, what its traces allow (from the warehouse's events table), or empty for rows given by hand. */
    private final java.util.Map<String, TraceBounds> bounds;

    /**
     * A workload's clock range (first event start to last event end, over every rank: no span can be longer) and the
     * (rank, stream) timelines its GPU activity ran on (no kernel time can exceed the range on each of them).
     */
    record TraceBounds(long rangeNs, long gpuTimelines) {}

    private MetricRows(List<Row> rows, java.util.Map<String, TraceBounds> bounds) {
        this.rows = rows;
        this.bounds = bounds;
    }

    private MetricRows(List<Row> rows) {
        this(rows, java.util.Map.of());
    }

    static MetricRows load(SparkSession spark, String metricsTable) {
        return new MetricRows(loadRows(spark, metricsTable), traceBounds(spark, metricsTable));
    }

    /** The bounds of every workload, from the events table beside the metrics table (none when there is none). */
    private static java.util.Map<String, TraceBounds> traceBounds(SparkSession spark, String metricsTable) {
        java.nio.file.Path events = java.nio.file.Path.of(metricsTable).resolveSibling("events");
        java.util.Map<String, TraceBounds> out = new java.util.HashMap<>();
        if (!java.nio.file.Files.isDirectory(events)) return out;
        for (Row r : spark.read()
                .format("iceberg")
                .load(events.toString())
                .where("ts_ns IS NOT NULL")
                .groupBy("workload")
                .agg(
                        org.apache.spark.sql.functions.expr(
                                "max(ts_ns + greatest(coalesce(dur_ns, 0), 0)) - min(ts_ns)"),
                        org.apache.spark.sql.functions.expr(
                                "count(DISTINCT CASE WHEN activity_class IS NOT NULL THEN concat_ws('/', rank, stream) END)"))
                .collectAsList()) {
            out.put(r.getString(0), new TraceBounds(r.getLong(1), r.getLong(2)));
        }
        return out;
    }

    private static List<Row> loadRows(SparkSession spark, String metricsTable) {
        return spark.read()
                .format("iceberg")
                .load(metricsTable)
                .selectExpr(
                        "workload",
                        "metric",
                        "figure",
                        "value",
                        "unit",
                        "scope",
                        "rank",
                        "step",
                        "key",
                        "status",
                        "reason")
                .collectAsList();
    }

    /** Rows already collected with load's columns, in its order. */
    static MetricRows of(List<Row> rows) {
        return new MetricRows(rows);
    }

    /** Every row of a metric in a workload. */
    List<Row> all(String workload, String metric) {
        return rows.stream()
                .filter(r -> workload.equals(r.getString(0)) && metric.equals(r.getString(1)))
                .collect(Collectors.toList());
    }

    /** The rows of a metric/figure at a scope (any rank, step, key). */
    List<Row> at(String workload, String metric, String figure, String scope) {
        return all(workload, metric).stream()
                .filter(r -> Objects.equals(figure, r.getString(2)) && scope.equals(r.getString(5)))
                .collect(Collectors.toList());
    }

    /** Exactly one row for the full key. */
    Row one(String workload, String metric, String figure, String scope, Integer rank, Long step, String key) {
        List<Row> hits = all(workload, metric).stream()
                .filter(r -> Objects.equals(figure, r.getString(2))
                        && scope.equals(r.getString(5))
                        && Objects.equals(rank, r.isNullAt(6) ? null : r.getInt(6))
                        && Objects.equals(step, r.isNullAt(7) ? null : r.getLong(7))
                        && Objects.equals(key, r.getString(8)))
                .collect(Collectors.toList());
        if (hits.size() != 1) {
            fail(hits.size() + " rows for " + describe(workload, metric, figure, scope, rank, step, key)
                    + "; rows of the metric: " + all(workload, metric));
        }
        return hits.get(0);
    }

    boolean has(String workload, String metric, String figure, String scope, Integer rank, Long step, String key) {
        return all(workload, metric).stream()
                .anyMatch(r -> Objects.equals(figure, r.getString(2))
                        && scope.equals(r.getString(5))
                        && Objects.equals(rank, r.isNullAt(6) ? null : r.getInt(6))
                        && Objects.equals(step, r.isNullAt(7) ? null : r.getLong(7))
                        && Objects.equals(key, r.getString(8)));
    }

    /** The value of an {@code ok} row, checked against the expected number. */
    void ok(
            double expected,
            String workload,
            String metric,
            String figure,
            String scope,
            Integer rank,
            Long step,
            String key) {
        Row r = one(workload, metric, figure, scope, rank, step, key);
        String what = describe(workload, metric, figure, scope, rank, step, key);
        assertEquals("ok", r.getString(9), () -> what + ": status (reason " + r.getString(10) + ")");
        assertNotNull(r.isNullAt(3) ? null : r.getDouble(3), () -> what + ": value");
        close(expected, r.getDouble(3), what);
    }

    /** Workload-scope shortcut. */
    void workload(double expected, String workload, String metric, String figure) {
        ok(expected, workload, metric, figure, "workload", null, null, null);
    }

    static void close(double expected, double actual, String what) {
        double tol = REL * Math.abs(expected) + 1e-15;
        if (Math.abs(expected - actual) > tol) {
            fail(what + ": expected " + expected + " but was " + actual + " (diff " + (actual - expected) + ")");
        }
    }

    /** A workload-scope row without a value: its status and a reason containing the given text. */
    void gap(String status, String reasonContains, String workload, String metric, String figure) {
        Row r = one(workload, metric, figure, "workload", null, null, null);
        String what = describe(workload, metric, figure, "workload", null, null, null);
        assertTrue(r.isNullAt(3), () -> what + ": value should be null, was " + r.get(3));
        assertEquals(status, r.getString(9), () -> what + ": status");
        assertNotNull(r.getString(10), () -> what + ": reason");
        assertTrue(r.getString(10).contains(reasonContains), () -> what + ": reason " + r.getString(10));
    }

    /**
     * METRICS.md §4/§5: no row anywhere is null with status ok. Every row with a null value, at every scope, must
     * say why: a status other than ok and a non-empty reason. Fails with every offending row listed.
     */
    void assertNoNullIsOk() {
        List<String> bad = rows.stream()
                .filter(r -> r.isNullAt(3)
                        && ("ok".equals(r.getString(9))
                                || r.getString(10) == null
                                || r.getString(10).isBlank()))
                .map(r -> describe(
                                r.getString(0),
                                r.getString(1),
                                r.getString(2),
                                r.getString(5),
                                r.isNullAt(6) ? null : r.getInt(6),
                                r.isNullAt(7) ? null : r.getLong(7),
                                r.getString(8))
                        + " status " + r.getString(9) + " reason " + r.getString(10))
                .distinct()
                .sorted()
                .collect(Collectors.toList());
        assertTrue(
                bad.isEmpty(),
                () -> bad.size() + " null rows without a non-ok status and a reason:\n" + String.join("\n", bad));
        assertTrue(rows.size() > 0, "no metric rows at all");
    }

    /**
     * Spans of time on one timeline (a step, the profile, a latency): none can be longer than the workload's clock
     * range (issue 46: a JAX folder read on two clocks had wall_time_s 1.8e9).
     */
    private static final java.util.Set<String> SPANS =
            java.util.Set.of("wall_time_s", "iter_time", "avg_step_time", "ttft", "tpot", "pipeline_bubble");
    /**
     * Time on the GPU's timelines, summed: never above the clock range times the (rank, stream) timelines (issue 46:
     * 276 s of kernel time in a 92 s window of 4 chips... each op counted twice).
     */
    private static final java.util.Set<String> GPU_TIME =
            java.util.Set.of("kernel_time_s", "total_compute_time_s", "total_comm_time_s", "comm_time_s");

    private static Double nanos(double v, String unit) {
        if (unit == null) return null;
        return switch (unit) {
            case "s", "s/step" -> v * 1e9;
            case "ms" -> v * 1e6;
            case "us" -> v * 1e3;
            case "ns" -> v;
            default -> null;
        };
    }

    /**
     * Ratios that are not shares of a whole: max ÷ min or max ÷ mean, 1 or more; gpu_slowness, a rank's time for
     * identical kernels over the typical rank's, around 1 either side.
     */
    private static final java.util.Set<String> RATIOS_ABOVE_ONE =
            java.util.Set.of("load_imbalance_ratio", "all_to_all_imbalance", "gpu_slowness");
    /** Percentages that may pass 100: Σ over overlapping CPU threads, and a card-driven estimate. */
    private static final java.util.Set<String> PERCENT_ABOVE_HUNDRED = java.util.Set.of("cpu_overhead", "mfu");
    /** Units of amounts that cannot be negative: durations, sizes, counts, bandwidths. */
    private static final java.util.Set<String> NON_NEGATIVE_UNITS = java.util.Set.of(
            "s", "ms", "us", "ns", "s/step", "bytes", "GB", "count", "GB/s", "GiB/s", "bytes/s", "tokens/s");
    /** Bandwidths over the interconnect (not average_memory_bandwidth, which is device memory). */
    private static final java.util.Set<String> LINK_BANDWIDTHS = java.util.Set.of(
            "busbw_gbps",
            "wait_free_busbw_gbps",
            "bandwidth_utilization_allgather",
            "bandwidth_utilization_allreduce",
            "bandwidth_utilization_reducescatter",
            "bandwidth_utilization_alltoall",
            "hockney_inverse_beta_Bps",
            "avg_comm_bandwidth_GBps");

    /**
     * Issue 32's scan: no row anywhere holds an impossible value. A value is NaN or infinite; a share (unit ratio, but
     * the imbalance ratios) outside [0, 1]; a percentage outside [0, 100]; a duration, size, count or bandwidth below
     * 0; a link bandwidth above the device's interconnect bound (conf/device_interconnect_bw.csv, by the card's device
     * model given here per workload) with status ok; or a null value with status ok. Fails with every offending row.
     */
    /** The same scan where every workload of the warehouse runs on one device model. */
    void assertNoImpossibleValues(String deviceModel) {
        java.util.Map<String, String> all = new java.util.HashMap<>();
        for (Row r : rows) all.put(r.getString(0), deviceModel);
        assertNoImpossibleValues(all);
    }

    void assertNoImpossibleValues(java.util.Map<String, String> deviceByWorkload) {
        java.util.Map<String, Double> boundBps = new java.util.HashMap<>();
        try (java.io.InputStream in = MetricRows.class.getResourceAsStream("/conf/device_interconnect_bw.csv")) {
            assertNotNull(in, "conf/device_interconnect_bw.csv on the class path");
            List<Row> table =
                    DevicePeaks.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8), 1e9);
            deviceByWorkload.forEach((w, model) -> {
                for (Row t : table) {
                    if (java.util.regex.Pattern.compile("(?i)" + t.getString(1))
                            .matcher(model)
                            .find()) {
                        boundBps.put(w, t.getDouble(2));
                        break;
                    }
                }
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> bad = new java.util.ArrayList<>();
        for (Row r : rows) {
            String metric = r.getString(1);
            String unit = r.getString(4);
            String status = r.getString(9);
            String what = describe(
                            r.getString(0),
                            metric,
                            r.getString(2),
                            r.getString(5),
                            r.isNullAt(6) ? null : r.getInt(6),
                            r.isNullAt(7) ? null : r.getLong(7),
                            r.getString(8))
                    + " status " + status;
            if (r.isNullAt(3)) {
                if ("ok".equals(status)) bad.add(what + ": null with status ok");
                continue;
            }
            double v = r.getDouble(3);
            if (Double.isNaN(v) || Double.isInfinite(v)) bad.add(what + ": " + v);
            else if ("ratio".equals(unit) && !RATIOS_ABOVE_ONE.contains(metric) && (v < 0 || v > 1)) {
                bad.add(what + ": share " + v + " outside [0, 1]");
            } else if ("%".equals(unit) && !PERCENT_ABOVE_HUNDRED.contains(metric) && (v < 0 || v > 100 + 1e-9)) {
                bad.add(what + ": percentage " + v + " outside [0, 100]");
            } else if (unit != null && NON_NEGATIVE_UNITS.contains(unit) && v < 0) {
                bad.add(what + ": negative " + unit + " " + v);
            }
            TraceBounds tb = bounds.get(r.getString(0));
            Double ns = nanos(v, unit);
            if (tb != null && ns != null && "ok".equals(status)) {
                // 1 ns of slack per figure: values are rounded to ns on the way
                if (SPANS.contains(metric) && ns > tb.rangeNs() + 1) {
                    bad.add(what + ": " + v + " " + unit + " longer than the traces' clock range of " + tb.rangeNs()
                            + " ns");
                } else if (GPU_TIME.contains(metric)
                        && tb.gpuTimelines() > 0
                        && ns > (double) tb.rangeNs() * tb.gpuTimelines() + 1) {
                    bad.add(what + ": " + v + " " + unit + " above the clock range (" + tb.rangeNs() + " ns) times the "
                            + tb.gpuTimelines() + " GPU timelines");
                }
            }
            Double bound = boundBps.get(r.getString(0));
            if (bound != null && "ok".equals(status) && LINK_BANDWIDTHS.contains(metric)) {
                double bps =
                        switch (unit) {
                            case "GB/s" -> v * 1e9;
                            case "GiB/s" -> v * 1073741824.0;
                            default -> v;
                        };
                if (bps > bound) bad.add(what + ": " + v + " " + unit + " above the device's " + bound / 1e9 + " GB/s");
            }
        }
        assertTrue(bad.isEmpty(), () -> bad.size() + " impossible values:\n" + String.join("\n", bad));
        assertTrue(rows.size() > 0, "no metric rows at all");
    }

    private static String describe(
            String workload, String metric, String figure, String scope, Integer rank, Long step, String key) {
        return workload + "/" + metric + (figure == null ? "" : "." + figure) + " [" + scope
                + (rank == null ? "" : " rank " + rank) + (step == null ? "" : " step " + step)
                + (key == null ? "" : " key " + key) + "]";
    }
}
