package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tracelake.jobs.report.ReportModel.CommBucket;
import org.tracelake.jobs.report.ReportModel.KernelTime;
import org.tracelake.jobs.report.ReportQueries.ComparedRun;

/**
 * What a person uses to explain a ratio of {@code report --compare}, run beside run: where the GPU time span went
 * (the {@code time_breakdown} metric: compute, exposed communication, exposed copies, idle), GPU time by kernel
 * category, the kernels whose time moved most, and collectives by kind and size bucket with their calls, bytes and
 * median bus bandwidth. Times, calls and bytes are per rank (the run's total ÷ its ranks), so runs of different
 * sizes compare. Everything comes from the tables; nothing here classifies or sizes anything.
 */
public record ComparisonBreakdown(
        List<Split> timeSplit, List<GpuTime> categories, List<GpuTime> movedKernels, List<Collectives> collectives) {

    /** How many kernels the "moved most" list shows. */
    public static final int MOVED_KERNELS = 15;
    /** The parts of time_breakdown, in the order they stack (they add up to span_ms). */
    static final List<String> SPLIT_PARTS =
            List.of("compute_ms", "exposed_comm_ms", "exposed_copy_ms", "idle_ms", "span_ms");

    /** One figure of time_breakdown (mean over ranks, ms) in each run; null where a run lacks it. */
    public record Split(String part, Double reference, Double candidate) {}

    /** GPU time per rank (ms) of a kernel category or a kernel name in each run. */
    public record GpuTime(String name, String category, double referenceMs, double candidateMs) {
        public double deltaMs() {
            return candidateMs - referenceMs;
        }
    }

    /** Collectives of one kind and size bucket (bytes ≥ bucket, null when unsized) in each run. */
    public record Collectives(
            String kind,
            Long bucket,
            double referenceCalls,
            double candidateCalls,
            Double referenceBytes,
            Double candidateBytes,
            Double referenceBusbwGbps,
            Double candidateBusbwGbps) {}

    /** @param metrics the comparison's shared workload-scope rows (time_breakdown among them) */
    static ComparisonBreakdown of(List<Comparison.Row> metrics, ComparedRun ref, ComparedRun cand) {
        List<Split> split = new ArrayList<>();
        for (String part : SPLIT_PARTS) {
            for (Comparison.Row r : metrics) {
                if (r.metric().equals("time_breakdown") && part.equals(r.figure())) {
                    split.add(new Split(part, r.reference(), r.candidate()));
                }
            }
        }
        List<GpuTime> moved = new ArrayList<>(side(ref.byName(), cand.byName(), ref.ranks(), cand.ranks()));
        moved.sort(Comparator.comparingDouble((GpuTime g) -> -Math.abs(g.deltaMs()))
                .thenComparing(GpuTime::name));
        return new ComparisonBreakdown(
                split,
                side(ref.byCategory(), cand.byCategory(), ref.ranks(), cand.ranks()),
                moved.subList(0, Math.min(MOVED_KERNELS, moved.size())),
                collectives(ref, cand));
    }

    /** Every name of either run, with its time per rank in each (0 where a run has none), largest first. */
    private static List<GpuTime> side(List<KernelTime> ref, List<KernelTime> cand, long refRanks, long candRanks) {
        Map<String, GpuTime> byName = new LinkedHashMap<>();
        for (KernelTime k : ref) {
            byName.put(k.name(), new GpuTime(k.name(), k.category(), perRankMs(k.durNs(), refRanks), 0));
        }
        for (KernelTime k : cand) {
            GpuTime r = byName.get(k.name());
            byName.put(
                    k.name(),
                    new GpuTime(
                            k.name(),
                            r != null ? r.category() : k.category(),
                            r != null ? r.referenceMs() : 0,
                            perRankMs(k.durNs(), candRanks)));
        }
        List<GpuTime> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparingDouble((GpuTime g) -> -Math.max(g.referenceMs(), g.candidateMs()))
                .thenComparing(GpuTime::name));
        return out;
    }

    private static List<Collectives> collectives(ComparedRun ref, ComparedRun cand) {
        Map<String, CommBucket[]> byBucket = new LinkedHashMap<>();
        for (CommBucket b : ref.collectives()) byBucket.computeIfAbsent(key(b), k -> new CommBucket[2])[0] = b;
        for (CommBucket b : cand.collectives()) byBucket.computeIfAbsent(key(b), k -> new CommBucket[2])[1] = b;
        List<Collectives> out = new ArrayList<>();
        for (CommBucket[] pair : byBucket.values()) {
            CommBucket any = pair[0] != null ? pair[0] : pair[1];
            out.add(new Collectives(
                    any.kind(),
                    any.bucket(),
                    calls(pair[0], ref.ranks()),
                    calls(pair[1], cand.ranks()),
                    bytes(pair[0], ref.ranks()),
                    bytes(pair[1], cand.ranks()),
                    pair[0] == null ? null : pair[0].busbwMedianGbps(),
                    pair[1] == null ? null : pair[1].busbwMedianGbps()));
        }
        out.sort(Comparator.comparing(Collectives::kind)
                .thenComparing(Collectives::bucket, Comparator.nullsFirst(Comparator.naturalOrder())));
        return out;
    }

    private static String key(CommBucket b) {
        return b.kind() + "\u0000" + Objects.toString(b.bucket(), "");
    }

    private static double calls(CommBucket b, long ranks) {
        return b == null || ranks == 0 ? 0 : (double) b.calls() / ranks;
    }

    private static Double bytes(CommBucket b, long ranks) {
        if (b == null || ranks == 0) return b == null ? 0.0 : null;
        return b.bytes() == null ? null : (double) b.bytes() / ranks;
    }

    private static double perRankMs(long durNs, long ranks) {
        return ranks == 0 ? 0 : durNs / 1e6 / ranks;
    }

    /** The breakdown as summary.json's "breakdown" object. */
    Map<String, Object> summary() {
        Map<String, Object> o = new LinkedHashMap<>();
        List<Map<String, Object>> split = new ArrayList<>();
        for (Split s : timeSplit)
            split.add(entries("part", s.part(), "reference_ms", s.reference(), "candidate_ms", s.candidate()));
        o.put("time_split", split);
        o.put("kernel_categories", gpuTimes(categories));
        o.put("kernels_moved_most", gpuTimes(movedKernels));
        List<Map<String, Object>> coll = new ArrayList<>();
        for (Collectives c : collectives) {
            coll.add(entries(
                    "kind",
                    c.kind(),
                    "bytes_at_least",
                    c.bucket(),
                    "reference_calls_per_rank",
                    c.referenceCalls(),
                    "candidate_calls_per_rank",
                    c.candidateCalls(),
                    "reference_bytes_per_rank",
                    c.referenceBytes(),
                    "candidate_bytes_per_rank",
                    c.candidateBytes(),
                    "reference_busbw_gbps",
                    c.referenceBusbwGbps(),
                    "candidate_busbw_gbps",
                    c.candidateBusbwGbps()));
        }
        o.put("collectives", coll);
        return o;
    }

    private static List<Map<String, Object>> gpuTimes(List<GpuTime> times) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (GpuTime g : times) {
            out.add(entries(
                    "name",
                    g.name(),
                    "category",
                    g.category(),
                    "reference_ms_per_rank",
                    g.referenceMs(),
                    "candidate_ms_per_rank",
                    g.candidateMs(),
                    "delta_ms_per_rank",
                    g.deltaMs()));
        }
        return out;
    }

    private static Map<String, Object> entries(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** The text sections, after the metric table. */
    String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("\nWhere the GPU time span went (time_breakdown, ms, mean over ranks)\n");
        ReportFormatting.Table split = new ReportFormatting.Table("part", "reference", "candidate", "delta");
        for (Split s : timeSplit) {
            split.row(
                    s.part(),
                    ReportFormatting.num(s.reference()),
                    ReportFormatting.num(s.candidate()),
                    s.reference() == null || s.candidate() == null
                            ? "-"
                            : ReportFormatting.num(s.candidate() - s.reference()));
        }
        sb.append(timeSplit.isEmpty() ? "  (neither run has GPU activity)\n" : split.render("  "));
        sb.append("\nGPU time by kernel category (ms per rank)\n").append(gpuTable(categories, false));
        sb.append("\nKernels whose time moved most (ms per rank)\n").append(gpuTable(movedKernels, true));
        sb.append("\nCollectives by kind and size (calls and bytes per rank; median bus bandwidth, GB/s)\n");
        ReportFormatting.Table t = new ReportFormatting.Table(
                "kind", "bytes >=", "calls ref", "calls cand", "bytes ref", "bytes cand", "busbw ref", "busbw cand");
        for (Collectives c : collectives) {
            t.row(
                    c.kind(),
                    ReportFormatting.bucket(c.bucket()),
                    ReportFormatting.num(c.referenceCalls()),
                    ReportFormatting.num(c.candidateCalls()),
                    ReportFormatting.num(c.referenceBytes()),
                    ReportFormatting.num(c.candidateBytes()),
                    ReportFormatting.num(c.referenceBusbwGbps()),
                    ReportFormatting.num(c.candidateBusbwGbps()));
        }
        sb.append(collectives.isEmpty() ? "  (no communication in either run)\n" : t.render("  "));
        return sb.toString();
    }

    private static String gpuTable(List<GpuTime> times, boolean withCategory) {
        if (times.isEmpty()) return "  (no GPU activity in either run)\n";
        ReportFormatting.Table t = withCategory
                ? new ReportFormatting.Table("kernel", "category", "reference", "candidate", "delta")
                : new ReportFormatting.Table("category", "reference", "candidate", "delta");
        for (GpuTime g : times) {
            if (withCategory) {
                t.row(
                        ReportFormatting.shorten(g.name()),
                        g.category(),
                        ReportFormatting.num(g.referenceMs()),
                        ReportFormatting.num(g.candidateMs()),
                        ReportFormatting.num(g.deltaMs()));
            } else {
                t.row(
                        g.name(),
                        ReportFormatting.num(g.referenceMs()),
                        ReportFormatting.num(g.candidateMs()),
                        ReportFormatting.num(g.deltaMs()));
            }
        }
        return t.render("  ");
    }
}
