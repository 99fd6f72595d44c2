package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_MEANINGFUL;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;
import static org.tracelake.schemas.MetricSchema.STATUS_PARTIAL;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.BusBandwidth;
import org.tracelake.udfs.CollectiveKind;

/**
 * Collectives and communication (METRICS.md §4): calls, bytes, CCL-Bench's rank-0 volumes, communication time,
 * CCL-Bench's total_communication_time and communication_fraction, bus bandwidth by kind and size, the Hockney fit.
 */
final class CommunicationFamily {
    private CommunicationFamily() {}

    static final Metric COLL_CALL_NUM = Metric.of("coll_call_num");
    static final Metric COMM_BYTES_TOTAL = Metric.of("comm_bytes_total");
    static final Metric COLLECTIVE_VOL_ALLREDUCE_GB = Metric.of("collective_vol_allreduce_gb");
    static final Metric COLLECTIVE_VOL_ALLGATHER_GB = Metric.of("collective_vol_allgather_gb");
    static final Metric COLLECTIVE_VOL_REDUCESCATTER_GB = Metric.of("collective_vol_reducescatter_gb");
    static final Metric COLLECTIVE_VOL_ALLTOALL_GB = Metric.of("collective_vol_alltoall_gb");
    static final Metric COLLECTIVE_VOL_TOTAL_GB = Metric.of("collective_vol_total_gb");
    static final Metric COMM_TIME_S = Metric.of("comm_time_s");
    static final Metric TOTAL_COMMUNICATION_TIME = Metric.of("total_communication_time");
    static final Metric COMMUNICATION_FRACTION = Metric.of("communication_fraction");
    static final Metric BUSBW_GBPS = Metric.of("busbw_gbps");
    static final Metric BANDWIDTH_UTILIZATION_ALLGATHER = Metric.of("bandwidth_utilization_allgather");
    static final Metric BANDWIDTH_UTILIZATION_ALLREDUCE = Metric.of("bandwidth_utilization_allreduce");
    static final Metric BANDWIDTH_UTILIZATION_REDUCESCATTER = Metric.of("bandwidth_utilization_reducescatter");
    static final Metric BANDWIDTH_UTILIZATION_ALLTOALL = Metric.of("bandwidth_utilization_alltoall");
    static final Metric HOCKNEY_ALPHA_S = Metric.of("hockney_alpha_s");
    static final Metric HOCKNEY_BETA_S_PER_BYTE = Metric.of("hockney_beta_s_per_byte");
    static final Metric HOCKNEY_INVERSE_BETA_BPS = Metric.of("hockney_inverse_beta_Bps");

    static void compute(Workload w) {
        callsAndBytes(w);
        rank0Volume(w);
        commTime(w);
        totalCommunicationTime(w);
        communicationFraction(w);
        busBandwidth(w);
    }

    private static void callsAndBytes(Workload w) {
        int nRanks = w.ranks.size();
        List<Long> counts = new ArrayList<>();
        long knownAll = 0;
        long unknownAll = 0;
        long nAll = 0;
        Map<String, long[]> byKind = new LinkedHashMap<>(); // kind → count, Σ size, unknown, Σ dur
        for (RankSummary r : w.ranks) {
            long known = 0;
            long unknown = 0;
            Map<Long, Long> perStep = new TreeMap<>();
            for (CommInstance c : r.comm) {
                if (c.sizeBytes() != null) known += c.sizeBytes();
                else unknown++;
                long[] k = byKind.computeIfAbsent(c.kind(), x -> new long[4]);
                k[0]++;
                k[1] += c.sizeBytes() == null ? 0 : c.sizeBytes();
                if (c.sizeBytes() == null) k[2]++;
                k[3] += c.dur();
                if (c.step() != null) perStep.merge(c.step(), 1L, Long::sum);
            }
            long n = r.comm.size();
            counts.add(n);
            knownAll += known;
            unknownAll += unknown;
            nAll += n;
            w.add(COLL_CALL_NUM.at(r.rank).value((double) n));
            perStep.forEach((step, c) -> w.add(COLL_CALL_NUM.step(r.rank, step).value((double) c)));
            bytesRow(w, Where.rank(r.rank), known, unknown, n, "collective instances");
        }
        if (nRanks == 0) return;
        w.add(COLL_CALL_NUM.workload().value(Stats.mean(counts)));
        bytesRow(w, Where.workload(), knownAll, unknownAll, nAll, "collective instances");
        byKind.forEach((kind, k) -> {
            w.add(COLL_CALL_NUM.key(kind).value((double) k[0] / nRanks));
            bytesRow(w, Where.key(kind), k[1], k[2], k[0], "instances");
            w.add(COMM_TIME_S.key(kind).value(k[3] / 1e9 / nRanks));
        });
    }

