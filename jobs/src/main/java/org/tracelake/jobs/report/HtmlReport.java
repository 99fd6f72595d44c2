package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.tracelake.jobs.metrics.CollectiveHang;
import org.tracelake.jobs.report.ReportModel.CommBucket;
import org.tracelake.jobs.report.ReportModel.KernelTime;
import org.tracelake.jobs.report.ReportModel.MetricRow;
import org.tracelake.jobs.report.ReportModel.Span;
import org.tracelake.schemas.MetricSchema;

/** The per-workload HTML page: {@link ReportModel} as JSON for {@code report.js}, inside {@link HtmlPage}. */
public final class HtmlReport {
    private HtmlReport() {}

    public static String render(ReportModel m) {
        return HtmlPage.render("tracelake report: " + m.workload(), data(m));
    }

    static Map<String, Object> data(ReportModel m) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("page", "workload");
        d.put("workload", m.workload());
        d.put("runId", m.runId());
        List<List<Object>> cardAll = new ArrayList<>();
        m.card().forEach((k, v) -> cardAll.add(List.of(k, text(v))));
        ReportModel.Files f = m.files();
        List<List<Object>> card = new ArrayList<>();
        Map<String, Object> c = m.card();
        fact(card, "description", c.get("description"));
        fact(
                card,
                "model",
                join(
                        " · ",
                        c.get("model_family"),
                        c.get("phase"),
                        c.get("precision"),
                        c.get("num_params") == null ? null : text(c.get("num_params")) + " params"));
        fact(
                card,
                "batch × seq",
                c.get("batch_size") == null ? null : text(c.get("batch_size")) + " × " + text(c.get("seq_len")));
        fact(
                card,
                "hardware",
                join(
                        " · ",
                        c.get("xpu_model"),
                        c.get("device_count") == null ? null : c.get("device_count") + " devices",
                        c.get("topology")));
        StringBuilder par = new StringBuilder();
        for (String p : new String[] {"dp_replicate", "dp_shard", "tp", "pp", "cp", "ep"}) {
            if (c.get(p) != null)
                par.append(par.length() == 0 ? "" : " · ").append(p).append(' ').append(c.get(p));
        }
        fact(card, "parallelism", par.length() == 0 ? null : par.toString());
        fact(card, "framework", join(" ", c.get("framework"), c.get("framework_version")));
        fact(card, "comm library", join(" ", c.get("comm_library"), c.get("comm_library_version")));
        card.add(List.of(
                "trace files",
                f.total() + " (" + f.ok() + " ok, " + f.skipped() + " skipped, " + f.error() + " error)"));
        card.add(List.of("ranks · events", f.ranks() + " · " + ReportFormatting.num(f.events())));
        for (String e : f.errors()) card.add(List.of("error", e));
        d.put("cardAll", cardAll);
        d.put("card", card);
        List<Map<String, Object>> headlines = new ArrayList<>();
        TextReport.headlines(m).forEach((label, r) -> headlines.add(metric(r)));
        d.put("headlines", headlines);
        List<Map<String, Object>> findings = new ArrayList<>();
        for (ReportModel.Finding finding : m.findings()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("severity", finding.severity());
            x.put("rule", finding.rule());
            x.put("rank", finding.rank());
            x.put("message", finding.message());
            x.put("evidence", finding.evidence());
            // where the page shows the evidence: the heat map for a straggler, the kernels for a slow GPU
            x.put(
                    "anchor",
                    switch (finding.rule()) {
                        case "straggler" -> "section-arrival-lag-rank-collective";
                        case "slow_gpu", "low_sm_coverage" -> "section-kernel-time-by-category";
                        case "hang" -> "section-hang-nccl-flight-recorder";
                        case "memory_fragmentation" -> "section-memory-over-time";
                        default -> "section-communication-computation-overlap-per-step";
                    });
            findings.add(x);
        }
        d.put("findings", findings);
        d.put("timeline", timeline(m.timeline()));
        d.put("overlap", overlap(m));
        d.put("comm", comm(m.commBuckets()));
        d.put("waitFree", waitFree(WaitFreeBandwidth.of(m)));
        d.put(
                "lag",
                Map.of(
                        "instances",
                        m.lag().instances(),
                        "ranks",
                        m.lag().ranks(),
                        "cells",
                        m.lag().cells(),
                        "total",
                        m.lag().totalInstances()));
        d.put("stragglers", stragglers(m));
        d.put("kernels", kernels(m.categoryByRank()));
        List<Map<String, Object>> top = new ArrayList<>();
        for (KernelTime k : m.topKernels()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", k.name());
            t.put("category", k.category());
            t.put("count", k.count());
            t.put("ms", k.durNs() / 1e6);
            top.add(t);
        }
        d.put("topKernels", top);
        List<Map<String, Object>> series = new ArrayList<>();
        for (ReportModel.MemorySeries s : m.memory().series())
            series.add(Map.of("device", s.device(), "points", s.points()));
        d.put("memory", Map.of("note", m.memory().reason(), "series", series));
        d.put("hang", hang(m.hang()));
        d.put("allToAll", allToAll(m.allToAll()));
        d.put("locality", locality(NodeLocality.of(m)));
        d.put("telemetry", telemetry(m.telemetry()));
        d.put("executionTrace", m.executionTrace());
        List<Map<String, Object>> metrics = new ArrayList<>();
        for (MetricRow r : m.workloadMetrics()) metrics.add(metric(r));
        d.put("metrics", metrics);
        return d;
    }

    /** AORTA's step telemetry as chart columns: the steps, and per figure its mean over ranks per step. */
    private static Map<String, Object> telemetry(ReportModel.Telemetry t) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("iterations", t.iterations());
        o.put("ranks", t.ranks());
        o.put("steps", t.steps());
        o.put("ms", t.msPerStep());
        return o;
    }

    /** Stuck collectives as table rows; the matrix as [rank index, group index, enqueued, completed]. */
    private static Map<String, Object> hang(ReportModel.Hang h) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("note", h.reason());
        List<List<Object>> rows = new ArrayList<>();
        for (CollectiveHang r : h.rows()) {
            List<Object> row = new ArrayList<>();
            row.add(r.isRoot() ? "root" : "");
            row.add(r.pgName());
            row.add(r.pgDesc());
            row.add(r.collectiveSeqId());
            row.add(r.op());
            row.add(r.inputSize());
            row.add(r.dtype());
            row.add(r.missingRanks());
            row.add(r.holdingRanks());
            rows.add(row);
        }
        o.put("rows", rows);
        o.put("groups", h.groups());
        o.put("ranks", h.ranks());
        List<List<Object>> cells = new ArrayList<>();
        for (ReportModel.HangCell c : h.cells()) {
            cells.add(Arrays.asList(
                    h.ranks().indexOf(c.rank()), h.groups().indexOf(c.group()), c.enqueued(), c.completed()));
        }
        o.put("cells", cells);
        o.put("faultLogFile", h.faultLogFile());
        o.put("faultLog", h.faultLog());
        return o;
    }

    /** Instances as [name, imbalance]; the matrix as [src index, dst index, bytes] over {@code ranks}. */
    private static Map<String, Object> allToAll(ReportModel.AllToAll a) {
        Map<String, Object> o = new LinkedHashMap<>();
        List<List<Object>> instances = new ArrayList<>();
        for (ReportModel.Imbalance i : a.instances()) instances.add(Arrays.asList(i.instance(), i.imbalance()));
        o.put("instances", instances);
        o.put("ranks", a.ranks());
        List<List<Object>> cells = new ArrayList<>();
        for (long[] c : a.cells()) {
            cells.add(List.of(a.ranks().indexOf((int) c[0]), a.ranks().indexOf((int) c[1]), c[2]));
        }
        o.put("cells", cells);
        o.put("rankCount", a.rankCount());
        return o;
    }

    private static String text(Object v) {
        return v instanceof Double x
                ? ReportFormatting.num(x)
                : v instanceof Long l ? ReportFormatting.num(l) : String.valueOf(v);
    }

    private static void fact(List<List<Object>> card, String key, Object value) {
        if (value != null && !value.toString().isBlank()) card.add(List.of(key, value.toString()));
    }

    private static String join(String sep, Object... parts) {
        StringBuilder sb = new StringBuilder();
        for (Object p : parts) {
            if (p == null) continue;
            sb.append(sb.length() == 0 ? "" : sep).append(p);
        }
        return sb.length() == 0 ? null : sb.toString();
    }

    /** The node-locality split: per kind then "all kinds", bytes and ms each side, the mode; or why there is none. */
    private static Map<String, Object> locality(NodeLocality l) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("note", l.unavailable());
        List<Map<String, Object>> lines = new ArrayList<>();
        for (NodeLocality.Line x : l.lines()) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("kind", x.kind() == null ? "all kinds" : x.kind());
            line.put("intraBytes", x.intraBytes());
            line.put("interBytes", x.interBytes());
            line.put("intraMs", x.intraMs());
            line.put("interMs", x.interMs());
            line.put("interShare", x.interShare());
            line.put("mode", x.mode());
            lines.add(line);
        }
        o.put("lines", lines);
        return o;
    }

    private static Map<String, Object> metric(MetricRow r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("metric", r.metric());
        o.put("figure", r.figure());
        o.put("key", r.key());
        o.put("value", r.value());
        o.put("text", ReportFormatting.num(r.value()));
        o.put("unit", r.unit());
        o.put("status", r.status());
        o.put("reason", r.reason());
        return o;
    }

    /**
     * Lanes "rank r · class" (or "node n · slowest rank r" per band); spans as [lane, start µs, dur µs, name index,
     * category index]; for bands also the heat cells [lane, start µs, width µs, busy share].
     */
    private static Map<String, Object> timeline(ReportModel.Timeline t) {
        TreeSet<Integer> ranks = new TreeSet<>();
        TreeSet<String> classes = new TreeSet<>();
        for (Span s : t.spans()) {
            ranks.add(s.rank());
            classes.add(s.activityClass());
        }
        List<String> lanes = new ArrayList<>();
        Map<String, Integer> laneIndex = new HashMap<>();
        boolean banded = !t.bands().isEmpty();
        if (banded) {
            // One lane per band; a span's rank field is its band's index.
            for (int b = 0; b < t.bands().size(); b++) {
                ReportModel.Band band = t.bands().get(b);
                for (String c : classes) laneIndex.put(b + "/" + c, b);
                lanes.add(band.label() + " · slowest rank " + band.slowestRank());
            }
        } else {
            for (Integer r : ranks) {
                for (String c : classes) {
                    boolean present = t.spans().stream()
                            .anyMatch(s -> s.rank() == r && s.activityClass().equals(c));
                    if (!present) continue;
                    laneIndex.put(r + "/" + c, lanes.size());
                    lanes.add("rank " + r + " · " + c);
                }
            }
        }
        List<String> names = new ArrayList<>();
        Map<String, Integer> nameIndex = new HashMap<>();
        List<String> categories = new ArrayList<>();
        Map<String, Integer> categoryIndex = new HashMap<>();
        Map<String, List<double[]>> byClass = new TreeMap<>();
        for (Span s : t.spans()) {
            int n = nameIndex.computeIfAbsent(Objects.toString(s.name(), ""), k -> {
                names.add(k);
                return names.size() - 1;
            });
            int c = categoryIndex.computeIfAbsent(Objects.toString(s.category(), "other"), k -> {
                categories.add(k);
                return categories.size() - 1;
            });
            byClass.computeIfAbsent(s.activityClass(), k -> new ArrayList<>())
                    .add(new double[] {laneIndex.get(s.rank() + "/" + s.activityClass()), s.startUs(), s.durUs(), n, c
                    });
        }
        // The axis ends where the last activity ends (a span is drawn from its start for its duration; left to
        // itself the axis would stop at the largest start, cutting off the step's last collectives).
        double endUs = 0;
        for (Span s : t.spans()) endUs = Math.max(endUs, s.startUs() + s.durUs());
        for (double[] h : t.heat()) endUs = Math.max(endUs, h[1] + h[2]);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("step", t.step());
        o.put("endUs", endUs);
        o.put("total", t.totalSpans());
        o.put("shown", t.spans().size());
        o.put("lanes", lanes);
        o.put("names", names);
        o.put("categories", categories);
        o.put("byClass", byClass);
        if (banded) {
            List<Map<String, Object>> bands = new ArrayList<>();
            for (ReportModel.Band b : t.bands()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("label", b.label());
                x.put("firstRank", b.firstRank());
                x.put("lastRank", b.lastRank());
                x.put("ranks", b.ranks());
                x.put("slowestRank", b.slowestRank());
                bands.add(x);
            }
            o.put("bands", bands);
            o.put("heat", t.heat());
        }
        return o;
    }

    private static Map<String, Object> overlap(ReportModel m) {
        TreeMap<Long, double[]> steps = new TreeMap<>();
        String[] figs = {"overlap_time_ms", "exposed_comm_ms", "overlap_ratio_of_comm", "comm_time_ms"};
        for (MetricRow r : m.stepMeans()) {
            if (!r.metric().equals("comm_comp_overlap") || r.key() != null || r.value() == null) continue;
            for (int i = 0; i < figs.length; i++) {
                if (figs[i].equals(r.figure())) {
                    double[] a = steps.computeIfAbsent(
                            r.step(), s -> new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
                    a[i] = r.value();
                }
            }
        }
        List<Long> stepList = new ArrayList<>();
        List<List<Double>> cols = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        steps.forEach((s, a) -> {
            stepList.add(s);
            for (int i = 0; i < a.length; i++) cols.get(i).add(Double.isNaN(a[i]) ? null : a[i]);
        });
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("steps", stepList);
        o.put("overlapMs", cols.get(0));
        o.put("exposedMs", cols.get(1));
        o.put("ratio", cols.get(2));
        o.put("commMs", cols.get(3));
        return o;
    }

    private static Map<String, Object> comm(List<CommBucket> buckets) {
        TreeSet<Long> sizes = new TreeSet<>();
        TreeSet<String> kinds = new TreeSet<>();
        boolean unknown = false;
        for (CommBucket b : buckets) {
            if (b.bucket() == null) unknown = true;
            else sizes.add(b.bucket());
            kinds.add(b.kind());
        }
        List<Long> sizeList = new ArrayList<>(sizes);
        List<String> labels = new ArrayList<>();
        for (Long s : sizeList) labels.add(ReportFormatting.bucket(s));
        if (unknown) labels.add("unknown");
        Map<String, List<Double>> bytes = new LinkedHashMap<>();
        Map<String, List<Double>> busbw = new LinkedHashMap<>();
        Map<String, List<Long>> calls = new LinkedHashMap<>();
        for (String k : kinds) {
            List<Double> by = new ArrayList<>();
            List<Double> bw = new ArrayList<>();
            List<Long> c = new ArrayList<>();
            for (int i = 0; i < labels.size(); i++) {
                by.add(null);
                bw.add(null);
                c.add(0L);
            }
            bytes.put(k, by);
            busbw.put(k, bw);
            calls.put(k, c);
        }
        for (CommBucket b : buckets) {
            int i = b.bucket() == null ? labels.size() - 1 : sizeList.indexOf(b.bucket());
            bytes.get(b.kind()).set(i, b.bytes() == null ? null : b.bytes().doubleValue());
            busbw.get(b.kind()).set(i, b.busbwMedianGbps());
            calls.get(b.kind()).set(i, b.calls());
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("buckets", labels);
        o.put("kinds", new ArrayList<>(kinds));
        o.put("bytes", bytes);
        o.put("busbw", busbw);
        o.put("calls", calls);
        return o;
    }

    /** busbw beside wait-free busbw per kind, as table rows, with the line that says why they differ. */
    private static Map<String, Object> waitFree(WaitFreeBandwidth wf) {
        List<List<Object>> rows = new ArrayList<>();
        for (WaitFreeBandwidth.Kind k : wf.kinds()) {
            rows.add(Arrays.asList(k.kind(), k.busbw(), k.waitFree(), k.p10(), k.p90(), k.note()));
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("rows", rows);
        o.put("why", WaitFreeBandwidth.WHY);
        o.put("waitMs", wf.waitMs());
        return o;
    }

    private static Map<String, Object> stragglers(ReportModel m) {
        List<Integer> ranks = new ArrayList<>();
        List<Double> share = new ArrayList<>();
        List<Long> last = new ArrayList<>();
        for (ReportModel.RankLastArrivals r : m.lastArrivals()) {
            ranks.add(r.rank());
            last.add(r.lastArrivals());
            share.add(r.instances() == 0 ? 0.0 : (double) r.lastArrivals() / r.instances());
        }
        Map<String, Object> o = new LinkedHashMap<>();
        // A tie is no straggler: when straggler_lag says no rank is one (every lag 0), the chart says that instead
        // of a rank "last" in every instance by the tie rule.
        for (MetricRow r : m.workloadMetrics()) {
            if (r.metric().equals("straggler_lag")
                    && "straggler_rank".equals(r.figure())
                    && r.key() == null
                    && MetricSchema.STATUS_NOT_MEANINGFUL.equals(r.status())) {
                String why = r.reason() == null ? "no rank started its collectives last" : r.reason();
                o.put("note", "No straggler: " + why + (why.endsWith(".") ? "" : "."));
            }
        }
        o.put("ranks", ranks);
        o.put("share", share);
        o.put("last", last);
        o.put(
                "instances",
                m.lastArrivals().isEmpty() ? 0 : m.lastArrivals().get(0).instances());
        return o;
    }

    private static Map<String, Object> kernels(List<KernelTime> byRank) {
        TreeSet<Integer> ranks = new TreeSet<>();
        TreeSet<String> cats = new TreeSet<>();
        for (KernelTime k : byRank) {
            ranks.add(k.rank());
            cats.add(k.category());
        }
        List<Integer> rankList = new ArrayList<>(ranks);
        Map<String, List<Double>> ms = new LinkedHashMap<>();
        for (String c : cats) {
            List<Double> l = new ArrayList<>();
            for (int i = 0; i < rankList.size(); i++) l.add(0.0);
            ms.put(c, l);
        }
        for (KernelTime k : byRank) ms.get(k.category()).set(rankList.indexOf(k.rank()), k.durNs() / 1e6);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("ranks", rankList);
        o.put("ms", ms);
        return o;
    }
}
