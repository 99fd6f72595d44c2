package org.tracelake.jobs.metrics.verdict;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.tracelake.jobs.metrics.FigureReference;
import org.tracelake.jobs.metrics.FigureReference.Direction;

/**
 * Two runs of one workload (or two workloads) side by side, as METRICS.md §4 "Run comparison verdicts" weighs them: the
 * reference A and the candidate B. This is where the samples a verdict weighs are gathered from metric rows — the
 * per-step parts of the step time, the kernels' time per rank-step, a figure's per-step values — for the nightly
 * refresh (every refreshed workload against its previous run, on the executors) and {@code report --compare} alike.
 */
public final class RunPair {
    private final String referenceRunId;
    private final List<RunRow> a = new ArrayList<>();
    private final List<RunRow> b = new ArrayList<>();

    private RunPair(String referenceRunId) {
        this.referenceRunId = referenceRunId;
    }

    /**
     * The pair of one group's rows: the candidate's rows, and of the reference's only those of its latest run (the
     * largest run id; rows without a run id are one run). Null when either side has no row: nothing to compare.
     */
    public static RunPair of(Iterable<RunRow> rows) {
        String latest = null;
        boolean reference = false;
        boolean candidate = false;
        for (RunRow r : rows) {
            if (r.candidate()) {
                candidate = true;
            } else {
                reference = true;
                if (r.runId() != null && (latest == null || r.runId().compareTo(latest) > 0)) latest = r.runId();
            }
        }
        if (!reference || !candidate) return null;
        RunPair pair = new RunPair(latest);
        for (RunRow r : rows) {
            if (r.candidate()) pair.b.add(r);
            else if (Objects.equals(r.runId(), latest)) pair.a.add(r);
        }
        return pair;
    }

    /** The reference run's id (null when its rows carry none). */
    public String referenceRunId() {
        return referenceRunId;
    }

    /** The step time's verdict and split by part, and the kernels that moved most. */
    public record Comparison(StepComparison steps, List<KernelDeltas.Moved> kernels) implements Serializable {}

    /** @param byCategory compare kernel categories rather than kernel names (runs on different device models) */
    public Comparison compare(boolean byCategory) {
        return new Comparison(
                StepComparison.of(stepSamples(a), stepSamples(b)),
                KernelDeltas.top(kernels(a, byCategory), kernels(b, byCategory)));
    }

    /** A workload-scope value of the reference ({@code candidate} false) or the candidate; null when absent. */
    public Double headline(boolean candidate, String metric, String figure, String key) {
        for (RunRow r : candidate ? b : a) {
            if (isHeadline(r) && r.metric().equals(metric) && sameFigure(r, figure, key)) return r.value();
        }
        return null;
    }

    /** The candidate's workload-scope rows with a value. */
    public List<RunRow> candidateHeadlines() {
        List<RunRow> out = new ArrayList<>();
        for (RunRow r : b) if (isHeadline(r) && r.value() != null) out.add(r);
        return out;
    }

    /**
     * The verdict on a figure's per-step values (trimmed, as the step time's), judged in the figure's direction; null
     * when either run has no per-step value of it (one value per run cannot be weighed against noise).
     */
    public RunVerdict.Result stepVerdict(String metric, String figure, String key) {
        double[] va = figureSteps(a, metric, figure, key);
        double[] vb = figureSteps(b, metric, figure, key);
        if (va == null || vb == null) return null;
        return RunVerdict.of(va, vb);
    }

    /** Whether a change of a figure is better or worse, in its direction ({@link Direction#judge}); null when unknown. */
    public static String judge(String metric, String figure, Double change) {
        return change == null ? null : FigureReference.direction(metric, figure).judge(change);
    }

    private static boolean isHeadline(RunRow r) {
        return "workload".equals(r.scope());
    }

    private static boolean sameFigure(RunRow r, String figure, String key) {
        return Objects.equals(r.figure(), figure) && Objects.equals(r.key(), key);
    }

    private static boolean isStepValue(RunRow r) {
        return "step".equals(r.scope()) && r.rank() != null && r.step() != null && r.value() != null;
    }

    private static double[] figureSteps(List<RunRow> rows, String metric, String figure, String key) {
        List<StepSample> s = new ArrayList<>();
        for (RunRow r : rows) {
            if (isStepValue(r) && r.metric().equals(metric) && sameFigure(r, figure, key))
                s.add(StepSample.of(r.rank(), r.step(), r.value()));
        }
        if (s.isEmpty()) return null;
        return StepSample.trimmed(s).stream().mapToDouble(StepSample::stepMs).toArray();
    }

