package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Aggregates as Spark SQL computes them, so that figures keep their digits: means, percentiles, a line fit. */
public final class Stats {
    private Stats() {}

    /** avg(x): Σ in order ÷ count; null for no values. */
    public static Double mean(List<? extends Number> values) {
        if (values.isEmpty()) return null;
        double sum = 0;
        for (Number v : values) sum += v.doubleValue();
        return sum / values.size();
    }

    /** percentile(x, p): linear between the two nearest ranks at position (n − 1)·p of the sorted values. */
    public static Double percentile(List<Double> values, double p) {
        if (values.isEmpty()) return null;
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        double position = (sorted.size() - 1) * p;
        long lower = (long) Math.floor(position);
        long higher = (long) Math.ceil(position);
        double lo = sorted.get((int) lower);
        double hi = sorted.get((int) higher);
        if (higher == lower || lo == hi) return lo;
        return (higher - position) * lo + (position - lower) * hi;
    }

    /** Nearest-rank percentile (METRICS.md §4 straggler_lag): the ceil(p·n)-th smallest. */
    public static long nearestRank(List<Long> sortedValues, double p) {
        int n = sortedValues.size();
        int rank = (int) Math.ceil(p * n);
        return sortedValues.get(Math.max(rank, 1) - 1);
    }

    /** stddev_pop by Welford's update, as Spark's central-moment aggregate. */
    public static Double stddevPop(List<? extends Number> values) {
        if (values.isEmpty()) return null;
        double n = 0;
        double avg = 0;
        double m2 = 0;
        for (Number v : values) {
            double x = v.doubleValue();
            n += 1;
            double delta = x - avg;
            double deltaN = delta / n;
            avg += deltaN;
            m2 += delta * (delta - deltaN);
        }
        return Math.sqrt(m2 / n);
    }

    /**
     * Least-squares line y = a + b·x (regr_intercept, regr_slope) and its coefficient of determination (regr_r2: 1
     * when y does not vary); null when x does not vary.
     */
    public record Line(double intercept, double slope, double r2) {}

    public static Line fit(List<double[]> xy) {
        double n = 0;
        double xAvg = 0;
        double yAvg = 0;
        double ck = 0;
        double m2x = 0;
        double m2y = 0;
        for (double[] p : xy) {
            double x = p[0];
            double y = p[1];
            n += 1;
            double dx = x - xAvg;
            double dxN = dx / n;
            double dy = y - yAvg;
            double dyN = dy / n;
            xAvg += dxN;
            yAvg += dyN;
            ck += dx * (y - yAvg);
            m2x += dx * (dx - dxN);
            m2y += dy * (dy - dyN);
        }
        if (n == 0 || m2x == 0) return null;
        double slope = ck / m2x;
        double r2 = m2y == 0 ? 1.0 : ck * ck / (m2x * m2y);
        return new Line(yAvg - slope * xAvg, slope, r2);
    }
}
