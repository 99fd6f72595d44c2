package org.tracelake.jobs.rank;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CollectiveKind;

/**
 * The interval arithmetic of METRICS.md §3 for one rank: fed its step windows, then its GPU activities in start
 * order, it keeps one merged union per activity set and emits the facts every overlap, utilisation and CCL-Bench
 * metric is computed from. Memory is one rank's merged intervals, never its events.
 */
public final class RankSweep {
    /** One fact row: step is null for whole-trace facts. */
    public record Fact(Long step, String fact, long value) {}

    private record Window(long step, long start, long end) {}

    private final List<Window> windows = new ArrayList<>();
    private final IntervalList gpu = new IntervalList();
    private final IntervalList comm = new IntervalList();
    private final IntervalList compute = new IntervalList();
    private final IntervalList allGather = new IntervalList();
    private final IntervalList kernelAll = new IntervalList();
    private final IntervalList kernelComm = new IntervalList();
    private final IntervalList kernelCompute = new IntervalList();
    private final IntervalList copies = new IntervalList();
    private final IntervalList nonCopyNonComm = new IntervalList();
    private final IntervalList cclCopies = new IntervalList();
    private final IntervalList cclCompute = new IntervalList();
    private final Map<Long, StepSets> bySteps = new TreeMap<>();
    private List<Window> trimmed;
    private long[] trimmedCommDur;
    private long[] trimmedKernelDur;
    private int firstOpenTrimmed;
    private long gpuFirst = Long.MAX_VALUE;
    private long gpuLast = Long.MIN_VALUE;
    private long kernelFirst = Long.MAX_VALUE;
    private long kernelLast = Long.MIN_VALUE;
    private long positiveFirst = Long.MAX_VALUE;
    private long positiveLast = Long.MIN_VALUE;
    private boolean sawCopy;
    private long cclFirst = Long.MAX_VALUE;
    private long cclLast = Long.MIN_VALUE;
    private boolean sawCclCopy;

    private static final class StepSets {
        final IntervalList gpu = new IntervalList();
        final IntervalList comm = new IntervalList();
        final IntervalList compute = new IntervalList();
        final IntervalList copies = new IntervalList();
        final IntervalList nonCopyNonComm = new IntervalList();
        long positiveFirst = Long.MAX_VALUE;
        long positiveLast = Long.MIN_VALUE;
        /** The latest end of the step's GPU activities, and Σ dur of its kernels and of its comm kernels. */
        long last = Long.MIN_VALUE;

        long kernelDur;
        long commKernelDur;
    }

    public void addWindow(long step, long start, long end) {
        windows.add(new Window(step, start, end));
    }

    /**
     * GPU activities must arrive in start order, after every window. isCopy: a copy by name (any GPU activity);
     * isCclEvent / isCclCommName: CCL-Bench's own event categories and communication regex (memory_transfer_overhead).
     */
    public void addActivity(
            long start,
            long end,
            String activityClass,
            boolean isKernel,
            Long step,
            String collective,
            boolean isCopy,
            boolean isCclEvent,
            boolean isCclCommName) {
        if (trimmed == null) sealWindows();
        gpu.add(start, end);
        gpuFirst = Math.min(gpuFirst, start);
        gpuLast = Math.max(gpuLast, end);
        boolean isComm = ActivityClass.COMM.equals(activityClass);
        boolean isCompute = ActivityClass.COMPUTE.equals(activityClass);
        if (isComm) comm.add(start, end);
        if (isCompute) compute.add(start, end);
        if (isComm && CollectiveKind.ALL_GATHER.equals(collective)) allGather.add(start, end);
        if (isKernel) {
            kernelAll.add(start, end);
            kernelFirst = Math.min(kernelFirst, start);
            kernelLast = Math.max(kernelLast, end);
            // CCL-Bench splits kernels in two: communication, and everything else.
            if (isComm) kernelComm.add(start, end);
            else kernelCompute.add(start, end);
            addToOverlappingTrimmedWindows(start, end, isComm);
        }
        if (end > start) {
            positiveFirst = Math.min(positiveFirst, start);
            positiveLast = Math.max(positiveLast, end);
            if (isCopy) {
                copies.add(start, end);
                sawCopy = true;
            } else if (!isComm) {
                nonCopyNonComm.add(start, end);
            }
            if (isCclEvent) addCclBenchEvent(start, end, isCopy, isCclCommName);
        }
        if (step != null) {
            StepSets s = bySteps.computeIfAbsent(step, k -> new StepSets());
            s.gpu.add(start, end);
            s.last = Math.max(s.last, end);
            if (isKernel) {
                s.kernelDur += end - start;
                if (isComm) s.commKernelDur += end - start;
            }
            if (isComm) s.comm.add(start, end);
            if (isCompute) s.compute.add(start, end);
            if (end > start) {
                s.positiveFirst = Math.min(s.positiveFirst, start);
                s.positiveLast = Math.max(s.positiveLast, end);
                if (isCopy) s.copies.add(start, end);
                else if (!isComm) s.nonCopyNonComm.add(start, end);
            }
        }
    }

