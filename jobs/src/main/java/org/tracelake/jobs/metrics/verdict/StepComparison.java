package org.tracelake.jobs.metrics.verdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.metrics.FigureReference.Direction;

/**
 * The step time of two runs compared (METRICS.md §4 "Run comparison verdicts"): the verdict on their trimmed step
 * durations, and the change of the median step split into the medians' changes of its parts (compute, exposed
 * communication, exposed copies, idle host-wait, device-wait and other idle), with what the parts do not account for as {@code other} so that the split adds
 * up to the step's change exactly (the median of a sum is not the sum of the medians).
 *
 * @param deltaMs med(B) − med(A) of the trimmed step durations; null when a run has no step
 * @param parts per part of {@link StepSample#PARTS} and {@code other}: med(B) − med(A) in ms, null where a run lacks it
 */
public record StepComparison(RunVerdict.Result result, String verdict, Double deltaMs, Map<String, Double> parts)
        implements java.io.Serializable {

    public static StepComparison of(List<StepSample> a, List<StepSample> b) {
        List<StepSample> ta = StepSample.trimmed(a);
        List<StepSample> tb = StepSample.trimmed(b);
        RunVerdict.Result r = RunVerdict.of(steps(ta), steps(tb));
        Double deltaMs = r.medianA() == null || r.medianB() == null ? null : r.medianB() - r.medianA();
        Map<String, Double> parts = new LinkedHashMap<>();
        double explained = 0;
        boolean allParts = deltaMs != null;
        for (String part : StepSample.PARTS) {
            double[] pa = part(ta, part);
            double[] pb = part(tb, part);
            Double d = pa.length == 0 || pb.length == 0 ? null : RunVerdict.median(pb) - RunVerdict.median(pa);
            parts.put(part, d);
            if (d == null) allParts = false;
            else explained += d;
        }
        parts.put("other", allParts ? deltaMs - explained : null);
        return new StepComparison(r, r.verdict(Direction.LOWER), deltaMs, parts);
    }

    /** The idle time's change as a whole: the sum of its parts' ({@link StepSample#IDLE_PARTS}); null if one is unknown. */
    public Double idleDeltaMs() {
        double sum = 0;
        for (String part : StepSample.IDLE_PARTS) {
            Double d = parts.get(part);
            if (d == null) return null;
            sum += d;
        }
        return sum;
    }

    /** The part that moved most (largest |change|, {@code other} included), or null when no part is known. */
    public String partMovedMost() {
        String best = null;
        double most = -1;
        for (Map.Entry<String, Double> e : parts.entrySet()) {
            if (e.getValue() != null && Math.abs(e.getValue()) > most) {
                most = Math.abs(e.getValue());
                best = e.getKey();
            }
        }
        return best;
    }

    private static double[] steps(List<StepSample> s) {
        return s.stream().mapToDouble(StepSample::stepMs).toArray();
    }

    private static double[] part(List<StepSample> s, String part) {
        List<Double> v = new ArrayList<>();
        for (StepSample x : s) if (x.part(part) != null) v.add(x.part(part));
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
