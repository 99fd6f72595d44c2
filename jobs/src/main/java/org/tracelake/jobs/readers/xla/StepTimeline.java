package org.tracelake.jobs.readers.xla;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.tracelake.udfs.StepNames;

/**
 * The step windows of one timeline (METRICS.md §1) and the lookup "which step contains this time". Steps come,
 * best first, from explicitly numbered step events (the XLA profiler's {@code Steps} line), then from the
 * annotation kinds {@link StepNames} ranks: {@code ProfilerStep#N}, vLLM, SGLang, TPU vLLM. The first kind present
 * wins; windows without a number are numbered in time order.
 *
 * <p>Same lookup as the Kineto reader's package-private {@code StepWindows}, plus the numbered kind; used by the
 * Nsight, XLA JSON and XSpace readers. Only step events are kept, so memory does not grow with the trace.
 */
public final class StepTimeline {
    private record Window(long start, long end, long number) {}

    /** Index 0: explicitly numbered steps; 1 + {@link StepNames#stepNamePriority} for the annotation kinds. */
    private final List<List<Window>> byPriority = new ArrayList<>();
    private List<Window> chosen = List.of();

    public StepTimeline() {
        for (int i = 0; i < 5; i++) byPriority.add(new ArrayList<>());
    }

    /** A step whose number the trace states (an XLA {@code Steps} line event). */
    public void offerNumbered(long number, long start, long durNs) {
        byPriority.get(0).add(new Window(start, start + durNs, number));
    }

    /** A range that is kept when its name is a step name; ProfilerStep#N keeps its N. */
    public void offerAnnotation(String name, long start, long durNs) {
        int priority = StepNames.stepNamePriority(name);
        if (priority < 0) return;
        Long number = priority == 0 ? StepNames.profilerStep(name) : null;
        byPriority.get(priority + 1).add(new Window(start, start + durNs, number == null ? -1 : number));
    }

    /** Chooses the best kind present; call once every window was offered. */
    public StepTimeline seal() {
        chosen = List.of();
        for (List<Window> windows : byPriority) {
            if (windows.isEmpty()) continue;
            windows.sort(Comparator.comparingLong(Window::start));
            List<Window> numbered = new ArrayList<>(windows.size());
            for (int i = 0; i < windows.size(); i++) {
                Window w = windows.get(i);
                numbered.add(w.number >= 0 ? w : new Window(w.start, w.end, i));
            }
            chosen = numbered;
            break;
        }
        return this;
    }

    public int count() {
        return chosen.size();
    }

    /** The step whose window [start, end) contains the time, or null. */
    public Long stepAt(Long ts) {
        if (ts == null || chosen.isEmpty()) return null;
        int lo = 0;
        int hi = chosen.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (chosen.get(mid).start <= ts) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // Windows may nest or overlap slightly (a step that ends after the next one starts): look a little back.
        for (int i = found; i >= 0 && i >= found - 2; i--) {
            Window w = chosen.get(i);
            if (w.start <= ts && ts < w.end) return w.number;
        }
        return null;
    }
}
