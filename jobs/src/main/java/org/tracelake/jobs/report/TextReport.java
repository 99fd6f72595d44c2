package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.report.ReportModel.CommBucket;
import org.tracelake.jobs.report.ReportModel.KernelTime;
import org.tracelake.jobs.report.ReportModel.MetricRow;
import org.tracelake.jobs.report.ReportModel.RankLastArrivals;

/**
 * The per-workload text report: the one file performance engineers archive. Plain text, aligned, and stable —
 * the same warehouse gives the same bytes (no clock time; the only run-specific text is the run id).
 */
public final class TextReport {
    private TextReport() {}

    public static String render(ReportModel m) {
        StringBuilder sb = new StringBuilder();
        String title = "tracelake report: " + m.workload();
        sb.append(title).append('\n').append("=".repeat(title.length())).append('\n');
        sb.append("run ").append(m.runId() == null ? "-" : m.runId()).append('\n');
        findings(sb, m);
        card(sb, m);
        throughput(sb, m);
        stepTime(sb, m);
        overlap(sb, m);
        bandwidth(sb, m);
        traffic(sb, m);
        NodeLocality.of(m).render(sb);
        stragglers(sb, m);
        kernels(sb, m);
        memory(sb, m);
        hang(sb, m);
        AllToAllText.render(sb, m);
        allMetrics(sb, m);
        return sb.toString();
    }

    /**
     * What to act on first (the findings table): severity, rule, the sentence, and the metric rows that show it (the
     * Stragglers section's heat map for a straggler, the kernels for a slow GPU, the step table for idle time).
     */
    static void findings(StringBuilder sb, ReportModel m) {
        if (m.findings().isEmpty()) return;
        section(sb, "Findings");
        for (ReportModel.Finding f : m.findings()) {
            sb.append("  [")
                    .append(f.severity())
                    .append("] ")
                    .append(f.rule())
                    .append(f.rank() == null ? "" : " (rank " + f.rank() + ")")
                    .append(": ")
                    .append(f.message())
                    .append('\n');
            if (f.evidence() != null)
                sb.append("      evidence: ").append(f.evidence()).append('\n');
        }
    }

    static void section(StringBuilder sb, String name) {
        sb.append('\n')
                .append(name)
                .append('\n')
                .append("-".repeat(name.length()))
                .append('\n');
    }

    static Double value(List<MetricRow> rows, String metric, String figure, String key) {
        for (MetricRow r : rows) {
            if (r.metric().equals(metric) && Objects.equals(r.figure(), figure) && Objects.equals(r.key(), key)) {
                return r.value();
            }
        }
        return null;
    }

    /** A workload-scope figure whatever its key (traffic_distribution and pipeline_bubble put a mode there). */
    static MetricRow anyKey(List<MetricRow> rows, String metric, String figure) {
        for (MetricRow r : rows) {
            if (r.metric().equals(metric) && Objects.equals(r.figure(), figure)) return r;
        }
        return null;
    }

    static void kv(StringBuilder sb, String key, String value) {
        sb.append("  ")
                .append(String.format(Locale.ROOT, "%-26s", key))
                .append(value)
                .append('\n');
    }

    private static void card(StringBuilder sb, ReportModel m) {
        section(sb, "Workload");
        Map<String, Object> c = m.card();
        if (c.isEmpty()) sb.append("  (no workload card row)\n");
        for (Map.Entry<String, Object> e : c.entrySet()) {
            Object v = e.getValue();
            kv(
                    sb,
                    e.getKey(),
                    v instanceof Double d
                            ? ReportFormatting.num(d)
                            : v instanceof Long l ? ReportFormatting.num(l) : v.toString());
        }
        ReportModel.Files f = m.files();
        kv(sb, "trace files", f.total() + " (" + f.ok() + " ok, " + f.skipped() + " skipped, " + f.error() + " error)");
        kv(sb, "ranks", Long.toString(f.ranks()));
        kv(
                sb,
                "events",
                ReportFormatting.num(f.events())
                        + (f.eventsDropped() > 0 ? " (" + ReportFormatting.num(f.eventsDropped()) + " dropped)" : ""));
        for (String e : f.errors()) kv(sb, "error", e);
    }

