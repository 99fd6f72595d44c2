package org.tracelake.jobs.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.verdict.RunVerdict;
import org.tracelake.jobs.metrics.verdict.StepSample;

/**
 * The run summary's account of what moved since each workload's previous run: one line per workload whose step time
 * moved (its verdict, the change of the median step, the part of the step and the kernel that moved most) or that has
 * figures past the threshold, instead of one line per metric; the workloads whose step time held are counted on one
 * line. Made from the regressions rows the driver was given (the step verdicts come first).
 */
final class RegressionLines {
    private RegressionLines() {}

    static final String STEP_VERDICT = "step_verdict";

    private static final class Workload {
        Row verdict;
        int worse;
        int better;
        int other;
    }

    static List<String> of(List<Row> shown, long total) {
        Map<String, Workload> byWorkload = new LinkedHashMap<>();
        for (Row r : shown) {
            Workload w = byWorkload.computeIfAbsent(r.getAs("workload"), k -> new Workload());
            if (STEP_VERDICT.equals(r.getAs("rule"))) {
                w.verdict = r;
                continue;
            }
            String direction = r.getAs("direction");
            if ("worse".equals(direction)) w.worse++;
            else if ("better".equals(direction)) w.better++;
            else w.other++;
        }
        List<String> lines = new ArrayList<>();
        List<String> held = new ArrayList<>();
        List<String> noSteps = new ArrayList<>();
        for (Map.Entry<String, Workload> e : byWorkload.entrySet()) {
            Workload w = e.getValue();
            String verdict = w.verdict == null ? null : w.verdict.getAs("verdict");
            boolean moved = w.worse + w.better + w.other > 0;
            if (RunVerdict.NEUTRAL.equals(verdict) && !moved) {
                held.add(e.getKey());
                continue;
            }
            if (w.verdict != null && w.verdict.getAs("step_change") == null && !moved) {
                noSteps.add(e.getKey()); // a run without two steps (or a format without steps): nothing to weigh
                continue;
            }
            lines.add(line(e.getKey(), w));
        }
        if (!held.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT, "  %d held their step time (neutral): %s", held.size(), String.join(", ", held)));
        }
        if (!noSteps.isEmpty()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "  %d without steps to compare, nothing else moved: %s",
                    noSteps.size(),
                    String.join(", ", noSteps)));
        }
        if (total > shown.size()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "  ... and %,d more rows: the regressions table, or report --history",
                    total - shown.size()));
        }
        return lines;
    }

    private static String line(String workload, Workload w) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "  %-30s", workload));
        Row v = w.verdict;
        if (v == null) {
            sb.append(String.format(Locale.ROOT, " %-18s", "-"));
        } else {
            sb.append(String.format(Locale.ROOT, " %-18s", (String) v.getAs("verdict")));
            Double change = v.getAs("step_change");
            Double noise = v.getAs("noise");
            if (change != null) {
                sb.append(String.format(Locale.ROOT, " step %+.1f%% (noise %.1f%%)", 100 * change, 100 * noise));
            }
            String part = partMovedMost(v);
            if (part != null) {
                sb.append(
                        String.format(Locale.ROOT, "; most: %s %+.3f ms", part, (Double) v.getAs(part + "_delta_ms")));
            }
            String kernel = v.getAs("top_kernel");
            if (kernel != null) {
                sb.append(String.format(
                        Locale.ROOT, ", kernel %s %+.3f ms", shorten(kernel), (Double) v.getAs("top_kernel_delta_ms")));
            }
        }
        int moved = w.worse + w.better + w.other;
        if (moved > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "; %d %s past the threshold (%d worse, %d better)",
                    moved,
                    moved == 1 ? "figure" : "figures",
                    w.worse,
                    w.better));
        }
        return sb.toString();
    }

    /**
     * The step part whose median moved most ({@link StepSample#PARTS} and other), or null. A row written before the idle
     * time was split has no idle part columns: its idle counts as one part.
     */
    static String partMovedMost(Row v) {
        String best = null;
        double most = -1;
        List<String> parts = new ArrayList<>(StepSample.PARTS);
        parts.add("other");
        if (v.getAs("idle_host_wait_delta_ms") == null) {
            parts.removeAll(StepSample.IDLE_PARTS);
            parts.add("idle");
        }
        for (String part : parts) {
            Double d = v.getAs(part + "_delta_ms");
            if (d != null && Math.abs(d) > most) {
                most = Math.abs(d);
                best = part;
            }
        }
        return best;
    }

    /** A kernel name cut to 48 characters: C++ template names run to hundreds. */
    static String shorten(String kernel) {
        return kernel.length() <= 48 ? kernel : kernel.substring(0, 45) + "...";
    }
}
