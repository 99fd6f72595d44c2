package org.tracelake.jobs.metrics.verdict;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One (rank, step) of a run as the metrics table has it at step scope: the step's duration ({@code iter_time}) and the
 * parts of its GPU span ({@code comm_comp_overlap}'s compute and exposed communication, the exposed copies that remain
 * of the busy time, and {@code pipeline_bubble}'s idle time split as {@code idle_breakdown} splits its gaps: host wait,
 * device wait, and the rest: {@code idle_other}); a part is null where the step has no GPU activity.
 */
public record StepSample(
        int rank,
        long step,
        double stepMs,
        Double computeMs,
        Double exposedCommMs,
        Double exposedCopyMs,
        Double idleHostWaitMs,
        Double idleDeviceWaitMs,
        Double idleOtherMs)
        implements Serializable {

    /**
     * The parts of the step, in the order they stack (time_breakdown's, METRICS.md §4: compute, exposed communication,
     * exposed copies, idle host-wait, idle device-wait); the rest of the idle time (the span's edges, gaps no launch
     * record explains) is a part of its own, so that the parts add up to the step's GPU span.
     */
    public static final List<String> PARTS =
            List.of("compute", "exposed_comm", "exposed_copy", "idle_host_wait", "idle_device_wait", "idle_other");

    /** The idle parts of {@link #PARTS}: together, the step's idle time. */
    public static final List<String> IDLE_PARTS = List.of("idle_host_wait", "idle_device_wait", "idle_other");

    /** A sample of a figure's per-step value alone (no parts). */
    static StepSample of(int rank, long step, double value) {
        return new StepSample(rank, step, value, null, null, null, null, null, null);
    }

    /** A part's value by its name in {@link #PARTS}. */
    public Double part(String name) {
        return switch (name) {
            case "compute" -> computeMs;
            case "exposed_comm" -> exposedCommMs;
            case "exposed_copy" -> exposedCopyMs;
            case "idle_host_wait" -> idleHostWaitMs;
            case "idle_device_wait" -> idleDeviceWaitMs;
            case "idle_other" -> idleOtherMs;
            default -> throw new IllegalArgumentException("no step part " + name);
        };
    }

    /**
     * The trimmed steps (METRICS.md §1, CCL-Bench): per rank, the first and the last step are dropped when the rank has
     * more than two; otherwise all are kept. In (rank, step) order.
     */
    public static List<StepSample> trimmed(List<StepSample> samples) {
        Map<Integer, List<StepSample>> byRank = new TreeMap<>();
        for (StepSample s : samples)
            byRank.computeIfAbsent(s.rank(), r -> new ArrayList<>()).add(s);
        List<StepSample> out = new ArrayList<>();
        for (List<StepSample> steps : byRank.values()) {
            steps.sort(Comparator.comparingLong(StepSample::step));
            out.addAll(steps.size() > 2 ? steps.subList(1, steps.size() - 1) : steps);
        }
        return out;
    }
}