    private static void throughput(StringBuilder sb, ReportModel m) {
        section(sb, "Throughput");
        List<MetricRow> w = m.workloadMetrics();
        ReportFormatting.Table t = new ReportFormatting.Table("metric", "value", "unit", "status");
        for (String[] mf : new String[][] {
            {"throughput_tokens", "tokens_per_s"},
            {"throughput_tokens", "tokens_per_s_per_gpu"},
            {"avg_step_time", null},
            {"mfu", null},
            {"gpu_utilization", null},
            {"aggregate_gpu_utilization", null},
            {"ttft", null},
            {"tpot", null}
        }) {
            MetricRow r = anyKey(w, mf[0], mf[1]);
            if (r != null) t.row(r.label(), ReportFormatting.num(r.value()), r.unit(), status(r));
        }
        sb.append(t.isEmpty() ? "  (no metrics)\n" : t.render("  "));
    }

    private static String status(MetricRow r) {
        return "ok".equals(r.status()) ? "ok" : r.status() + (r.reason() == null ? "" : ": " + r.reason());
    }

    private static void stepTime(StringBuilder sb, ReportModel m) {
        section(sb, "Step time");
        List<MetricRow> w = m.workloadMetrics();
        kv(
                sb,
                "iter_time avg/min/max",
                ReportFormatting.num(value(w, "iter_time", "avg_ms", null)) + " / "
                        + ReportFormatting.num(value(w, "iter_time", "min_ms", null)) + " / "
                        + ReportFormatting.num(value(w, "iter_time", "max_ms", null)) + " ms");
        kv(sb, "iter_time std", ReportFormatting.num(value(w, "iter_time", "std_ms", null)) + " ms (population)");
        kv(
                sb,
                "avg_step_time",
                ReportFormatting.num(value(w, "avg_step_time", null, null)) + " s (CCL-Bench, trimmed)");
        kv(sb, "iter_time_skew_ms", ReportFormatting.num(value(w, "iter_time_skew_ms", null, null)) + " ms");
        ReportFormatting.Table t =
                new ReportFormatting.Table("rank", "avg ms", "min ms", "max ms", "std ms", "avg_step_time s");
        for (Integer rank : ranks(m.rankMetrics(), "iter_time")) {
            t.row(
                    rank,
                    ReportFormatting.num(rank(m, "iter_time", "avg_ms", rank)),
                    ReportFormatting.num(rank(m, "iter_time", "min_ms", rank)),
                    ReportFormatting.num(rank(m, "iter_time", "max_ms", rank)),
                    ReportFormatting.num(rank(m, "iter_time", "std_ms", rank)),
                    ReportFormatting.num(rank(m, "avg_step_time", null, rank)));
        }
        if (!t.isEmpty()) sb.append('\n').append(t.render("  "));
        ReportFormatting.Table steps =
                new ReportFormatting.Table("step", "ranks", "mean iter ms", "mean gpu util %", "skew ms");
        for (Long step : steps(m.stepMeans(), "iter_time")) {
            MetricRow it = stepRow(m, "iter_time", null, step);
            steps.row(
                    step,
                    it == null ? "-" : it.rank(),
                    ReportFormatting.num(it == null ? null : it.value()),
                    ReportFormatting.num(stepValue(m, "gpu_utilization", null, step)),
                    ReportFormatting.num(stepValue(m, "iter_time_skew_ms", null, step)));
        }
        if (!steps.isEmpty()) sb.append('\n').append(steps.render("  "));
    }

