package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_RANK;
import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.rank.XlaPart.Xla;
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
            {"wall_time_s", wall, "s", wall == null ? "no complete event with a time and a duration" : null},
            {"total_compute_time_s", t.computeS, "s", null},
            {"total_comm_time_s", t.commS, "s", null},
            {
                "avg_comm_kernel_time_s",
                t.nComm > 0 ? t.commS / t.nComm : null,
                "s",
                t.nComm == 0 ? "no communication ops on the XLA devices" : null
            },
            {
                "compute_utilization_proxy",
                wallPositive ? t.computeS / wall : null,
                "ratio",
                wall != null && !wallPositive ? "wall time is zero" : null
            },
            {
                "communication_fraction",
                wallPositive && withCommunicationFraction ? 100.0 * t.commS / wall : null,
                "%",
                wall != null && !wallPositive ? "wall time is zero" : null
            },
            {"num_comm_kernels", (double) t.nComm, "count", null},
            {"num_comm_kernels_w_size_and_time", (double) t.nSized, "count", null},
            {
                "avg_comm_bandwidth_GBps",
                meanBps == null || chips == null ? null : (chips - 1) * meanBps / 1e9,
                "GB/s",
                t.nSized == 0
                        ? "no communication op with a known size and a duration > 0"
                        : chips == null ? "card lacks hardware.xpu_spec.total_count (n_chips)" : null
            },
            {
                "allreduce_comm_time_s",
                t.allreduceS,
                "s",
                t.allreduceS == null ? "no all-reduce with a known size and a duration > 0" : null
            },
            {
                "achieved_flops_from_trace_json",
                t.timedFlopsS != null && t.timedFlopsS > 0 ? t.timedFlops / t.timedFlopsS : null,
                "FLOP/s",
                t.timedFlopsS == null || !(t.timedFlopsS > 0)
                        ? "no XLA op with model_flops > 0 and a duration > 0"
                        : null
            },
            {
                "total_model_flops_from_args",
                t.withFlops > 0 ? t.modelFlops : null,
                "FLOP",
                t.withFlops == 0 ? "no XLA op carries model_flops" : null
            },
            {
                "flops_per_token_used",
                whole ? fpt : null,
                "FLOP/token",
                !whole ? "workload only" : fpt == null ? "card lacks model_arch.num_params" : null
            },
            {
                "estimated_total_tokens",
                whole ? tokens : null,
                "tokens",
                !whole
                        ? "workload only"
                        : t.withFlops == 0
                                ? "no XLA op carries model_flops"
                                : fpt == null ? "card lacks model_arch.num_params" : null
            },
            {
                "estimated_throughput_tokens_per_s",
                whole && wallPositive && tokens != null ? tokens / wall : null,
                "tokens/s",
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
            String metric = (String) f[0];
            Double value = (Double) f[1];
            if (!whole) {
                if (value != null) w.ok(metric, null, value, (String) f[2], SCOPE_RANK, rank, null, null);
                continue;
            }
            if (metric.equals("communication_fraction") && !withCommunicationFraction) continue;
            w.workloadRow(
                    metric,
                    null,
                    value,
                    (String) f[2],
                    value != null ? STATUS_OK : STATUS_MISSING_INPUT,
                    value != null ? null : f[3] != null ? (String) f[3] : "not computable from this workload's inputs");
        }
    }
}
