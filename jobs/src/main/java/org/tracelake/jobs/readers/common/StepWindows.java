package org.tracelake.jobs.readers.common;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.tracelake.udfs.StepNames;

/**
 * The step windows of one timeline (a Kineto file, an Nsight process, an XLA device or host) and the lookup
 * "which step contains this time" (METRICS.md §1). Every reader uses this class, and the {@code step_priority} udf
 * gives SQL the same per-event rule ({@link StepNames#stepPriority}).
 *
 * <p>Steps come, best first, from explicitly numbered step events (the XLA profiler's {@code Steps} line), then from
 * the annotation kinds {@link StepNames} ranks: {@code ProfilerStep#N}, vLLM, SGLang, TPU vLLM. Only CPU-side
 * annotations count: Kineto's GPU-side copy ({@code gpu_user_annotation}) of a step annotation is ignored. The first
 * kind present wins; {@code ProfilerStep#N} keeps its N, and windows without a number are numbered 0, 1, … in time
 * order. Only step events are kept, so memory does not grow with the trace.
 *
 * <p>Use: offer every event, {@link #seal()} once, then call {@link #stepAt} and {@link #count}.
 */
public final class StepWindows {
    private record Window(long start, long end, long number) {}

    /** Marks a window whose number is its position in time order, given at {@link #seal()}. */
    private static final long UNNUMBERED = -1;
    /** Indexed by {@link StepNames#stepPriority}: 0 the device's numbered steps, then the annotation kinds. */
    private static final int KINDS = StepNames.PRIORITIES;

    private final List<List<Window>> byKind = new ArrayList<>(KINDS);
    private List<Window> chosen = List.of();
    /** endsSoFar[i] = the latest end among chosen[0..i]: no window before i+1 can contain a time at or past it. */
    private long[] endsSoFar = new long[0];

    public StepWindows() {
        for (int i = 0; i < KINDS; i++) byKind.add(new ArrayList<>());
    }

    /** A step whose number the trace states (an XLA {@code Steps} line event). */
    public void offerNumbered(long number, long start, long durNs) {
        byKind.get(StepNames.DEVICE_STEPS_PRIORITY).add(new Window(start, start + durNs, number));
    }

    /**
     * A host event that states its step number ({@code step_num}: JAX's {@code StepTraceAnnotation}, whatever its
     * name), of category {@link StepNames#CAT_STEP_ANNOTATION}.
     */
    public void offerStepAnnotation(long number, long start, long durNs) {
        byKind.get(StepNames.STEP_ANNOTATION_PRIORITY).add(new Window(start, start + durNs, number));
    }

    /** Any complete event of the timeline: kept when it is a CPU-side step annotation (METRICS.md §1). */
    public void offerAnnotation(String cat, String name, long start, long durNs) {
        int priority = StepNames.stepPriority(cat, name);
        // a device's Steps line is numbered by its reader (offerNumbered), never taken as an annotation
        if (priority < 0 || priority == StepNames.DEVICE_STEPS_PRIORITY) return;
        Long number = StepNames.profilerStep(name);
        byKind.get(priority).add(new Window(start, start + durNs, number == null ? UNNUMBERED : number));
    }

    /** Chooses the best kind present and numbers its windows; call once, after every event was offered. */
    public StepWindows seal() {
        chosen = List.of();
        for (List<Window> windows : byKind) {
            if (windows.isEmpty()) continue;
            windows.sort(Comparator.comparingLong(Window::start));
            List<Window> numbered = new ArrayList<>(windows.size());
            for (int i = 0; i < windows.size(); i++) {
                Window w = windows.get(i);
                numbered.add(w.number != UNNUMBERED ? w : new Window(w.start, w.end, i));
            }
            chosen = numbered;
            break;
        }
        endsSoFar = new long[chosen.size()];
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < chosen.size(); i++) {
            latest = Math.max(latest, chosen.get(i).end);
            endsSoFar[i] = latest;
        }
        return this;
    }

    /** The number of steps of the chosen kind. */
    public int count() {
        return chosen.size();
    }

    /**
     * The step whose window {@code [start, end)} contains the time, or null. Where windows overlap (a step that
     * ends after the next one starts, or one nested in another) the one that started last wins.
     */
    public Long stepAt(Long ts) {
        if (ts == null) return null;
        // the last window starting at or before ts, by binary search over the start-sorted windows
        int lo = 0;
        int hi = chosen.size() - 1;
        int last = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (chosen.get(mid).start <= ts) {
                last = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // walk back while an earlier window could still reach ts
        for (int i = last; i >= 0 && endsSoFar[i] > ts; i--) {
            Window w = chosen.get(i);
            if (ts < w.end) return w.number;
        }
        return null;
    }
}