    private static void overlap(StringBuilder sb, ReportModel m) {
        section(sb, "Communication / computation overlap");
        List<MetricRow> w = m.workloadMetrics();
        String[] figs = {
            "comm_time_ms",
            "comp_time_ms",
            "overlap_time_ms",
            "exposed_comm_ms",
            "overlap_ratio_of_comm",
            "overlap_ratio_of_comp"
        };
        ReportFormatting.Table t = new ReportFormatting.Table(
                "rank", "comm ms", "comp ms", "overlap ms", "exposed comm ms", "overlap/comm", "overlap/comp");
        for (Integer rank : ranks(m.rankMetrics(), "comm_comp_overlap")) {
            Object[] cells = new Object[7];
            cells[0] = rank;
            for (int i = 0; i < figs.length; i++)
                cells[i + 1] = ReportFormatting.num(rank(m, "comm_comp_overlap", figs[i], rank));
            t.row(cells);
        }
        Object[] mean = new Object[7];
        mean[0] = "mean";
        for (int i = 0; i < figs.length; i++)
            mean[i + 1] = ReportFormatting.num(value(w, "comm_comp_overlap", figs[i], null));
        t.row(mean);
        sb.append(t.render("  "));
        sb.append('\n');
        kv(
                sb,
                "compute_comm_overlap",
                ReportFormatting.num(value(w, "compute_comm_overlap", null, null)) + " % (CCL-Bench, trimmed steps)");
        kv(
                sb,
                "communication_fraction",
                ReportFormatting.num(value(w, "communication_fraction", null, null)) + " % (CCL-Bench)");
        kv(
                sb,
                "total_communication_time",
                ReportFormatting.num(value(w, "total_communication_time", null, null)) + " s/step (CCL-Bench)");
        ReportFormatting.Table steps =
                new ReportFormatting.Table("step", "comm ms", "overlap ms", "exposed comm ms", "overlap/comm");
        for (Long step : steps(m.stepMeans(), "comm_comp_overlap")) {
            steps.row(
                    step,
                    ReportFormatting.num(stepValue(m, "comm_comp_overlap", "comm_time_ms", step)),
                    ReportFormatting.num(stepValue(m, "comm_comp_overlap", "overlap_time_ms", step)),
                    ReportFormatting.num(stepValue(m, "comm_comp_overlap", "exposed_comm_ms", step)),
                    ReportFormatting.num(stepValue(m, "comm_comp_overlap", "overlap_ratio_of_comm", step)));
        }
        if (!steps.isEmpty()) sb.append("\n  per step, mean over ranks:\n").append(steps.render("  "));
    }

    private static void bandwidth(StringBuilder sb, ReportModel m) {
        section(sb, "Bandwidth by collective kind and message size");
        List<MetricRow> w = m.workloadMetrics();
        Map<String, long[]> byKind = new TreeMap<>();
        for (CommBucket b : m.commBuckets()) {
            long[] a = byKind.computeIfAbsent(b.kind(), k -> new long[3]);
            a[0] += b.calls();
            a[1] += b.bytes() == null ? 0 : b.bytes();
            a[2] += b.durNs();
        }
        ReportFormatting.Table t = new ReportFormatting.Table(
                "kind",
                "calls",
                "bytes",
                "time ms",
                "busbw GB/s (median)",
                "wait-free busbw GB/s (median)",
                "CCL-Bench GiB/s");
        boolean hasCclBench = false;
        for (Map.Entry<String, long[]> e : byKind.entrySet()) {
            String ccl = "bandwidth_utilization_" + e.getKey().replace("_", "");
            hasCclBench |= value(w, ccl, null, null) != null;
            t.row(
                    e.getKey(),
                    ReportFormatting.num(e.getValue()[0]),
                    ReportFormatting.bytes(e.getValue()[1]),
                    ReportFormatting.ms(e.getValue()[2]),
                    ReportFormatting.num(value(w, "busbw_gbps", null, e.getKey())),
                    ReportFormatting.num(value(w, "wait_free_busbw_gbps", "median", e.getKey())),
                    ReportFormatting.num(value(w, ccl, null, null)));
        }
        sb.append(t.isEmpty() ? "  (no communication)\n" : t.render("  "));
        if (!t.isEmpty()) {
            WaitFreeBandwidth wf = WaitFreeBandwidth.of(m);
            sb.append("  ").append(WaitFreeBandwidth.WHY);
            if (wf.waitMs() != null)
                sb.append(" Ranks waited ")
                        .append(ReportFormatting.num(wf.waitMs()))
                        .append(" ms in all (collective_wait).");
            sb.append('\n');
            if (hasCclBench)
                sb.append("  ").append(WaitFreeBandwidth.WHY_CCL_BENCH).append('\n');
            for (WaitFreeBandwidth.Kind k : wf.kinds()) {
                if (k.waitFree() != null) {
                    sb.append("  ")
                            .append(k.kind())
                            .append(": wait-free busbw p10 ")
                            .append(ReportFormatting.num(k.p10()))
                            .append(", p90 ")
                            .append(ReportFormatting.num(k.p90()))
                            .append(" GB/s")
                            .append(k.note() == null ? "" : " (" + k.note() + ")")
                            .append('\n');
                } else if (k.note() != null) {
                    sb.append("  ")
                            .append(k.kind())
                            .append(": wait-free busbw ")
                            .append(k.note())
                            .append('\n');
                }
            }
        }
        ReportFormatting.Table s = new ReportFormatting.Table(
                "kind", "size bucket", "calls", "bytes", "busbw samples", "busbw GB/s (median)");
        for (CommBucket b : m.commBuckets()) {
            s.row(
                    b.kind(),
                    ReportFormatting.bucket(b.bucket()),
                    ReportFormatting.num(b.calls()),
                    ReportFormatting.bytes(b.bytes()),
                    ReportFormatting.num(b.busbwSamples()),
                    ReportFormatting.num(b.busbwMedianGbps()));
        }
        if (!s.isEmpty()) sb.append('\n').append(s.render("  "));
        MetricRow alpha = anyKey(w, "hockney_alpha_s", null);
        if (alpha != null) {
            sb.append('\n');
            kv(sb, "hockney alpha", alpha.value() == null ? status(alpha) : ReportFormatting.num(alpha.value()) + " s");
            kv(
                    sb,
                    "hockney 1/beta",
                    ReportFormatting.num(value(w, "hockney_inverse_beta_Bps", null, null)) + " bytes/s");
        }
    }

