package org.tracelake.jobs.metrics.workload;

import static org.tracelake.jobs.metrics.workload.CommunicationFamily.COMMUNICATION_FRACTION;
import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.io.Serializable;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.workload.XlaFamily.XlaPart.Xla;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.rank.SparkCasts;
import org.tracelake.jobs.rank.XlaOps;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CollectiveKind;

/**
 * TPU / XLA metrics (METRICS.md §4, seed 002 names: CCL-Bench's group-21 tools), pooled over every chip for the
 * workload and the same formulas over one rank for rank rows. T = device_duration_ps when present, else the op's
 * duration; an async collective's T is the time it was in flight. Where the seed returns 0 or NaN for "nothing to
 * measure", the row has a null value and a reason; counts and sums of nothing are real zeros. communication_fraction
 * here only when CCL-Bench's step-based communication_fraction has no workload row.
 */
final class XlaFamily {
    private XlaFamily() {}

    static final Metric WALL_TIME_S = Metric.of("wall_time_s");
    static final Metric TOTAL_COMPUTE_TIME_S = Metric.of("total_compute_time_s");
    static final Metric TOTAL_COMM_TIME_S = Metric.of("total_comm_time_s");
    static final Metric AVG_COMM_KERNEL_TIME_S = Metric.of("avg_comm_kernel_time_s");
    static final Metric COMPUTE_UTILIZATION_PROXY = Metric.of("compute_utilization_proxy");
    static final Metric NUM_COMM_KERNELS = Metric.of("num_comm_kernels");
    static final Metric NUM_COMM_KERNELS_W_SIZE_AND_TIME = Metric.of("num_comm_kernels_w_size_and_time");
    static final Metric AVG_COMM_BANDWIDTH_GBPS = Metric.of("avg_comm_bandwidth_GBps");
    static final Metric ALLREDUCE_COMM_TIME_S = Metric.of("allreduce_comm_time_s");
    static final Metric ACHIEVED_FLOPS_FROM_TRACE_JSON = Metric.of("achieved_flops_from_trace_json");
    static final Metric TOTAL_MODEL_FLOPS_FROM_ARGS = Metric.of("total_model_flops_from_args");
    static final Metric FLOPS_PER_TOKEN_USED = Metric.of("flops_per_token_used");
    static final Metric ESTIMATED_TOTAL_TOKENS = Metric.of("estimated_total_tokens");
    static final Metric ESTIMATED_THROUGHPUT_TOKENS_PER_S = Metric.of("estimated_throughput_tokens_per_s");

    /** The totals one row of figures is computed from (a rank, or the workload pooled). */
    private static final class Totals {
        Double wallS;
        double computeS;
        long withFlops;
        double modelFlops;
        Double timedFlops;
        Double timedFlopsS;
        long nComm;
        double commS;
        long nSized;
        double bytesPerSSum;
        Double allreduceS;
    }

    static void compute(Workload w, boolean cclCommunicationFraction) {
        if (w.ranks.stream().noneMatch(r -> r.part(Xla.class).anyOps())) return;
        Totals whole = new Totals();
        Long wallFirst = null;
        Long wallLast = null;
        for (RankSummary r : w.ranks) {
            Xla x = r.part(Xla.class);
            if (x.wallFirst() != null) {
                wallFirst = wallFirst == null ? x.wallFirst() : Math.min(wallFirst, x.wallFirst());
                wallLast = wallLast == null ? x.wallLast() : Math.max(wallLast, x.wallLast());
            }
            if (!x.anyOps()) continue;
            Totals t = new Totals();
            t.wallS = x.wallFirst() == null ? null : (x.wallLast() - x.wallFirst()) / 1e9;
            add(t, r);
            add(whole, r);
            rows(w, t, r.rank, !cclCommunicationFraction);
        }
        Xla unranked = w.unranked == null ? null : w.unranked.part(Xla.class);
        if (unranked != null && unranked.wallFirst() != null) {
            wallFirst = wallFirst == null ? unranked.wallFirst() : Math.min(wallFirst, unranked.wallFirst());
            wallLast = wallLast == null ? unranked.wallLast() : Math.max(wallLast, unranked.wallLast());
        }
        whole.wallS = wallFirst == null ? null : (wallLast - wallFirst) / 1e9;
        rows(w, whole, null, !cclCommunicationFraction);
    }

