package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The forward, backward and optimizer time of each step (METRICS.md §4 phase_time_ms). The figure people read is the
 * phase's GPU time, not the time the CPU took to dispatch it: a forward annotation of 0.4 ms can queue 14 ms of
 * kernels. Per (step, phase), first that applies:
 *
 * <ol>
 *   <li>the union of the phase's GPU-side annotation copies (Kineto's {@code gpu_user_annotation} of the same name),
 *       each put in the step of the latest CPU annotation of its phase that started before it (the copy runs after
 *       its CPU annotation, often after the step's window has closed);
 *   <li>else the span (first start to last end) of the GPU activities whose launching runtime call started inside
 *       one of the phase's CPU annotations of that step;
 *   <li>else 0 when the rank links GPU activities to their launches (the phase launched nothing), and unknown when it
 *       links none (an XLA or rocprof trace without correlation).
 * </ol>
 *
 * The |union| of the phase's CPU annotations is kept as {@code dispatch_ms}. Launches are matched by time, not by
 * thread: a runtime call made on another thread while a phase annotation is open counts for that phase.
 */
public final class PhasePart implements RankPart {
    /** Where a step's GPU time of a phase came from: the GPU-side annotation copy, or the launched activities. */
    public static final String FROM_GPU_ANNOTATION = "gpu_annotation";

    public static final String FROM_LAUNCHES = "launches";

    /** One (step, phase): the CPU annotations' |union|, the GPU time (null when unknown) and its source. */
    public record PhaseTime(long dispatchNs, Long gpuNs, String source) implements Serializable {}

    /**
     * The part's result: per step, per phase; and how many timed phase annotations the rank has, with or without a
     * step (a rank with some but no step says why it has no phase times).
     */
    public record Phases(TreeMap<Long, TreeMap<String, PhaseTime>> byStep, long annotations) implements Serializable {}

    private record Key(long step, String phase) {}

    private final Map<Key, IntervalList> dispatch = new HashMap<>();
    private final Map<Key, IntervalList> gpuCopies = new HashMap<>();
    /** Per (step, phase): {first start, last end} of the GPU activities launched inside its CPU annotations. */
    private final Map<Key, long[]> launched = new HashMap<>();
    /** Per phase: its CPU annotations as disjoint segments in time order, each with its step. */
    private final Map<String, Segments> segments = new HashMap<>();
    /** Per phase: the step of its latest CPU annotation so far (where a GPU-side copy starting now belongs). */
    private final Map<String, Long> latestStep = new HashMap<>();

    private boolean sawLaunchLink;
    private long annotations;

    @Override
    public void accept(RankEvent e) {
        if (e.ts == null) return;
        if (e.isGpu()) {
            gpuActivity(e);
            return;
        }
        String phase = phaseOfName(e.name);
        if (phase == null) return;
        if (GPU_USER_ANNOTATION.equals(e.cat)) {
            Long step = latestStep.getOrDefault(phase, e.step);
            if (step != null)
                gpuCopies
                        .computeIfAbsent(new Key(step, phase), k -> new IntervalList())
                        .add(e.ts, e.end());
            return;
        }
        annotations++;
        if (e.step == null) return;
        dispatch.computeIfAbsent(new Key(e.step, phase), k -> new IntervalList())
                .add(e.ts, e.end());
        segments.computeIfAbsent(phase, k -> new Segments()).add(e.ts, e.end(), e.step);
        latestStep.put(phase, e.step);
    }

    private void gpuActivity(RankEvent e) {
        if (e.launchTs == null) return;
        sawLaunchLink = true;
        segments.forEach((phase, s) -> {
            Long step = s.stepAt(e.launchTs);
            if (step == null) return;
            long[] span =
                    launched.computeIfAbsent(new Key(step, phase), k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
            span[0] = Math.min(span[0], e.ts);
            span[1] = Math.max(span[1], e.end());
        });
    }

    @Override
    public Serializable finish(RankSummary done) {
        TreeMap<Long, TreeMap<String, PhaseTime>> out = new TreeMap<>();
        dispatch.forEach((key, cpu) -> {
            IntervalList copies = gpuCopies.get(key);
            long[] span = launched.get(key);
            PhaseTime t;
            if (copies != null) t = new PhaseTime(cpu.length(), copies.length(), FROM_GPU_ANNOTATION);
            else if (span != null) t = new PhaseTime(cpu.length(), span[1] - span[0], FROM_LAUNCHES);
            else if (sawLaunchLink) t = new PhaseTime(cpu.length(), 0L, FROM_LAUNCHES);
            else t = new PhaseTime(cpu.length(), null, null);
            out.computeIfAbsent(key.step(), k -> new TreeMap<>()).put(key.phase(), t);
        });
        return new Phases(out, annotations);
    }

    /**
     * One phase's CPU annotations as disjoint segments in start order (annotations arrive by start): an annotation
     * overlapping the last segment of its own step extends it; one of another step starts a segment where the last
     * ends. "Which step's annotation of this phase was open at time t" is then a binary search.
     */
    private static final class Segments {
        private long[] starts = new long[16];
        private long[] ends = new long[16];
        private long[] steps = new long[16];
        private int size;

        void add(long start, long end, long step) {
            if (size > 0 && start < ends[size - 1]) {
                if (end <= ends[size - 1]) return;
                if (steps[size - 1] == step) {
                    ends[size - 1] = end;
                    return;
                }
                start = ends[size - 1];
            }
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
                ends = Arrays.copyOf(ends, size * 2);
                steps = Arrays.copyOf(steps, size * 2);
            }
            starts[size] = start;
            ends[size] = end;
            steps[size] = step;
            size++;
        }

        /** The step of the segment containing t, or null. */
        Long stepAt(long t) {
            int lo = 0;
            int hi = size - 1;
            int last = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (starts[mid] <= t) {
                    last = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return last >= 0 && t < ends[last] ? steps[last] : null;
        }
    }

    private static final String GPU_USER_ANNOTATION = "gpu_user_annotation";
    private static final Pattern FORWARD = Pattern.compile("(?i)^##\\s*forward\\s*##$");
    private static final Pattern BACKWARD = Pattern.compile("(?i)^##\\s*backward\\s*##$");
    private static final Pattern OPTIMIZER = Pattern.compile("(?i)^##\\s*optimizer\\s*##$");

    /**
     * The phase of an annotation (METRICS.md §4): forward {@code ## forward ##}; backward {@code ## backward ##} or
     * autograd::engine::evaluate_function:*; optimizer {@code ## optimizer ##}, Optimizer.step#*,
     * Optimizer.zero_grad#*; null for any other name.
     */
    /** {@link #phaseOf}, each distinct name matched once (a rank has millions of events and hundreds of names). */
    private String phaseOfName(String name) {
        if (name == null) return null;
        String known = phaseByName.get(name);
        if (known != null) return known.isEmpty() ? null : known; // "": the name has no phase
        String phase = phaseOf(name);
        if (phaseByName.size() >= MAX_NAMES) phaseByName.clear(); // unique names: start over rather than grow
        phaseByName.put(name, phase == null ? "" : phase);
        return phase;
    }

    private static final int MAX_NAMES = 16_384;
    private final Map<String, String> phaseByName = new HashMap<>();

    static String phaseOf(String name) {
        if (name == null) return null;
        if (FORWARD.matcher(name).find()) return "forward";
        if (BACKWARD.matcher(name).find() || name.startsWith("autograd::engine::evaluate_function:")) return "backward";
        if (OPTIMIZER.matcher(name).find()
                || name.startsWith("Optimizer.step#")
                || name.startsWith("Optimizer.zero_grad#")) {
            return "optimizer";
        }
        return null;
    }
}