    private static void traffic(StringBuilder sb, ReportModel m) {
        section(sb, "Traffic breakdown");
        List<MetricRow> w = m.workloadMetrics();
        List<MetricRow> rows = new ArrayList<>();
        double total = 0;
        for (MetricRow r : w) {
            if (r.metric().equals("traffic_distribution")) {
                rows.add(r);
                if (r.value() != null) total += r.value();
            }
        }
        if (rows.isEmpty()) {
            sb.append("  (no traffic_distribution rows)\n");
        } else {
            kv(sb, "mode", rows.get(0).key() == null ? "-" : rows.get(0).key());
            ReportFormatting.Table t = new ReportFormatting.Table("parallelism", "bytes", "share");
            for (MetricRow r : rows) {
                String dim = r.figure() == null ? "-" : r.figure().replace("_bytes", "");
                t.row(
                        dim,
                        r.value() == null
                                ? "-"
                                : ReportFormatting.bytes(r.value().longValue()),
                        r.value() == null || total == 0 ? "-" : ReportFormatting.pct(r.value() / total));
            }
            sb.append(t.render("  "));
        }
        ReportFormatting.Table v = new ReportFormatting.Table("collective_vol (rank 0)", "GB");
        for (String k : new String[] {"allreduce", "allgather", "reducescatter", "alltoall", "total"}) {
            MetricRow r = anyKey(w, "collective_vol_" + k + "_gb", null);
            if (r != null) v.row(k, ReportFormatting.num(r.value()));
        }
        if (!v.isEmpty()) sb.append('\n').append(v.render("  "));
    }

    private static void stragglers(StringBuilder sb, ReportModel m) {
        section(sb, "Stragglers");
        List<MetricRow> w = m.workloadMetrics();
        kv(sb, "collectives matched", ReportFormatting.num(value(w, "straggler_lag", "num_collectives", null)));
        kv(
                sb,
                "lag mean/p50/p95/max",
                ReportFormatting.num(value(w, "straggler_lag", "mean_lag_us", null)) + " / "
                        + ReportFormatting.num(value(w, "straggler_lag", "p50_lag_us", null)) + " / "
                        + ReportFormatting.num(value(w, "straggler_lag", "p95_lag_us", null)) + " / "
                        + ReportFormatting.num(value(w, "straggler_lag", "max_lag_us", null)) + " us");
        kv(sb, "straggler rank", ReportFormatting.num(value(w, "straggler_lag", "straggler_rank", null)));
        kv(
                sb,
                "straggler (CCL-Bench)",
                ReportFormatting.num(value(w, "straggler", null, null)) + " ((max-min)/max ncclDevKernel_ time)");
        kv(
                sb,
                "comm time imbalance",
                ReportFormatting.num(value(w, "comm_time_imbalance", null, null)) + " ((max-min)/max comm time)");
        kv(sb, "load_imbalance_ratio", ReportFormatting.num(value(w, "load_imbalance_ratio", null, null)));
        ReportFormatting.Table t =
                new ReportFormatting.Table("rank", "last arrivals", "instances", "last_arrival_share", "");
        for (RankLastArrivals r : m.lastArrivals()) {
            Double share = rank(m, "straggler_lag", "last_arrival_share", r.rank());
            double s = share != null ? share : r.instances() == 0 ? 0 : (double) r.lastArrivals() / r.instances();
            t.row(
                    r.rank(),
                    ReportFormatting.num(r.lastArrivals()),
                    ReportFormatting.num(r.instances()),
                    ReportFormatting.num(share),
                    "#".repeat((int) Math.round(s * 40)));
        }
        if (!t.isEmpty()) sb.append('\n').append(t.render("  "));
    }