    private static void add(Totals t, RankSummary r) {
        Xla x = r.part(Xla.class);
        t.computeS += x.computeS();
        t.withFlops += x.withFlops();
        t.modelFlops += x.modelFlops();
        if (x.timedFlops() != null) {
            t.timedFlops = (t.timedFlops == null ? 0 : t.timedFlops) + x.timedFlops();
            t.timedFlopsS = (t.timedFlopsS == null ? 0 : t.timedFlopsS) + x.timedFlopsS();
        }
        for (CommInstance c : r.comm) {
            if (c.xlaSeconds() == null) continue;
            double s = c.xlaSeconds();
            t.nComm++;
            t.commS += s;
            if (c.sizeBytes() != null && c.sizeBytes() > 0 && s > 0) {
                t.nSized++;
                t.bytesPerSSum += c.sizeBytes() / s;
                if (CollectiveKind.ALL_REDUCE.equals(c.kind()))
                    t.allreduceS = (t.allreduceS == null ? 0 : t.allreduceS) + s;
            }
        }
    }

    private static void rows(Workload w, Totals t, Integer rank, boolean withCommunicationFraction) {
        boolean whole = rank == null;
        Long chips = w.card.deviceCount();
        Long params = w.card.params();
        int perParam = w.card.isInference() ? 2 : 6;
        Double fpt = params != null && params > 0 ? (double) (perParam * params) : null;
        Double tokens = t.withFlops > 0 && fpt != null ? t.modelFlops / fpt : null;
        Double wall = t.wallS;
        boolean wallPositive = wall != null && wall > 0;
        Double meanBps = t.nSized > 0 ? t.bytesPerSSum / t.nSized : null;
        Object[][] figures = {
            {WALL_TIME_S, wall, wall == null ? "no complete event with a time and a duration" : null},
            {TOTAL_COMPUTE_TIME_S, t.computeS, null},
            {TOTAL_COMM_TIME_S, t.commS, null},
            {
                AVG_COMM_KERNEL_TIME_S,
                t.nComm > 0 ? t.commS / t.nComm : null,
                t.nComm == 0 ? "no communication ops on the XLA devices" : null
            },
            {
                COMPUTE_UTILIZATION_PROXY,
                wallPositive ? t.computeS / wall : null,
                wall != null && !wallPositive ? "wall time is zero" : null
            },
            {
                COMMUNICATION_FRACTION,
                wallPositive && withCommunicationFraction ? 100.0 * t.commS / wall : null,
                wall != null && !wallPositive ? "wall time is zero" : null
            },
            {NUM_COMM_KERNELS, (double) t.nComm, null},
            {NUM_COMM_KERNELS_W_SIZE_AND_TIME, (double) t.nSized, null},
            {
                AVG_COMM_BANDWIDTH_GBPS,
                meanBps == null || chips == null ? null : (chips - 1) * meanBps / 1e9,
                t.nSized == 0
                        ? "no communication op with a known size and a duration > 0"
                        : chips == null ? "card lacks hardware.xpu_spec.total_count (n_chips)" : null
            },
            {
                ALLREDUCE_COMM_TIME_S,
                t.allreduceS,
                t.allreduceS == null ? "no all-reduce with a known size and a duration > 0" : null
            },
            {
                ACHIEVED_FLOPS_FROM_TRACE_JSON,
                t.timedFlopsS != null && t.timedFlopsS > 0 ? t.timedFlops / t.timedFlopsS : null,
                t.timedFlopsS == null || !(t.timedFlopsS > 0)
                        ? "no XLA op with model_flops > 0 and a duration > 0"
                        : null
            },
            {
                TOTAL_MODEL_FLOPS_FROM_ARGS,
                t.withFlops > 0 ? t.modelFlops : null,
                t.withFlops == 0 ? "no XLA op carries model_flops" : null
            },
            {
                FLOPS_PER_TOKEN_USED,
                whole ? fpt : null,
                !whole ? "workload only" : fpt == null ? "card lacks model_arch.num_params" : null
            },
            {
                ESTIMATED_TOTAL_TOKENS,
                whole ? tokens : null,
                !whole
                        ? "workload only"
                        : t.withFlops == 0
                                ? "no XLA op carries model_flops"
                                : fpt == null ? "card lacks model_arch.num_params" : null
            },
            {
                ESTIMATED_THROUGHPUT_TOKENS_PER_S,
                whole && wallPositive && tokens != null ? tokens / wall : null,
                !whole
                        ? "workload only"
                        : t.withFlops == 0
                                ? "no XLA op carries model_flops"
                                : fpt == null
                                        ? "card lacks model_arch.num_params"
                                        : !wallPositive ? "wall time is zero" : null
            }
        };
        for (Object[] f : figures) {
            Metric metric = (Metric) f[0];
            Double value = (Double) f[1];
            if (!whole) {
                if (value != null) w.add(metric.at(rank).value(value));
                continue;
            }
            if (metric == COMMUNICATION_FRACTION && !withCommunicationFraction) continue;
            w.add(metric.workload()
                    .row(
                            value,
                            value != null ? STATUS_OK : STATUS_MISSING_INPUT,
                            value != null
                                    ? null
                                    : f[2] != null ? (String) f[2] : "not computable from this workload's inputs"));
        }
    }