    /**
     * A comm_bytes_total row: the sum of the known sizes, partial when some are unknown (the reason counts them); when
     * none is known there is no sum to give, so the value is null and missing_input (issue 46: 0.0 "partial").
     */
    private static void bytesRow(Workload w, Where where, long known, long unknown, long n, String what) {
        boolean none = n > 0 && unknown == n;
        String reason = none
                ? "none of the " + n + " " + what + " has a known size (no message-size args on the kernel, its CPU op"
                        + " or an execution trace)"
                : unknown > 0 ? unknown + " of " + n + " " + what + " have no known size" : null;
        w.add(COMM_BYTES_TOTAL
                .at(where)
                .row(
                        none ? null : (double) known,
                        none ? STATUS_MISSING_INPUT : unknown > 0 ? STATUS_PARTIAL : STATUS_OK,
                        reason));
    }

    /**
     * collective_vol_*_gb (CCL-Bench): rank 0 only, Σ in_bytes / 1e9 per kind; total = the sum of the four; a
     * workload row and the same number as rank 0's rank row. Unknown sizes make it partial.
     */
    private static void rank0Volume(Workload w) {
        RankSummary r0 = w.ranks.stream().filter(r -> r.rank == 0).findFirst().orElse(null);
        if (r0 == null) return;
        String[] kinds = {
            CollectiveKind.ALL_REDUCE,
            CollectiveKind.ALL_GATHER,
            CollectiveKind.REDUCE_SCATTER,
            CollectiveKind.ALL_TO_ALL
        };
        Metric[] metrics = {
            COLLECTIVE_VOL_ALLREDUCE_GB,
            COLLECTIVE_VOL_ALLGATHER_GB,
            COLLECTIVE_VOL_REDUCESCATTER_GB,
            COLLECTIVE_VOL_ALLTOALL_GB
        };
        double[] gb = new double[4];
        long[] unknown = new long[4];
        for (int i = 0; i < 4; i++) {
            Long sum = null;
            for (CommInstance c : r0.comm) {
                if (!kinds[i].equals(c.kind())) continue;
                if (c.inBytes() == null) unknown[i]++;
                else sum = (sum == null ? 0 : sum) + c.inBytes();
            }
            gb[i] = (sum == null ? 0 : sum) / 1e9;
        }
        for (int i = 0; i <= 4; i++) {
            Metric metric = i < 4 ? metrics[i] : COLLECTIVE_VOL_TOTAL_GB;
            double value = i < 4 ? gb[i] : gb[0] + gb[1] + gb[2] + gb[3];
            long u = i < 4 ? unknown[i] : unknown[0] + unknown[1] + unknown[2] + unknown[3];
            for (Where where : new Where[] {Where.workload(), Where.rank(0)}) {
                w.add(metric.at(where)
                        .row(
                                value,
                                u > 0 ? STATUS_PARTIAL : STATUS_OK,
                                u > 0 ? u + " of rank 0's instances of this kind have no known size" : null));
            }
        }
    }

