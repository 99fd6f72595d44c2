package org.tracelake.jobs.readers.kineto;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.tracelake.udfs.StepNames;

/**
 * The step annotations of one rank (METRICS.md §1): ProfilerStep#N when present, else the first inference
 * step kind found (vLLM, SGLang, TPU vLLM), whose steps are numbered in time order.
 */
final class StepWindows {
    private record Window(long start, long end, long number) {}

    private final List<List<Window>> byPriority = new ArrayList<>();
    private List<Window> chosen;

    StepWindows() {
        for (int i = 0; i < 4; i++) byPriority.add(new ArrayList<>());
    }

    /** Offer an X event; keeps it if its name is a step name. */
    void offer(String cat, String name, long relStart, long durNs) {
        if (name == null) return;
        int priority = StepNames.stepNamePriority(name);
        if (priority < 0) return;
        if (priority == 0 && !"user_annotation".equals(cat)) return;
        Long number = priority == 0 ? StepNames.profilerStep(name) : null;
        byPriority.get(priority).add(new Window(relStart, relStart + durNs, number == null ? -1 : number));
    }

    void seal() {
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
            return;
        }
    }

    int count() {
        return chosen.size();
    }

    /** The step whose window [start, end) contains the time, or null. */
    Long stepAt(long relTs) {
        int lo = 0;
        int hi = chosen.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (chosen.get(mid).start <= relTs) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (int i = found; i >= 0 && i >= found - 2; i--) {
            Window w = chosen.get(i);
            if (w.start <= relTs && relTs < w.end) return w.number;
        }
        return null;
    }
}