    /**
     * What the XLA rules read of a rank (METRICS.md §4 "TPU / XLA"): its device ops ({@link XlaOps}), their compute time
     * and model_flops, and the wall time of the rank's complete events of an XLA file (host lines too).
     */
    static final class XlaPart implements RankPart {
        private boolean anyOps;
        private double computeS;
        private long withFlops;
        private double modelFlops;
        private Double timedFlops;
        private Double timedFlopsS;
        private Long wallFirst;
        private Long wallLast;

        @Override
        public void accept(RankEvent e) {
            if (e.ts != null && "X".equals(e.ph) && XlaOps.isXlaFormat(e)) {
                wallFirst = wallFirst == null ? e.ts : Math.min(wallFirst, e.ts);
                wallLast = wallLast == null ? e.end() : Math.max(wallLast, e.end());
            }
            if (XlaOps.isXlaOp(e)) op(e);
        }

        private void op(RankEvent e) {
            anyOps = true;
            double t = XlaOps.seconds(e);
            if (ActivityClass.COMPUTE.equals(e.activityClass)) computeS += t;
            Double flops = SparkCasts.toDouble(e.argModelFlops);
            if (flops != null) {
                withFlops++;
                modelFlops += flops;
                if (flops > 0 && t > 0) {
                    timedFlops = (timedFlops == null ? 0.0 : timedFlops) + flops;
                    timedFlopsS = (timedFlopsS == null ? 0.0 : timedFlopsS) + t;
                }
            }
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new Xla(anyOps, computeS, withFlops, modelFlops, timedFlops, timedFlopsS, wallFirst, wallLast);
        }

        /**
         * Whether the rank has device ops; Σ T (s) of compute ops; ops with model_flops, their Σ, and Σ flops and Σ T over
         * those with both above 0 (null without any); first start and last end of the XLA file's complete events.
         */
        public record Xla(
                boolean anyOps,
                double computeS,
                long withFlops,
                double modelFlops,
                Double timedFlops,
                Double timedFlopsS,
                Long wallFirst,
                Long wallLast)
                implements Serializable {}
    }
}
