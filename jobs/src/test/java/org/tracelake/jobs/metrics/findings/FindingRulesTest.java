package org.tracelake.jobs.metrics.findings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;

/** Each findings rule on hand-built metric rows, against the bundled thresholds (conf/findings.csv) unless said. */
class FindingRulesTest {
    private static final FindingThresholds BUNDLED = FindingThresholds.bundled();

    private static MetricRow w(String metric, String figure, Double value, String key) {
        return new MetricRow("w", metric, figure, value, "x", "workload", null, null, key, "ok", null);
    }

    private static MetricRow r(String metric, String figure, double value, int rank) {
        return new MetricRow("w", metric, figure, value, "x", "rank", rank, null, null, "ok", null);
    }

    private static MetricRow s(String metric, String figure, double value, int rank, long step) {
        return new MetricRow("w", metric, figure, value, "ms", "step", rank, step, null, "ok", null);
    }

    private static List<Finding> run(FindingThresholds t, List<CollectiveHang> hangs, MetricRow... rows) {
        return FindingRules.all("w", List.of(rows), hangs, t);
    }

    /** A stuck nccl:all_reduce of group "0" with only what the hang rule reads. */
    private static CollectiveHang hang(long seq, List<Integer> missingRanks, boolean isRoot) {
        return new CollectiveHang(
                "w", "0", null, null, seq, "nccl:all_reduce", null, null, null, missingRanks, null, isRoot);
    }

    /**
     * A straggler with a median lag of 60 µs reaches the warning level (50) but not critical (500); its dominant cause
     * (host, 75 % of its late arrivals) is the finding's cause and in its sentence.
     */
    @Test
    void stragglerWithItsCause() {
        List<Finding> f = run(
                BUNDLED,
                List.of(),
                w("straggler_lag", "p50_lag_us", 60.0, null),
                w("straggler_lag", "straggler_rank", 3.0, null),
                r("straggler_lag", "last_arrival_share", 0.5, 3),
                w("lateness_cause", null, 0.75, "host"));
        assertEquals(1, f.size(), f.toString());
        Finding s = f.get(0);
        assertEquals("straggler", s.rule());
        assertEquals("warning", s.severity());
        assertEquals(3, s.rank());
        assertEquals(60.0, s.value());
        assertEquals(50.0, s.threshold());
        assertEquals("host", s.cause());
        assertTrue(
                s.message()
                        .startsWith("Rank 3 is the straggler (last to start 50% of matched collectives, median lag"
                                + " 60 us), 75% of its late arrivals because its GPU waited for work"),
                s.message());
        assertTrue(s.evidence().contains("lateness_cause rank 3"), s.evidence());
        // 5 µs is below every level
        assertEquals(
                List.of(),
                run(
                        BUNDLED,
                        List.of(),
                        w("straggler_lag", "p50_lag_us", 5.0, null),
                        w("straggler_lag", "straggler_rank", 3.0, null)));
    }

    /** A device-caused straggler names the kernel that made it late. */
    @Test
    void deviceStragglerNamesItsKernel() {
        Finding s = run(
                        BUNDLED,
                        List.of(),
                        w("straggler_lag", "p50_lag_us", 600.0, null),
                        w("straggler_lag", "straggler_rank", 1.0, null),
                        w("lateness_cause", null, 1.0, "device"),
                        w("lateness_top_kernel", null, 120.0, "sm90_gemm"))
                .get(0);
        assertEquals("critical", s.severity()); // 600 ≥ 500
        assertTrue(s.message().contains("mostly sm90_gemm, 120 us extra"), s.message());
    }

    /** gpu_slowness max 1.25 ≥ 1.2: critical; 1.02 < 1.05: nothing. */
    @Test
    void slowGpu() {
        Finding f = run(BUNDLED, List.of(), w("gpu_slowness", "max", 1.25, null), w("gpu_slowness", "rank", 4.0, null))
                .get(0);
        assertEquals("slow_gpu", f.rule());
        assertEquals("critical", f.severity());
        assertEquals(4, f.rank());
        assertEquals(
                List.of(),
                run(BUNDLED, List.of(), w("gpu_slowness", "max", 1.02, null), w("gpu_slowness", "rank", 4.0, null)));
    }

    /** host_wait_share 0.6 ≥ 0.5 with idle at 20 % of step time fires; the same share at 5 % idle does not. */
    @Test
    void hostBoundIdle() {
        Finding f = run(
                        BUNDLED,
                        List.of(),
                        w("idle_breakdown", "host_wait_share", 0.6, null),
                        w("idle_breakdown", "idle_fraction", 0.2, null))
                .get(0);
        assertEquals("host_bound_idle", f.rule());
        assertEquals("host", f.cause());
        assertEquals(
                List.of(),
                run(
                        BUNDLED,
                        List.of(),
                        w("idle_breakdown", "host_wait_share", 0.6, null),
                        w("idle_breakdown", "idle_fraction", 0.05, null)));
    }

    /** Exposed communication: (3 + 1) ms of 2 × 10 ms steps = 20 % ≥ 20: warning. */
    @Test
    void exposedCommunication() {
        Finding f = run(
                        BUNDLED,
                        List.of(),
                        s("iter_time", null, 10, 0, 1),
                        s("iter_time", null, 10, 0, 2),
                        s("comm_comp_overlap", "exposed_comm_ms", 3, 0, 1),
                        s("comm_comp_overlap", "exposed_comm_ms", 1, 0, 2))
                .get(0);
        assertEquals("exposed_comm", f.rule());
        assertEquals(20.0, f.value(), 1e-12);
        assertEquals("warning", f.severity());
    }

