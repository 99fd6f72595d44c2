package org.tracelake.jobs.metrics.findings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.MetricSchema;

/**
 * The findings rules (METRICS.md §4 "Why"): each a pure function of one workload's metric rows (and its stuck
 * collectives) and the thresholds, giving the findings that fired. The rules read the rows the families wrote, never
 * events, so a finding's evidence is always a row a person can query.
 */
public final class FindingRules {
    private FindingRules() {}

    /**
     * The workload's device as the memory rule reads it: the card's model and its memory in bytes
     * (conf/device_memory.csv; null when the table names no single size for the model).
     */
    public record Device(String model, Double memoryBytes) {
        public static final Device UNKNOWN = new Device(null, null);
    }

    /** Every rule's findings for the workload, most severe first, without a device memory size to judge against. */
    public static List<Finding> all(
            String workload, List<MetricRow> rows, List<CollectiveHang> hangs, FindingThresholds t) {
        return all(workload, rows, hangs, Device.UNKNOWN, t);
    }

    /** Every rule's findings for the workload, most severe first. */
    public static List<Finding> all(
            String workload, List<MetricRow> rows, List<CollectiveHang> hangs, Device device, FindingThresholds t) {
        Rows r = new Rows(rows);
        List<Finding> out = new ArrayList<>();
        out.addAll(straggler(workload, r, t));
        out.addAll(slowGpu(workload, r, t));
        out.addAll(hostBoundIdle(workload, r, t));
        out.addAll(exposedComm(workload, r, t));
        out.addAll(hangs(workload, hangs, t));
        out.addAll(memoryFragmentation(workload, r, t));
        out.addAll(memoryPressure(workload, r, device, t));
        out.addAll(lowSmCoverage(workload, r, t));
        out.addAll(droppedKernels(workload, r, t));
        out.sort((a, b) -> Integer.compare(Finding.order(a.severity()), Finding.order(b.severity())));
        return out;
    }

    /** A workload's metric rows, looked up by what the rules ask. */
    public static final class Rows {
        private final Map<String, MetricRow> byId = new HashMap<>();
        private final List<MetricRow> all;

        public Rows(List<MetricRow> rows) {
            this.all = rows;
            for (MetricRow m : rows) byId.putIfAbsent(id(m.metric(), m.figure(), m.scope(), m.rank(), m.step()), m);
        }

        private static String id(String metric, String figure, String scope, Integer rank, Long step) {
            return metric + "\u0000" + figure + "\u0000" + scope + "\u0000" + rank + "\u0000" + step;
        }

        /** The workload-scope row of (metric, figure), or null. */
        MetricRow workload(String metric, String figure) {
            return byId.get(id(metric, figure, MetricSchema.SCOPE_WORKLOAD, null, null));
        }

        Double value(String metric, String figure) {
            MetricRow m = workload(metric, figure);
            return m == null ? null : m.value();
        }

        Double rankValue(String metric, String figure, int rank) {
            MetricRow m = byId.get(id(metric, figure, MetricSchema.SCOPE_RANK, rank, null));
            return m == null ? null : m.value();
        }

        List<MetricRow> steps(String metric, String figure) {
            List<MetricRow> out = new ArrayList<>();
            for (MetricRow m : all) {
                if (m.metric().equals(metric)
                        && Objects.equals(m.figure(), figure)
                        && MetricSchema.SCOPE_STEP.equals(m.scope())
                        && m.value() != null
                        && m.rank() != null
                        && m.key() == null) {
                    out.add(m);
                }
            }
            return out;
        }
    }