    /** comm_time_s: |union of communication intervals| per rank; workload = the mean over ranks. */
    private static void commTime(Workload w) {
        List<Double> values = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            if (r.whole.isEmpty()) continue;
            long union = r.whole.getOrDefault(RankFactNames.COMM_UNION, 0L);
            w.add(COMM_TIME_S.at(r.rank).value(union / 1e9));
            values.add((double) union);
        }
        if (!values.isEmpty()) w.add(COMM_TIME_S.workload().value(Stats.mean(values) / 1e9));
    }

    /**
     * total_communication_time (CCL-Bench): per rank, merged communication-kernel time ÷ the number of trimmed steps
     * (clipped to the trimmed span only with more than two steps); no steps: the merged total. Mean over ranks.
     */
    private static void totalCommunicationTime(Workload w) {
        List<Double> values = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            if (!r.whole.containsKey(RankFactNames.KERNEL_FIRST)) continue;
            long trimmed = r.whole.getOrDefault(RankFactNames.TRIMMED_STEPS, 0L);
            double value = (trimmed > 0
                            ? (double) r.whole.get(RankFactNames.CCL_COMM_PER_STEP_BASIS) / trimmed
                            : (double) r.whole.getOrDefault(RankFactNames.CCL_COMM_TOTAL, 0L))
                    / 1e9;
            values.add(value);
            w.add(TOTAL_COMMUNICATION_TIME.at(r.rank).value(value));
        }
        if (!values.isEmpty()) {
            w.add(TOTAL_COMMUNICATION_TIME.workload().value(Stats.mean(values)));
        }
    }

    /**
     * communication_fraction (CCL-Bench): per rank per trimmed step, Σ dur of communication kernels over Σ dur of all
     * kernels overlapping the window × 100; mean over steps, then over ranks. A trimmed step none of whose kernels
     * overlap its window because they all run after it (a graph-replayed decode step, METRICS.md §1) is measured
     * over its own kernels, the GPU work of its span, rather than left out.
     */
    static boolean communicationFraction(Workload w) {
        List<Double> rankMeans = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            List<Double> pcts = new ArrayList<>();
            r.steps.forEach((step, f) -> {
                Long kernel = f.get(RankFactNames.CCL_KERNEL_DUR_OVERLAPPING);
                Long comm = f.get(RankFactNames.CCL_COMM_DUR_OVERLAPPING);
                if ((kernel == null || kernel <= 0) && f.get(RankFactNames.GPU_SPAN_END) != null) {
                    kernel = f.get(RankFactNames.STEP_KERNEL_DUR);
                    comm = f.get(RankFactNames.STEP_COMM_KERNEL_DUR);
                }
                if (f.getOrDefault(RankFactNames.TRIMMED, 0L) != 1 || kernel == null || kernel <= 0) return;
                double pct = 100.0 * comm / kernel;
                pcts.add(pct);
                w.add(COMMUNICATION_FRACTION.step(r.rank, step).value(pct));
            });
            if (pcts.isEmpty()) continue;
            Double mean = Stats.mean(pcts);
            rankMeans.add(mean);
            w.add(COMMUNICATION_FRACTION.at(r.rank).value(mean));
        }
        if (rankMeans.isEmpty()) return false;
        w.add(COMMUNICATION_FRACTION.workload().value(Stats.mean(rankMeans)));
        return true;
    }

    /** A busbw sample: a communication activity with a known size (0 included), n ≥ 2 and dur > 0. */
    static boolean isSample(CommInstance c) {
        return c.sizeBytes() != null
                && c.sizeBytes() >= 0
                && c.groupSize() != null
                && c.groupSize() >= 2
                && c.dur() > 0;
    }

    /**
     * busbw_gbps: median bus bandwidth per kind (nccl-tests convention), and per power-of-2 size bucket;
     * bandwidth_utilization_* the same medians in CCL-Bench units (In msg nelems bytes, GiB/s); the Hockney fit.
     */
    private static void busBandwidth(Workload w) {
        Map<String, List<Double>> byKind = new LinkedHashMap<>();
        Map<String, List<Double>> byBucket = new LinkedHashMap<>();
        Map<String, List<Double>> ccl = new LinkedHashMap<>();
        List<double[]> fit = new ArrayList<>();
        Set<Long> fitSizes = new HashSet<>();
        Set<Double> fitXs = new HashSet<>();
        for (RankSummary r : w.ranks) {
            for (CommInstance c : r.comm) {
                if (!isSample(c)) continue;
                Double busbw = BusBandwidth.busbwGBps(c.kind(), c.inBytes(), c.outBytes(), c.groupSize(), c.dur());
                byKind.computeIfAbsent(c.kind(), k -> new ArrayList<>()).add(busbw);
                byBucket.computeIfAbsent(
                                c.kind() + " bytes>=" + BusBandwidth.sizeBucket(c.sizeBytes()), k -> new ArrayList<>())
                        .add(busbw);
                if (CCL_KINDS.containsKey(c.kind()) && c.inBytes() != null && c.inBytes() > 0) {
                    Double f = BusBandwidth.factor(c.kind(), c.groupSize());
                    ccl.computeIfAbsent(c.kind(), k -> new ArrayList<>())
                            .add(c.inBytes() / (c.dur() / 1e9) * f / 1073741824.0);
                }
                if (CollectiveKind.ALL_REDUCE.equals(c.kind())) {
                    double x = c.sizeBytes() * 2.0 * (c.groupSize() - 1) / c.groupSize();
                    fit.add(new double[] {x, c.dur() / 1e9});
                    fitSizes.add(c.sizeBytes());
                    fitXs.add(x);
                }
            }
        }
        byKind.forEach((kind, v) -> w.add(BUSBW_GBPS.workload().keyed(kind).value(median(v))));
        byBucket.forEach((key, v) -> w.add(BUSBW_GBPS.key(key).value(median(v))));
        ccl.forEach((kind, v) -> w.add(CCL_KINDS.get(kind).workload().value(median(v))));
        if (fit.size() >= 5 && fitSizes.size() >= 2 && fitXs.size() >= 2) hockney(w, Stats.fit(fit));
    }

    /** The kinds CCL-Bench gives a bandwidth_utilization_* of, and that metric. */
    private static final Map<String, Metric> CCL_KINDS = Map.of(
            CollectiveKind.ALL_GATHER, BANDWIDTH_UTILIZATION_ALLGATHER,
            CollectiveKind.ALL_REDUCE, BANDWIDTH_UTILIZATION_ALLREDUCE,
            CollectiveKind.REDUCE_SCATTER, BANDWIDTH_UTILIZATION_REDUCESCATTER,
            CollectiveKind.ALL_TO_ALL, BANDWIDTH_UTILIZATION_ALLTOALL);

    /** percentile(x, 0.5) of values that may hold nulls (ignored, as Spark's aggregate does). */
    private static Double median(List<Double> values) {
        List<Double> present = values.stream().filter(Objects::nonNull).toList();
        return Stats.percentile(present, 0.5);
    }

    /** Below this R² the fit explains too little of the durations to be read as a network (METRICS.md §4). */
    static final double HOCKNEY_MIN_R2 = 0.5;

    /**
     * The Hockney model dur = α + β · S·2(n−1)/n over all_reduce instances. It describes no network (METRICS.md §4),
     * and all three rows are null, not_meaningful, with α, β, R² (and the bound) in the reason, when β ≤ 0 or α < 0,
     * when R² < 0.5, or when 1/β exceeds the device's interconnect bandwidth per direction
     * (conf/device_interconnect_bw.csv): waiting inside mid-size collectives makes such fits report bandwidth no link
     * has.
     */
    private static void hockney(Workload w, Stats.Line line) {
        if (line == null) return;
        double alpha = line.intercept();
        double beta = line.slope();
        double r2 = line.r2();
        Double bound = w.peaks.interconnectBpsFor(w.card.xpuModel());
        String fitted = "alpha = " + SparkText.of(alpha) + " s, beta = " + SparkText.of(beta) + " s/byte, R² = "
                + SparkText.of(r2);
        String reason = null;
        if (!(beta > 0 && alpha >= 0)) {
            reason = "the all_reduce fit describes no network: " + fitted + " (needs beta > 0 and alpha >= 0)";
        } else if (r2 < HOCKNEY_MIN_R2) {
            reason = "the all_reduce fit explains too little of the durations: " + fitted + " (needs R² >= "
                    + HOCKNEY_MIN_R2 + ")";
        } else if (bound != null && 1.0 / beta > bound) {
            reason = "the all_reduce fit gives 1/beta = " + SparkText.of(1.0 / beta / 1e9)
                    + " GB/s, above the " + SparkText.of(bound / 1e9)
                    + " GB/s per direction of the device's interconnect ("
                    + w.card.xpuModel() + ", conf/device_interconnect_bw.csv): " + fitted
                    + "; waiting inside the collectives, not the link, sets such a slope";
        }
        boolean meaningful = reason == null;
        String status = meaningful ? STATUS_OK : STATUS_NOT_MEANINGFUL;
        w.add(HOCKNEY_ALPHA_S.workload().row(meaningful ? alpha : null, status, reason));
        w.add(HOCKNEY_BETA_S_PER_BYTE.workload().row(meaningful ? beta : null, status, reason));
        w.add(HOCKNEY_INVERSE_BETA_BPS.workload().row(meaningful ? 1.0 / beta : null, status, reason));
    }
}
