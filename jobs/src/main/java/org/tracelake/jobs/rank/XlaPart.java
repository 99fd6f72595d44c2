package org.tracelake.jobs.rank;

import java.io.Serializable;
import org.tracelake.udfs.ActivityClass;

/**
 * What the XLA rules read of a rank (METRICS.md §4 "TPU / XLA"): its device ops ({@link XlaOps}), their compute time
 * and model_flops, and the wall time of the rank's complete events of an XLA file (host lines too).
 */
public final class XlaPart implements RankPart {
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
