package org.tracelake.jobs.rank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.KernelNameRules;
import org.tracelake.udfs.StepNames;

/**
 * One pass over one rank's events, CPU-side events first and then GPU activities, each in start order (what
 * {@link RankEvent#input} sorted by), into a {@link RankSummary}. The pass itself finds what every family shares,
 * the rank's frame: its step windows, the sweep's interval facts over them (METRICS.md §3) and its collective
 * instances; each family's own sums are its {@link RankPart}'s (the {@link RankParts} it is handed), which see every
 * event after the stream clip. The classification of each event is the reader's (its activity class, kernel category and collective
 * kind, from {@code udfs}).
 */
public final class RankAccumulator {
    private final RankSummary out = new RankSummary();
    private final RankSweep sweep = new RankSweep();
    private final CommInstances comm = new CommInstances();
    private final List<RankPart> parts;
    private final List<StepCandidate> stepCandidates = new ArrayList<>();
    private boolean windowsSealed;

    private record StepCandidate(int priority, long step, long start, long end, String name) {}

    /** {@code parts}: the families' per-rank parts to run beside the frame (metrics/workload/Families.RANK_PARTS). */
    public RankAccumulator(int rank, RankParts parts) {
        out.rank = rank;
        this.parts = parts.create();
    }

    /** GPU activities pass through it first: an activity running past the next on its stream is clipped there. */
    private final StreamClipper clipper = new StreamClipper(this::take);

    /** The next event: CPU-side events (no activity class) all come before the first GPU activity. */
    public void accept(RankEvent e) {
        if (e.isGpu()) clipper.accept(e);
        else take(e);
    }

    /** An event as every rule sees it: a GPU activity clipped to its stream ({@link StreamClipper}), in start order. */
    private void take(RankEvent e) {
        for (RankPart p : parts) p.accept(e);
        if (e.ts == null) return;
        if (e.isGpu()) gpu(e);
        else stepCandidate(e);
    }

    private void stepCandidate(RankEvent e) {
        if (!"X".equals(e.ph)) return;
        int priority = StepNames.stepPriority(e.cat, e.name);
        Long step = StepNames.profilerStep(e.name);
        if (step == null) step = e.step;
        if (priority >= 0 && step != null) {
            stepCandidates.add(new StepCandidate(priority, step, e.ts, e.end(), e.name));
        } else if (StepNames.CAT_USER_ANNOTATION.equals(e.cat)) nearStep(e.name);
    }

    /** Distinct annotation names weighed against the step forms so far (bounded: names past it are not weighed). */
    private final Set<String> annotationNames = new HashSet<>();

    private static final int MAX_ANNOTATION_NAMES = 10_000;
    private double nearestScore = Double.MAX_VALUE;

    /**
     * Keeps the CPU-side annotation that comes nearest a step form without being one (udfs StepNames.nearness), for
     * the reason a rank without steps gives (METRICS.md §1).
     */
    private void nearStep(String name) {
        if (name == null || annotationNames.size() >= MAX_ANNOTATION_NAMES || !annotationNames.add(name)) return;
        StepNames.Nearness n = StepNames.nearness(name);
        if (n == null) return;
        if (n.score() < nearestScore || (n.score() == nearestScore && name.compareTo(out.nearestAnnotation) < 0)) {
            nearestScore = n.score();
            out.nearestAnnotation = name;
            out.nearestStepForm = n.form();
        }
    }

    private void gpu(RankEvent e) {
        if (!windowsSealed) sealWindows();
        sweep.addActivity(
                e.ts,
                e.end(),
                e.activityClass,
                ActivityClass.CAT_KERNEL.equals(e.cat),
                e.step,
                e.collective,
                e.name != null && KernelNameRules.isCopyKernel(e.name),
                KernelNameRules.isCclBenchEventCat(e.cat),
                e.name != null && KernelNameRules.isCclBenchCommName(e.name));
        if (ActivityClass.COMM.equals(e.activityClass)) comm.add(e);
    }

    /**
     * The rank's step windows (METRICS.md §1): the step annotations of the best kind present on the rank — an XLA
     * device's Steps line, else ProfilerStep#N, else vLLM / SGLang / TPU-vLLM steps.
     */
    private void sealWindows() {
        windowsSealed = true;
        int best = Integer.MAX_VALUE;
        for (StepCandidate c : stepCandidates) best = Math.min(best, c.priority);
        for (StepCandidate c : stepCandidates) {
            if (c.priority == best) {
                sweep.addWindow(c.step, c.start, c.end);
                if (c.name != null) out.stepNames.putIfAbsent(c.step, c.name);
            }
        }
        stepCandidates.clear();
    }

    public RankSummary finish() {
        clipper.flush();
        out.putPart(clipper.clipped());
        if (!windowsSealed) sealWindows();
        sweep.emit(f -> {
            if (f.step() == null) out.whole.put(f.fact(), f.value());
            else out.steps.computeIfAbsent(f.step(), k -> new HashMap<>()).put(f.fact(), f.value());
        });
        out.comm = comm.instances();
        for (RankPart p : parts) out.putPart(p.finish(out));
        return out;
    }
}