    private static String us(double v) {
        return String.format(Locale.ROOT, "%.0f us", v);
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    /**
     * A straggler whose typical lag (p50_lag_us) reaches the threshold, with the cause of its late arrivals
     * (lateness_cause) and, when its GPU had more work, the kernel that made it late (lateness_top_kernel).
     */
    static List<Finding> straggler(String workload, Rows r, FindingThresholds t) {
        Double p50 = r.value("straggler_lag", "p50_lag_us");
        Double rank = r.value("straggler_lag", "straggler_rank");
        if (p50 == null || rank == null) return List.of();
        FindingThresholds.Level level = t.reached("straggler", p50, false);
        if (level == null) return List.of();
        int s = rank.intValue();
        Double share = r.rankValue("straggler_lag", "last_arrival_share", s);
        MetricRow cause = r.workload("lateness_cause", null);
        String c = cause == null || cause.value() == null ? null : cause.key();
        MetricRow top = r.workload("lateness_top_kernel", null);
        StringBuilder msg = new StringBuilder();
        msg.append("Rank ")
                .append(s)
                .append(" is the straggler (last to start ")
                .append(share == null ? "most" : pct(share))
                .append(" of matched collectives, median lag ")
                .append(us(p50))
                .append(")");
        StringBuilder evidence = new StringBuilder(
                "straggler_lag/p50_lag_us; straggler_lag/last_arrival_share rank " + s + "; lateness_cause rank " + s);
        if (c == null)
            msg.append(": no late arrival of at least 10 us to explain; look at collective_members where rank = ")
                    .append(s)
                    .append(".");
        else {
            msg.append(", ").append(pct(cause.value())).append(" of its late arrivals because ");
            switch (c) {
                case "device" -> {
                    msg.append("its GPU had more work before the collective");
                    if (top != null && top.value() != null) {
                        msg.append(" (mostly ")
                                .append(top.key())
                                .append(", ")
                                .append(us(top.value()))
                                .append(" extra)");
                        evidence.append("; lateness_top_kernel key ").append(top.key());
                    }
                    msg.append(": compare its kernels with the other ranks' (gpu_slowness) or rebalance its work.");
                }
                case "host" ->
                    msg.append("its GPU waited for work its host had not launched yet: look at rank ")
                            .append(s)
                            .append(
                                    "'s CPU side before its collectives (data loading, Python overhead, CPU contention).");
                case "upstream" ->
                    msg.append("it came late out of an earlier collective: follow collective_members where rank = ")
                            .append(s)
                            .append(" back to where it first fell behind.");
                default ->
                    msg.append("of no single cause in its lead-in windows: inspect collective_members where rank = ")
                            .append(s)
                            .append(" and cause = 'unexplained'.");
            }
            evidence.append("; collective_members rank ")
                    .append(s)
                    .append(" cause ")
                    .append(c);
        }
        return List.of(new Finding(
                workload,
                "straggler",
                level.severity(),
                s,
                p50,
                level.threshold(),
                "us",
                c,
                evidence.toString(),
                msg.toString()));
    }

    /** A GPU whose identical kernels run slower than the typical rank's (gpu_slowness max). */
    static List<Finding> slowGpu(String workload, Rows r, FindingThresholds t) {
        Double max = r.value("gpu_slowness", "max");
        Double rank = r.value("gpu_slowness", "rank");
        if (max == null || rank == null) return List.of();
        FindingThresholds.Level level = t.reached("slow_gpu", max, false);
        if (level == null) return List.of();
        int s = rank.intValue();
        String msg = String.format(
                Locale.ROOT,
                "Rank %d's GPU takes %.2fx the typical rank's time for identical kernels (same name, grid and block):"
                        + " a hardware suspect (clocks, thermals, power cap, a degraded link); check that GPU's health"
                        + " before tuning the code.",
                s,
                max);
        return List.of(new Finding(
                workload,
                "slow_gpu",
                level.severity(),
                s,
                max,
                level.threshold(),
                "ratio",
                "device",
                "gpu_slowness/max; gpu_slowness/score rank " + s,
                msg));
    }

    /** GPU idle time inside steps mostly waiting for the host (idle_breakdown host_wait_share and idle_fraction). */
    static List<Finding> hostBoundIdle(String workload, Rows r, FindingThresholds t) {
        Double share = r.value("idle_breakdown", "host_wait_share");
        Double idle = r.value("idle_breakdown", "idle_fraction");
        if (share == null || idle == null) return List.of();
        if (idle < t.parameter("host_bound_idle_min_idle", 0.1)) return List.of();
        FindingThresholds.Level level = t.reached("host_bound_idle", share, false);
        if (level == null) return List.of();
        String msg = String.format(
                Locale.ROOT,
                "The GPUs sit idle %s of step time and %s of that idle time nothing was queued: the host is the"
                        + " bottleneck; launch fewer, larger kernels (CUDA graphs, torch.compile) or cut CPU work"
                        + " between launches.",
                pct(idle),
                pct(share));
        return List.of(new Finding(
                workload,
                "host_bound_idle",
                level.severity(),
                null,
                share,
                level.threshold(),
                "fraction",
                "host",
                "idle_breakdown/host_wait_share; idle_breakdown/idle_fraction; idle_breakdown/host_wait_ms by step",
                msg));
    }

    /**
     * Communication not hidden by compute as a share of step time: Σ over (rank, step) of comm_comp_overlap
     * exposed_comm_ms ÷ Σ of iter_time over the same pairs × 100.
     */
    static List<Finding> exposedComm(String workload, Rows r, FindingThresholds t) {
        Map<String, Double> stepMs = new HashMap<>();
        for (MetricRow m : r.steps("iter_time", null)) stepMs.put(m.rank() + "/" + m.step(), m.value());
        double exposed = 0;
        double time = 0;
        for (MetricRow m : r.steps("comm_comp_overlap", "exposed_comm_ms")) {
            Double ms = stepMs.get(m.rank() + "/" + m.step());
            if (ms == null) continue;
            exposed += m.value();
            time += ms;
        }
        if (!(time > 0)) return List.of();
        double pct = exposed / time * 100;
        FindingThresholds.Level level = t.reached("exposed_comm", pct, false);
        if (level == null) return List.of();
        String msg = String.format(
                Locale.ROOT,
                "%.0f%% of step time is communication no compute hides: overlap it (bucketed/async collectives, FSDP"
                        + " prefetch) or shrink it (larger buckets, a cheaper parallelism layout).",
                pct);
        return List.of(new Finding(
                workload,
                "exposed_comm",
                level.severity(),
                null,
                pct,
                level.threshold(),
                "%",
                null,
                "comm_comp_overlap/exposed_comm_ms by step; iter_time by step",
                msg));
    }

    /** A rank that never joined a collective its group started (collective_hangs root rows), one finding per rank. */
    static List<Finding> hangs(String workload, List<CollectiveHang> hangs, FindingThresholds t) {
        TreeMap<Integer, CollectiveHang> first = new TreeMap<>();
        for (CollectiveHang h : hangs) if (h.isRoot()) for (Integer rank : h.missingRanks()) first.putIfAbsent(rank, h);
        FindingThresholds.Level level = first.isEmpty() ? null : t.reached("hang", first.size(), false);
        if (level == null) return List.of();
        List<Finding> out = new ArrayList<>();
        first.forEach((rank, h) -> out.add(new Finding(
                workload,
                "hang",
                level.severity(),
                rank,
                1.0,
                level.threshold(),
                "count",
                null,
                "collective_hangs pg " + h.pgName() + " seq " + h.collectiveSeqId(),
                "Rank " + rank + " never joined " + h.op() + " #" + h.collectiveSeqId() + " of group " + h.pgName()
                        + " that its peers started: the job hung there; look at that rank's last stack (py-spy, the"
                        + " Flight Recorder dump) first.")));
        return out;
    }

    /** A fragmented caching allocator (the memory snapshot's fragmentation). */
    static List<Finding> memoryFragmentation(String workload, Rows r, FindingThresholds t) {
        Double f = r.value("fragmentation", null);
        if (f == null) return List.of();
        FindingThresholds.Level level = t.reached("memory_fragmentation", f, false);
        if (level == null) return List.of();
        return List.of(new Finding(
                workload,
                "memory_fragmentation",
                level.severity(),
                null,
                f,
                level.threshold(),
                "ratio",
                null,
                "fragmentation; peak_reserved_bytes; peak_allocated_bytes",
                String.format(
                        Locale.ROOT,
                        "%s of the allocator's free memory is in blocks smaller than its largest: set"
                                + " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True or allocate large buffers"
                                + " early.",
                        pct(f))));
    }

    /**
     * Peak allocation close to the device's memory: the memory snapshot's peak_allocated_bytes (the largest device's)
     * over the memory of the card's device model. Silent when either is unknown: a model sold with several memory
     * sizes is not judged against a guess.
     */
    static List<Finding> memoryPressure(String workload, Rows r, Device device, FindingThresholds t) {
        Double peak = r.value("peak_allocated_bytes", null);
        if (peak == null || device.memoryBytes() == null || device.memoryBytes() <= 0) return List.of();
        double fraction = peak / device.memoryBytes();
        FindingThresholds.Level level = t.reached("memory_pressure", fraction, false);
        if (level == null) return List.of();
        return List.of(new Finding(
                workload,
                "memory_pressure",
                level.severity(),
                null,
                fraction,
                level.threshold(),
                "fraction",
                null,
                "peak_allocated_bytes; peak_reserved_bytes; oom_count",
                String.format(
                        Locale.ROOT,
                        "peak allocation %.1f GiB is %s of the %s's %.0f GiB: little room for a larger batch or a"
                                + " fragmented cache; an OOM is close. Shrink activations (activation checkpointing,"
                                + " smaller micro-batches) or shard more (FSDP, ZeRO).",
                        peak / GIB,
                        pct(fraction),
                        device.model(),
                        device.memoryBytes() / GIB)));
    }

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** Kernels that launch too few blocks to fill the GPU (mean_sm_coverage below the threshold). */
    static List<Finding> lowSmCoverage(String workload, Rows r, FindingThresholds t) {
        Double c = r.value("mean_sm_coverage", null);
        if (c == null) return List.of();
        FindingThresholds.Level level = t.reached("low_sm_coverage", c, true);
        if (level == null) return List.of();
        return List.of(new Finding(
                workload,
                "low_sm_coverage",
                level.severity(),
                null,
                c,
                level.threshold(),
                "%",
                null,
                "mean_sm_coverage; kernel_breakdown",
                String.format(
                        Locale.ROOT,
                        "Kernels cover %.0f%% of the SMs (duration-weighted): small grids leave the GPU partly empty;"
                                + " batch more work per launch or fuse small kernels.",
                        c)));
    }

    /**
     * Kernel launches before the first kernel the trace holds that have no GPU activity (missing_gpu_activities
     * at_start): the profiler dropped the first kernels of its session, and every GPU figure misses them.
     */
    static List<Finding> droppedKernels(String workload, Rows r, FindingThresholds t) {
        Double n = r.value("missing_gpu_activities", "at_start");
        if (n == null) return List.of();
        FindingThresholds.Level level = t.reached("profiler_dropped_kernels", n, false);
        if (level == null) return List.of();
        return List.of(new Finding(
                workload,
                "profiler_dropped_kernels",
                level.severity(),
                null,
                n,
                level.threshold(),
                "count",
                null,
                "missing_gpu_activities",
                String.format(
                        Locale.ROOT,
                        "%.0f kernel launches before the first kernel in the trace have no GPU activity: the profiler"
                                + " dropped the first kernels of its session, so GPU time and kernel counts miss them;"
                                + " start the profile a step later (a warm-up step in the schedule) and compare.",
                        n)));
    }
}