    /** A root hang missing ranks 2 and 5: one critical finding per missing rank; a non-root row adds none. */
    @Test
    void hangs() {
        List<Finding> f = run(BUNDLED, List.of(hang(7, List.of(2, 5), true), hang(8, List.of(3), false)));
        assertEquals(2, f.size());
        assertEquals(2, f.get(0).rank());
        assertEquals(5, f.get(1).rank());
        assertEquals("critical", f.get(0).severity());
    }

    /** Fragmentation 0.4 ≥ 0.3: warning; SM coverage 30 % < 50: info; most severe first. */
    @Test
    void memoryAndSmCoverage() {
        List<Finding> f =
                run(BUNDLED, List.of(), w("mean_sm_coverage", null, 30.0, null), w("fragmentation", null, 0.4, null));
        List<String> rules = new ArrayList<>();
        for (Finding x : f) rules.add(x.rule() + ":" + x.severity());
        assertEquals(List.of("memory_fragmentation:warning", "low_sm_coverage:info"), rules);
    }

    /**
     * Peak allocation against device memory (conf/device_memory.csv by the card's model). An H100 has 80 GiB: a peak of
     * 75 GiB is 75 / 80 = 0.9375 of it, past the warning (0.9) but not the critical level (0.97); 78 GiB is 0.975,
     * critical; 60 GiB (0.75) is quiet. A bare "NVIDIA A100" (40 or 80 GB) has no size in the table: no finding, however
     * high the peak. The sizes come from the bundled table itself.
     */
    @Test
    void memoryPressureAgainstTheDevicesMemory() {
        org.tracelake.jobs.metrics.workload.DevicePeakTable table = bundledMemoryTable();
        double gib = 1024.0 * 1024 * 1024;
        assertEquals(80 * gib, table.memoryBytesFor("NVIDIA H100 80GB HBM3"));
        assertEquals(94 * gib, table.memoryBytesFor("NVIDIA H100 NVL"));
        assertEquals(80 * gib, table.memoryBytesFor("NVIDIA A100-SXM4-80GB"));
        assertEquals(40 * gib, table.memoryBytesFor("NVIDIA A100-PCIE-40GB"));
        assertEquals(192 * gib, table.memoryBytesFor("AMD Instinct MI300X"));
        assertEquals(null, table.memoryBytesFor("NVIDIA A100"));
        assertEquals(null, table.memoryBytesFor("NVIDIA V100"));

        FindingRules.Device h100 = new FindingRules.Device("NVIDIA H100", table.memoryBytesFor("NVIDIA H100"));
        List<Finding> f = FindingRules.all(
                "w", List.of(w("peak_allocated_bytes", null, 75 * gib, null)), List.of(), h100, BUNDLED);
        assertEquals(1, f.size(), f.toString());
        assertEquals("memory_pressure", f.get(0).rule());
        assertEquals("warning", f.get(0).severity());
        assertEquals(0.9375, f.get(0).value(), 1e-12);
        assertEquals(0.9, f.get(0).threshold());
        assertTrue(
                f.get(0).message().startsWith("peak allocation 75.0 GiB is 94% of the NVIDIA H100's 80 GiB"),
                f.get(0).message());
        assertEquals(
                "critical",
                FindingRules.all(
                                "w", List.of(w("peak_allocated_bytes", null, 78 * gib, null)), List.of(), h100, BUNDLED)
                        .get(0)
                        .severity());
        assertEquals(
                List.of(),
                FindingRules.all(
                        "w", List.of(w("peak_allocated_bytes", null, 60 * gib, null)), List.of(), h100, BUNDLED));
        FindingRules.Device a100 = new FindingRules.Device("NVIDIA A100", table.memoryBytesFor("NVIDIA A100"));
        assertEquals(
                List.of(),
                FindingRules.all(
                        "w", List.of(w("peak_allocated_bytes", null, 79 * gib, null)), List.of(), a100, BUNDLED));
    }

    /** The bundled conf/device_memory.csv, as the metric engine reads it. */
    private static org.tracelake.jobs.metrics.workload.DevicePeakTable bundledMemoryTable() {
        try (java.io.InputStream in = FindingRulesTest.class.getResourceAsStream("/conf/device_memory.csv")) {
            String csv = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            List<org.tracelake.jobs.metrics.workload.DevicePeakTable.Entry> entries = new ArrayList<>();
            for (org.apache.spark.sql.Row r : org.tracelake.jobs.metrics.DevicePeaks.parse(csv, 1024.0 * 1024 * 1024))
                entries.add(
                        new org.tracelake.jobs.metrics.workload.DevicePeakTable.Entry(r.getString(1), r.getDouble(2)));
            return new org.tracelake.jobs.metrics.workload.DevicePeakTable(List.of(), List.of(), entries);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A site's file moves the straggler's warning to 100 µs: a 60 µs lag is then only info. Bad lines are named. */
    @Test
    void aSiteOverridesThresholds() {
        FindingThresholds site = FindingThresholds.parse(
                "rule,severity,threshold,description\nstraggler,info,10,\nstraggler,warning,100,\n", "site.csv");
        Finding s = run(
                        site,
                        List.of(),
                        w("straggler_lag", "p50_lag_us", 60.0, null),
                        w("straggler_lag", "straggler_rank", 3.0, null))
                .get(0);
        assertEquals("info", s.severity());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> FindingThresholds.parse("straggler,urgent,5\n", "site.csv"));
        assertEquals(
                "site.csv line 1: severity 'urgent' is not info, warning or critical (see conf/findings.csv)",
                e.getMessage());
    }
}
