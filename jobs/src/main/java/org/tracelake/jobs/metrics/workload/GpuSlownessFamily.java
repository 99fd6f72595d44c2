package org.tracelake.jobs.metrics.workload;

import static org.tracelake.jobs.metrics.Metrics.GPU_SLOWNESS;
import static org.tracelake.jobs.metrics.Metrics.GPU_SLOWNESS_SCORE;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.rank.KernelShapePart;
import org.tracelake.jobs.rank.RankSummary;

/**
 * gpu_slowness (METRICS.md §4 "Why"): identical work compared across ranks. Groups of compute kernels with one name,
 * grid and block present on every rank; a rank's score is Σ of its time in them over what the typical rank's median
 * duration would give its count of them: 1.2 means its identical kernels took 20 % longer, a hardware suspect.
 */
final class GpuSlownessFamily {
    private GpuSlownessFamily() {}

    static void compute(Workload w) {
        List<KernelShapePart.KernelShapes> shapes = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            KernelShapePart.KernelShapes s = r.part(KernelShapePart.KernelShapes.class);
            shapes.add(s == null ? new KernelShapePart.KernelShapes(Map.of()) : s);
        }
        if (w.ranks.size() < 2) {
            missing(w, "needs at least two ranks (" + w.ranks.size() + " here)");
            return;
        }
        Set<KernelShapePart.Shape> common = new HashSet<>(shapes.get(0).groups().keySet());
        for (KernelShapePart.KernelShapes s : shapes)
            common.retainAll(s.groups().keySet());
        if (common.isEmpty()) {
            missing(w, "no compute kernel (name, grid, block) runs on every one of the " + w.ranks.size() + " ranks");
            return;
        }
        double[] expected = new double[w.ranks.size()];
        long[] actual = new long[w.ranks.size()];
        for (KernelShapePart.Shape g : common) {
            List<Long> medians = new ArrayList<>();
            for (KernelShapePart.KernelShapes s : shapes)
                medians.add(s.groups().get(g).medianNs());
            long ref = LatenessFamily.median(medians);
            for (int i = 0; i < shapes.size(); i++) {
                KernelShapePart.Group d = shapes.get(i).groups().get(g);
                actual[i] += d.totalNs();
                expected[i] += (double) d.count() * ref;
            }
        }
        Double max = null;
        Integer maxRank = null;
        for (int i = 0; i < shapes.size(); i++) {
            if (!(expected[i] > 0)) continue;
            double score = actual[i] / expected[i];
            int rank = w.ranks.get(i).rank;
            w.add(GPU_SLOWNESS_SCORE.at(rank).value(score));
            if (max == null || score > max) { // ranks ascending: ties keep the lower rank
                max = score;
                maxRank = rank;
            }
        }
        if (max == null) {
            missing(w, "every kernel present on all ranks has zero duration");
            return;
        }
        w.add(MAX.workload().value(max));
        w.add(RANK.workload().value(maxRank.doubleValue()));
    }

    private static void missing(Workload w, String reason) {
        w.add(MAX.workload().notMeaningful(reason));
        w.add(RANK.workload().notMeaningful(reason));
    }

    private static final Figure MAX = GPU_SLOWNESS.figure("max");
    private static final Figure RANK = GPU_SLOWNESS.figure("rank");
}
