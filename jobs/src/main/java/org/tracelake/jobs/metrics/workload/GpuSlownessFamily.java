package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.ActivityClass;

/**
 * gpu_slowness (METRICS.md §4 "Why"): identical work compared across ranks. Groups of compute kernels with one name,
 * grid and block present on every rank; a rank's score is Σ of its time in them over what the typical rank's median
 * duration would give its count of them: 1.2 means its identical kernels took 20 % longer, a hardware suspect.
 */
final class GpuSlownessFamily {
    private GpuSlownessFamily() {}

    static final Metric GPU_SLOWNESS = Metric.of("gpu_slowness");
    /** A rank's slowness score (the workload's figures are the largest of them and its rank). */
    static final Figure GPU_SLOWNESS_SCORE = GPU_SLOWNESS.unlisted("score", "ratio");

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

    /**
     * A rank's compute kernels grouped by identical work (METRICS.md §4 gpu_slowness): (kernel name, grid, block), the
     * geometry null where the format has none; per group the count, Σ dur and the nearest-rank median duration, which is
     * all the cross-rank comparison needs of the rank.
     */
    static final class KernelShapePart implements RankPart {
        private final Map<Shape, long[]> durations = new HashMap<>();
        private final Map<Shape, Integer> counts = new HashMap<>();

        @Override
        public void accept(RankEvent e) {
            if (e.ts == null || e.name == null || !ActivityClass.COMPUTE.equals(e.activityClass)) return;
            Shape g = new Shape(e.name, e.argGrid, e.argBlock);
            int n = counts.getOrDefault(g, 0);
            long[] d = durations.get(g);
            if (d == null || n == d.length) {
                d = d == null ? new long[4] : Arrays.copyOf(d, n * 2);
                durations.put(g, d);
            }
            d[n] = e.dur;
            counts.put(g, n + 1);
        }

        @Override
        public Serializable finish(RankSummary done) {
            Map<Shape, Group> out = new HashMap<>();
            durations.forEach((g, d) -> {
                int n = counts.get(g);
                long[] sorted = Arrays.copyOf(d, n);
                Arrays.sort(sorted);
                long total = 0;
                for (long x : sorted) total += x;
                out.put(g, new Group(n, total, sorted[(n + 1) / 2 - 1])); // nearest-rank median: the ⌈n/2⌉-th smallest
            });
            return new KernelShapes(out);
        }

        /** Identical work: a kernel name and its launch geometry as the trace wrote it. */
        public record Shape(String name, String grid, String block) implements Serializable {}

        /** A rank's kernels of one shape: count, Σ dur (ns), nearest-rank median dur (ns). */
        public record Group(long count, long totalNs, long medianNs) implements Serializable {}

        /** Every shape of the rank's compute kernels. */
        public record KernelShapes(Map<Shape, Group> groups) implements Serializable {}
    }
}