    /**
     * memory_transfer_overhead as CCL-Bench computes it: only the events of its categories (no Kineto
     * gpu_memcpy/gpu_memset), span from the first to the last of them, compute = neither copy nor comm by its regex.
     */
    private void addCclBenchEvent(long start, long end, boolean isCopy, boolean isCclCommName) {
        cclFirst = Math.min(cclFirst, start);
        cclLast = Math.max(cclLast, end);
        if (isCopy) {
            cclCopies.add(start, end);
            sawCclCopy = true;
        } else if (!isCclCommName) {
            cclCompute.add(start, end);
        }
    }

    public void emit(Consumer<Fact> out) {
        if (gpuFirst != Long.MAX_VALUE) {
            out.accept(new Fact(null, RankFactNames.GPU_FIRST, gpuFirst));
            out.accept(new Fact(null, RankFactNames.GPU_LAST, gpuLast));
            out.accept(new Fact(null, RankFactNames.GPU_UNION, gpu.length()));
            out.accept(new Fact(null, RankFactNames.COMM_UNION, comm.length()));
            out.accept(new Fact(null, RankFactNames.COMPUTE_UNION, compute.length()));
            out.accept(new Fact(
                    null,
                    RankFactNames.OVERLAP,
                    IntervalList.intersect(comm, compute).length()));
            out.accept(new Fact(null, RankFactNames.ALLGATHER_UNION, allGather.length()));
            out.accept(new Fact(
                    null,
                    RankFactNames.ALLGATHER_OVERLAP,
                    IntervalList.intersect(allGather, compute).length()));
        }
        if (kernelFirst != Long.MAX_VALUE) {
            out.accept(new Fact(null, RankFactNames.KERNEL_FIRST, kernelFirst));
            out.accept(new Fact(null, RankFactNames.KERNEL_LAST, kernelLast));
            out.accept(new Fact(null, RankFactNames.KERNEL_UNION, kernelAll.length()));
            out.accept(new Fact(null, RankFactNames.CCL_COMM_TOTAL, kernelComm.length()));
        }
        if (sawCopy) {
            long overlap = IntervalList.intersect(copies, nonCopyNonComm).length();
            out.accept(new Fact(null, RankFactNames.COPY_PURE, copies.length() - overlap));
            out.accept(new Fact(null, RankFactNames.POSITIVE_FIRST, positiveFirst));
            out.accept(new Fact(null, RankFactNames.POSITIVE_LAST, positiveLast));
        }
        if (sawCclCopy) {
            long overlap = IntervalList.intersect(cclCopies, cclCompute).length();
            out.accept(new Fact(null, RankFactNames.CCL_COPY_PURE, cclCopies.length() - overlap));
            out.accept(new Fact(null, RankFactNames.CCL_EVENT_FIRST, cclFirst));
            out.accept(new Fact(null, RankFactNames.CCL_EVENT_LAST, cclLast));
        }
        for (Map.Entry<Long, StepSets> e : bySteps.entrySet()) {
            StepSets s = e.getValue();
            out.accept(new Fact(e.getKey(), RankFactNames.GPU_UNION, s.gpu.length()));
            out.accept(new Fact(e.getKey(), RankFactNames.COMM_UNION, s.comm.length()));
            out.accept(new Fact(e.getKey(), RankFactNames.COMPUTE_UNION, s.compute.length()));
            out.accept(new Fact(
                    e.getKey(),
                    RankFactNames.OVERLAP,
                    IntervalList.intersect(s.comm, s.compute).length()));
            if (s.copies.size() > 0) {
                long overlap =
                        IntervalList.intersect(s.copies, s.nonCopyNonComm).length();
                out.accept(new Fact(e.getKey(), RankFactNames.COPY_PURE, s.copies.length() - overlap));
                out.accept(new Fact(e.getKey(), RankFactNames.POSITIVE_FIRST, s.positiveFirst));
                out.accept(new Fact(e.getKey(), RankFactNames.POSITIVE_LAST, s.positiveLast));
            }
        }
        emitWindows(out);
    }