    /**
     * A run's (rank, step) samples: the step's duration ({@code iter_time}), its compute and exposed communication
     * ({@code comm_comp_overlap}), its idle time and span ({@code pipeline_bubble}); exposed copies are what of the busy
     * span is neither compute nor exposed communication. The idle time is split by {@code idle_breakdown}'s host and
     * device wait (the gaps between the step's GPU activities); what they leave is {@code idle_other}: the idle time of
     * pipeline_bubble's span before the first GPU activity and after the last (the span starts at the step's start),
     * the gaps no launch record explains, and all of it in a step idle_breakdown has no row for. So the three idle
     * parts add up to the idle time. Steps without a duration are left out.
     */
    static List<StepSample> stepSamples(List<RunRow> rows) {
        Map<Integer, Map<Long, double[]>> byRankStep = new LinkedHashMap<>(); // rank → step → the figures by slot
        for (RunRow r : rows) {
            int slot = stepSlot(r);
            if (slot < 0 || !isStepValue(r)) continue;
            double[] v = byRankStep
                    .computeIfAbsent(r.rank(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.step(), k -> {
                        double[] empty = new double[SLOTS];
                        java.util.Arrays.fill(empty, Double.NaN);
                        return empty;
                    });
            v[slot] = Double.isNaN(v[slot]) ? r.value() : Math.max(v[slot], r.value());
        }
        List<StepSample> out = new ArrayList<>();
        byRankStep.forEach((rank, steps) -> steps.forEach((step, v) -> {
            if (Double.isNaN(v[STEP])) return;
            Double compute = boxed(v[COMPUTE]);
            Double exposedComm = boxed(v[EXPOSED_COMM]);
            Double idle = boxed(v[IDLE]);
            Double span = boxed(v[SPAN]);
            Double copies = compute == null || exposedComm == null || idle == null || span == null
                    ? null
                    : span - idle - compute - exposedComm;
            Double hostWait = null;
            Double deviceWait = null;
            Double rest = null;
            if (idle != null) {
                boolean split = !Double.isNaN(v[HOST_WAIT]) && !Double.isNaN(v[DEVICE_WAIT]);
                hostWait = split ? v[HOST_WAIT] : 0.0;
                deviceWait = split ? v[DEVICE_WAIT] : 0.0;
                rest = idle - hostWait - deviceWait;
            }
            out.add(new StepSample(rank, step, v[STEP], compute, exposedComm, copies, hostWait, deviceWait, rest));
        }));
        return out;
    }

    private static final int STEP = 0;
    private static final int COMPUTE = 1;
    private static final int EXPOSED_COMM = 2;
    private static final int IDLE = 3;
    private static final int SPAN = 4;
    private static final int HOST_WAIT = 5;
    private static final int DEVICE_WAIT = 6;
    private static final int SLOTS = 7;

    /** Which of a step sample's figures a metric row is, or -1. */
    private static int stepSlot(RunRow r) {
        String figure = Objects.toString(r.figure(), "");
        return switch (r.metric()) {
            case "iter_time" -> STEP;
            case "comm_comp_overlap" ->
                switch (figure) {
                    case "comp_time_ms" -> COMPUTE;
                    case "exposed_comm_ms" -> EXPOSED_COMM;
                    default -> -1;
                };
            case "pipeline_bubble" ->
                switch (figure) {
                    case "bubble_time_ms" -> IDLE;
                    case "total_time_ms" -> SPAN;
                    default -> -1;
                };
            case "idle_breakdown" ->
                switch (figure) {
                    case "host_wait_ms" -> HOST_WAIT;
                    case "device_wait_ms" -> DEVICE_WAIT;
                    default -> -1;
                };
            default -> -1;
        };
    }

    private static Double boxed(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /**
     * A run's kernels: {@code kernel_step_time_ms} rows (mean ms per rank-step) keyed {@code name:<kernel>}, or with
     * {@code byCategory} the rows keyed by a category (any other key).
     */
    static Map<String, Double> kernels(List<RunRow> rows, boolean byCategory) {
        Map<String, Double> out = new HashMap<>();
        for (RunRow r : rows) {
            if (!"kernel_step_time_ms".equals(r.metric()) || !"key".equals(r.scope())) continue;
            if (r.key() == null || r.value() == null) continue;
            boolean byName = r.key().startsWith(KernelDeltas.NAME_PREFIX);
            if (byName == byCategory) continue;
            out.put(byCategory ? r.key() : r.key().substring(KernelDeltas.NAME_PREFIX.length()), r.value());
        }
        return out;
    }
}
