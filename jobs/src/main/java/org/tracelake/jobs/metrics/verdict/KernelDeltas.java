package org.tracelake.jobs.metrics.verdict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The kernels that moved most between two runs (METRICS.md §4 "Run comparison verdicts"): per kernel name (or kernel
 * category, when the runs ran on different device models), its mean Σ duration per (rank, step) in B minus in A, a
 * kernel one run lacks counting 0 there; the top {@link #TOP} by |change|, ties by name.
 */
public final class KernelDeltas {
    private KernelDeltas() {}

    public static final int TOP = 5;

    /** How a kernel_step_time_ms row's key names a kernel ({@code name:<kernel>}; other keys are categories). */
    public static final String NAME_PREFIX = "name:";

    /** One kernel's change; {@code previousMs}/{@code ms} are its means per rank-step in A and in B. */
    public record Moved(int position, String kernel, double previousMs, double ms) implements java.io.Serializable {
        public double deltaMs() {
            return ms - previousMs;
        }
    }

    /** @param a kernel → mean ms per (rank, step) in run A; @param b the same in run B */
    public static List<Moved> top(Map<String, Double> a, Map<String, Double> b) {
        TreeSet<String> names = new TreeSet<>(a.keySet());
        names.addAll(b.keySet());
        List<Moved> all = new ArrayList<>();
        for (String n : names) all.add(new Moved(0, n, a.getOrDefault(n, 0.0), b.getOrDefault(n, 0.0)));
        all.sort(Comparator.comparingDouble((Moved m) -> -Math.abs(m.deltaMs())).thenComparing(Moved::kernel));
        List<Moved> out = new ArrayList<>();
        for (Moved m : all) {
            if (out.size() == TOP || m.deltaMs() == 0) break;
            out.add(new Moved(out.size() + 1, m.kernel(), m.previousMs(), m.ms()));
        }
        return out;
    }
}
