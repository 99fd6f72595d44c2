package org.tracelake.jobs.metrics.verdict;

import java.util.Arrays;
import org.tracelake.jobs.metrics.FigureReference.Direction;

/**
 * The run comparison verdict of METRICS.md §4 "Run comparison verdicts", on the per-step samples of one figure in a
 * reference run A and a candidate run B (for the step time: the trimmed step durations over all ranks). With nearest-rank
 * percentiles, {@code Δ = med(B) ÷ med(A) − 1}, {@code spread(X) = (P90(X) − P10(X)) ÷ (2·med(X))} and {@code noise =
 * max(0.02, spread(A), spread(B))}: the samples rose when {@code Δ > noise} and even B's 10th percentile lies above A's
 * median, fell when {@code Δ < −noise} and B's 90th percentile lies below A's median, held when {@code |Δ| ≤ noise}, and
 * otherwise the runs overlap too much to say. Whether rising is a regression is the figure's direction. A pure function:
 * the refresh calls it on the executors, the compare report on the driver, with the same result.
 */
public final class RunVerdict {
    private RunVerdict() {}

    /** The smallest noise floor: a change of 2 % or less is never called real. */
    public static final double MIN_NOISE = 0.02;

    /** Which way the samples moved, before the figure's direction says whether that is better. */
    public enum Movement {
        ROSE,
        FELL,
        NEUTRAL,
        INCONCLUSIVE
    }

    public static final String REGRESSION_LIKELY = "regression_likely";
    public static final String IMPROVEMENT_LIKELY = "improvement_likely";
    public static final String NEUTRAL = "neutral";
    public static final String INCONCLUSIVE = "inconclusive";

    /**
     * @param medianA med(A), ms for step times
     * @param medianB med(B)
     * @param change Δ = med(B) ÷ med(A) − 1; null when a run has fewer than two samples or med(A) is 0
     * @param noise the noise floor; null when the change is
     */
    public record Result(Movement movement, Double medianA, Double medianB, Double change, Double noise)
            implements java.io.Serializable {
        /** The verdict word for a figure of this direction (the step time's is {@code lower}). */
        public String verdict(Direction direction) {
            return switch (movement) {
                case NEUTRAL -> NEUTRAL;
                case INCONCLUSIVE -> INCONCLUSIVE;
                case ROSE ->
                    direction == Direction.LOWER
                            ? REGRESSION_LIKELY
                            : direction == Direction.HIGHER ? IMPROVEMENT_LIKELY : INCONCLUSIVE;
                case FELL ->
                    direction == Direction.LOWER
                            ? IMPROVEMENT_LIKELY
                            : direction == Direction.HIGHER ? REGRESSION_LIKELY : INCONCLUSIVE;
            };
        }
    }

    /**
     * The verdict on two runs' samples. A run with fewer than two samples has no spread to weigh a change against, and
     * a reference median of 0 no relative change: both are inconclusive.
     */
    public static Result of(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            return new Result(
                    Movement.INCONCLUSIVE,
                    a.length == 0 ? null : median(a),
                    b.length == 0 ? null : median(b),
                    null,
                    null);
        }
        double[] sa = sorted(a);
        double[] sb = sorted(b);
        double medA = nearestRank(sa, 50);
        double medB = nearestRank(sb, 50);
        if (medA == 0) return new Result(Movement.INCONCLUSIVE, medA, medB, null, null);
        double change = medB / medA - 1;
        double noise = Math.max(MIN_NOISE, Math.max(spread(sa), spread(sb)));
        Movement m;
        if (Math.abs(change) <= noise) m = Movement.NEUTRAL;
        else if (change > noise && nearestRank(sb, 10) > medA) m = Movement.ROSE;
        else if (change < -noise && nearestRank(sb, 90) < medA) m = Movement.FELL;
        else m = Movement.INCONCLUSIVE;
        return new Result(m, medA, medB, change, noise);
    }

    /** (P90 − P10) ÷ (2·med) of sorted samples; 0 when the median is 0. */
    static double spread(double[] sorted) {
        double med = nearestRank(sorted, 50);
        return med == 0 ? 0 : (nearestRank(sorted, 90) - nearestRank(sorted, 10)) / (2 * med);
    }

    /** The nearest-rank median: the ⌈n/2⌉-th smallest. */
    public static double median(double[] values) {
        return nearestRank(sorted(values), 50);
    }

    /**
     * The nearest-rank p-th percentile of sorted values: the ⌈p·n/100⌉-th smallest (the first for p·n/100 ≤ 1), in
     * integer arithmetic so that 10 % of 30 samples is the 3rd, not the 4th.
     */
    static double nearestRank(double[] sorted, int p) {
        int n = sorted.length;
        int rank = (p * n + 99) / 100;
        return sorted[Math.max(1, Math.min(n, rank)) - 1];
    }

    private static double[] sorted(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s;
    }
}
