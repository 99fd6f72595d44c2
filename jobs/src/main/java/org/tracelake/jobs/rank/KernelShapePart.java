package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;

/**
 * A rank's compute kernels grouped by identical work (METRICS.md §4 gpu_slowness): (kernel name, grid, block), the
 * geometry null where the format has none; per group the count, Σ dur and the nearest-rank median duration, which is
 * all the cross-rank comparison needs of the rank.
 */
public final class KernelShapePart implements RankPart {
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
