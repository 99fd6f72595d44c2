package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.KernelNameRules;

/**
 * The rank's Kineto kernels ({@code cat} kernel), the set CCL-Bench's leaderboard metrics read
 * (dominant_kernel_concentration, moe_fraction, mean_sm_coverage) and its straggler's ncclDevKernel_* time.
 */
public final class LeaderboardKernelPart implements RankPart {
    private long kernels;
    private long ns;
    private final Map<String, Long> byName = new HashMap<>();
    private long moeNs;
    private long smKernels;
    private long smDurNs;
    private double smWeightedNs;
    private boolean anyNcclDevKernel;
    private long ncclDevKernelNs;

    @Override
    public void accept(RankEvent e) {
        if (!e.isGpu() || e.ts == null || !ActivityClass.CAT_KERNEL.equals(e.cat)) return;
        kernels++;
        ns += e.dur;
        byName.merge(e.name, e.dur, Long::sum);
        if (e.name != null && KernelNameRules.isMoeKernel(e.name)) moeNs += e.dur;
        Double blocksPerSm = SparkCasts.toDouble(e.argBlocksPerSm);
        if (blocksPerSm != null) {
            smKernels++;
            smDurNs += e.dur;
            // least(x, 1.0) as Spark orders doubles: NaN above every number
            smWeightedNs += e.dur * (blocksPerSm.isNaN() ? 1.0 : Math.min(blocksPerSm, 1.0));
        }
        if (KernelNameRules.isNcclDevKernel(e.name)) {
            anyNcclDevKernel = true;
            ncclDevKernelNs += e.dur;
        }
    }

    @Override
    public Serializable finish(RankSummary done) {
        return new LeaderboardKernels(
                kernels, ns, byName, moeNs, smKernels, smDurNs, smWeightedNs, anyNcclDevKernel, ncclDevKernelNs);
    }

    /**
     * How many kernels, Σ dur per name (null name included) and in all, in MoE kernels; kernels with a "blocks per SM"
     * arg: how many, Σ dur and Σ dur × min(blocks per SM, 1); ncclDevKernel_* kernels: whether any, Σ dur.
     */
    public record LeaderboardKernels(
            long kernels,
            long ns,
            Map<String, Long> byName,
            long moeNs,
            long smKernels,
            long smDurNs,
            double smWeightedNs,
            boolean anyNcclDevKernel,
            long ncclDevKernelNs)
            implements Serializable {}
}