    private static void kernels(StringBuilder sb, ReportModel m) {
        section(sb, "Kernels");
        Map<String, long[]> byCat = new TreeMap<>();
        long total = 0;
        for (KernelTime k : m.categoryByRank()) {
            long[] a = byCat.computeIfAbsent(k.category(), c -> new long[2]);
            a[0] += k.count();
            a[1] += k.durNs();
            total += k.durNs();
        }
        ReportFormatting.Table t = new ReportFormatting.Table("category", "count", "time ms", "share");
        for (Map.Entry<String, long[]> e : byCat.entrySet()) {
            t.row(
                    e.getKey(),
                    ReportFormatting.num(e.getValue()[0]),
                    ReportFormatting.ms(e.getValue()[1]),
                    total == 0 ? "-" : ReportFormatting.pct((double) e.getValue()[1] / total));
        }
        sb.append(t.isEmpty() ? "  (no GPU activity)\n" : t.render("  "));
        ReportFormatting.Table top = new ReportFormatting.Table("time ms", "count", "category", "kernel (all ranks)");
        for (KernelTime k : m.topKernels())
            top.row(ReportFormatting.ms(k.durNs()), ReportFormatting.num(k.count()), k.category(), k.name());
        if (!top.isEmpty()) sb.append('\n').append(top.render("  "));
    }

    private static void memory(StringBuilder sb, ReportModel m) {
        section(sb, "Memory");
        ReportFormatting.Table t = new ReportFormatting.Table("metric", "value", "unit", "status");
        boolean any = false;
        for (String name : new String[] {
            "peak_allocated_bytes",
            "peak_reserved_bytes",
            "memory_efficiency",
            "fragmentation",
            "internal_waste_bytes",
            "alloc_count",
            "free_count",
            "alloc_rate_per_s",
            "oom_count",
            "largest_alloc_bytes"
        }) {
            MetricRow r = anyKey(m.workloadMetrics(), name, null);
            if (r == null) continue;
            any |= r.value() != null;
            t.row(name, ReportFormatting.num(r.value()), r.unit(), status(r));
        }
        if (any) {
            sb.append(t.render("  "));
        } else {
            sb.append("  no memory snapshot for this workload (memory metrics are ")
                    .append(statusOf(m, "peak_allocated_bytes"))
                    .append(")\n");
        }
        if (!m.memory().series().isEmpty()) {
            ReportFormatting.Table d = new ReportFormatting.Table("device", "points", "max level bytes");
            for (ReportModel.MemorySeries s : m.memory().series()) {
                double max = s.points().stream().mapToDouble(p -> p[1]).max().orElse(0);
                d.row(s.device(), s.points().size(), ReportFormatting.num(max));
            }
            sb.append('\n')
                    .append("  ")
                    .append(m.memory().reason())
                    .append('\n')
                    .append(d.render("  "));
        }
    }