    /** Windows in time order; trimmed steps (CCL-Bench) drop the first and last when a rank has more than two. */
    private void sealWindows() {
        windows.sort((a, b) -> Long.compare(a.start, b.start));
        // A step number names one window (METRICS.md §1). A malformed rank that repeats ProfilerStep#N keeps its
        // earliest window: every per-step fact stays one value per (rank, step), where a repeat used to end the
        // whole metrics run with a duplicate map key in rank_step.
        Set<Long> seen = new HashSet<>();
        windows.removeIf(w -> !seen.add(w.step));
        trimmed = windows.size() > 2 ? windows.subList(1, windows.size() - 1) : windows;
        trimmedCommDur = new long[trimmed.size()];
        trimmedKernelDur = new long[trimmed.size()];
    }

    /** Σ of full durations of the kernels that overlap each trimmed window (communication_fraction). */
    private void addToOverlappingTrimmedWindows(long start, long end, boolean isComm) {
        while (firstOpenTrimmed < trimmed.size() && trimmed.get(firstOpenTrimmed).end <= start) firstOpenTrimmed++;
        for (int i = firstOpenTrimmed; i < trimmed.size() && trimmed.get(i).start < end; i++) {
            Window w = trimmed.get(i);
            if (start < w.end && end > w.start) {
                trimmedKernelDur[i] += end - start;
                if (isComm) trimmedCommDur[i] += end - start;
            }
        }
    }

    private void emitWindows(Consumer<Fact> out) {
        if (trimmed == null) sealWindows();
        if (windows.isEmpty()) return;
        IntervalList cclOverlap = IntervalList.intersect(kernelComm, kernelCompute);
        for (Window w : windows) {
            out.accept(new Fact(w.step, RankFactNames.WINDOW_START, w.start));
            out.accept(new Fact(w.step, RankFactNames.WINDOW_END, w.end));
            out.accept(new Fact(w.step, RankFactNames.GPU_IN_WINDOW, gpu.lengthWithin(w.start, w.end)));
            StepSets s = bySteps.get(w.step);
            if (s != null && s.last > w.end) { // the step's GPU work runs after its window (METRICS.md §1)
                out.accept(new Fact(w.step, RankFactNames.GPU_SPAN_END, s.last));
                out.accept(new Fact(w.step, RankFactNames.GPU_IN_SPAN, gpu.lengthWithin(w.start, s.last)));
                out.accept(new Fact(w.step, RankFactNames.STEP_KERNEL_DUR, s.kernelDur));
                out.accept(new Fact(w.step, RankFactNames.STEP_COMM_KERNEL_DUR, s.commKernelDur));
            }
        }
        for (int i = 0; i < trimmed.size(); i++) {
            Window w = trimmed.get(i);
            out.accept(new Fact(w.step, RankFactNames.TRIMMED, 1));
            out.accept(new Fact(w.step, RankFactNames.CCL_COMM_IN_WINDOW, kernelComm.lengthWithin(w.start, w.end)));
            out.accept(new Fact(w.step, RankFactNames.CCL_OVERLAP_IN_WINDOW, cclOverlap.lengthWithin(w.start, w.end)));
            out.accept(new Fact(w.step, RankFactNames.CCL_COMM_DUR_OVERLAPPING, trimmedCommDur[i]));
            out.accept(new Fact(w.step, RankFactNames.CCL_KERNEL_DUR_OVERLAPPING, trimmedKernelDur[i]));
        }
        out.accept(new Fact(null, RankFactNames.TRIMMED_STEPS, trimmed.size()));
        // CCL-Bench clips to the trimmed span only when it trimmed (more than two steps); with one or two steps it
        // divides the whole-trace union, kernels that run past the last step included.
        long spanStart = trimmed.get(0).start;
        long spanEnd = trimmed.get(trimmed.size() - 1).end;
        long basis = windows.size() > 2 ? kernelComm.lengthWithin(spanStart, spanEnd) : kernelComm.length();
        out.accept(new Fact(null, RankFactNames.CCL_COMM_PER_STEP_BASIS, basis));
    }
}