    /** NCCL Flight Recorder: the root rows first, then every stuck collective, and the fault log beside the dumps. */
    private static void hang(StringBuilder sb, ReportModel m) {
        section(sb, "Hang");
        ReportModel.Hang h = m.hang();
        MetricRow roots = anyKey(m.workloadMetrics(), "hang_root_ranks", null);
        MetricRow groups = anyKey(m.workloadMetrics(), "hung_groups", null);
        if (h.rows().isEmpty()) {
            sb.append("  ").append(h.reason() == null ? "no stuck collective" : h.reason());
            sb.append(roots == null || roots.value() != null ? "" : " (hang metrics are " + roots.status() + ")")
                    .append('\n');
        } else {
            if (roots != null && roots.value() != null)
                kv(sb, "hang_root_ranks", ReportFormatting.num(roots.value()) + "  " + roots.reason());
            if (groups != null && groups.value() != null) kv(sb, "hung_groups", ReportFormatting.num(groups.value()));
            ReportFormatting.Table t = new ReportFormatting.Table(
                    "root", "group", "description", "seq", "op", "size", "dtype", "missing ranks", "held by");
            for (CollectiveHang r : h.rows()) {
                t.row(
                        r.isRoot() ? "ROOT" : "",
                        r.pgName(),
                        r.pgDesc(),
                        Long.toString(r.collectiveSeqId()),
                        r.op(),
                        r.inputSize(),
                        r.dtype(),
                        ranks(r.missingRanks()),
                        ranks(r.holdingRanks()));
            }
            sb.append('\n').append(t.render("  "));
        }
        if (h.faultLog() != null) {
            sb.append('\n').append("  fault log (").append(h.faultLogFile()).append("):\n");
            for (String line : h.faultLog().split("\n"))
                sb.append("    ").append(line).append('\n');
        }
    }

    private static String ranks(List<Integer> ranks) {
        StringBuilder out = new StringBuilder();
        for (Integer r : ranks) out.append(out.length() == 0 ? "" : ",").append(r);
        return out.toString();
    }

    private static String statusOf(ReportModel m, String metric) {
        MetricRow r = anyKey(m.workloadMetrics(), metric, null);
        return r == null ? "absent" : r.status();
    }

    private static void allMetrics(StringBuilder sb, ReportModel m) {
        section(sb, "Every workload-scope metric");
        ReportFormatting.Table t =
                new ReportFormatting.Table("metric", "figure", "key", "value", "unit", "status", "reason");
        for (MetricRow r : m.workloadMetrics()) {
            t.row(r.metric(), r.figure(), r.key(), ReportFormatting.num(r.value()), r.unit(), r.status(), r.reason());
        }
        sb.append(t.render("  "));
    }

    // ---- lookups over rank and step rows

    private static Double rank(ReportModel m, String metric, String figure, Integer rank) {
        for (MetricRow r : m.rankMetrics()) {
            if (r.metric().equals(metric)
                    && Objects.equals(r.figure(), figure)
                    && Objects.equals(r.rank(), rank)
                    && r.key() == null) {
                return r.value();
            }
        }
        return null;
    }

    private static TreeSet<Integer> ranks(List<MetricRow> rows, String metric) {
        TreeSet<Integer> out = new TreeSet<>();
        for (MetricRow r : rows) if (r.metric().equals(metric) && r.rank() != null) out.add(r.rank());
        return out;
    }

    private static TreeSet<Long> steps(List<MetricRow> rows, String metric) {
        TreeSet<Long> out = new TreeSet<>();
        for (MetricRow r : rows) if (r.metric().equals(metric) && r.step() != null) out.add(r.step());
        return out;
    }

    private static MetricRow stepRow(ReportModel m, String metric, String figure, Long step) {
        for (MetricRow r : m.stepMeans()) {
            if (r.metric().equals(metric)
                    && Objects.equals(r.figure(), figure)
                    && Objects.equals(r.step(), step)
                    && r.key() == null) {
                return r;
            }
        }
        return null;
    }

    private static Double stepValue(ReportModel m, String metric, String figure, Long step) {
        MetricRow r = stepRow(m, metric, figure, step);
        return r == null ? null : r.value();
    }

    /** Headline numbers for the HTML page's summary table, in the text report's order. */
    static LinkedHashMap<String, MetricRow> headlines(ReportModel m) {
        LinkedHashMap<String, MetricRow> out = new LinkedHashMap<>();
        String[][] picks = {
            {"throughput_tokens", "tokens_per_s"},
            {"avg_step_time", null},
            {"mfu", null},
            {"iter_time", "avg_ms"},
            {"gpu_utilization", null},
            {"comm_comp_overlap", "overlap_ratio_of_comm"},
            {"comm_comp_overlap", "exposed_comm_ms"},
            {"communication_fraction", null},
            {"straggler_lag", "p50_lag_us"},
            {"straggler_lag", "straggler_rank"},
            {"comm_bytes_total", null},
            {"peak_allocated_bytes", null}
        };
        for (String[] p : picks) {
            MetricRow r = anyKey(m.workloadMetrics(), p[0], p[1]);
            if (r != null) out.put(r.label(), r);
        }
        return out;
    }
}
