package org.tracelake.jobs.rank;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.KernelNameRules;
import org.tracelake.udfs.StepNames;

/**
 * One pass over one rank's events, CPU-side events first and then GPU activities, each in start order (what
 * {@link RankEvent#input} sorted by): everything the metric families need of the rank, as a {@link RankSummary}.
 * The rules are METRICS.md's; the classification of each event is the reader's (its activity class, kernel
 * category and collective kind, from {@code udfs}).
 */
public final class RankAccumulator {
    private final RankSummary out = new RankSummary();
    private final RankSweep sweep = new RankSweep();
    private final CommInstances comm = new CommInstances();
    private final List<RankPart> parts = RankParts.create();
    private final List<StepCandidate> stepCandidates = new ArrayList<>();
    private boolean windowsSealed;

    private record StepCandidate(int priority, long step, long start, long end, String name) {}

    public RankAccumulator(int rank) {
        out.rank = rank;
    }

    /** GPU activities pass through it first: an activity running past the next on its stream is clipped there. */
    private final StreamClipper clipper = new StreamClipper(this::take);

    private final LaunchLedger launches = new LaunchLedger();

    /** The next event: CPU-side events (no activity class) all come before the first GPU activity. */
    public void accept(RankEvent e) {
        if (e.isGpu()) clipper.accept(e);
        else take(e);
    }

    /** An event as every rule sees it: a GPU activity clipped to its stream ({@link StreamClipper}), in start order. */
    private void take(RankEvent e) {
        if (e.ts != null) {
            out.spanFirst = out.spanFirst == null ? e.ts : Math.min(out.spanFirst, e.ts);
            out.spanLast = out.spanLast == null ? e.end() : Math.max(out.spanLast, e.end());
            if ("X".equals(e.ph) && XlaOps.isXlaFormat(e)) {
                out.xlaWallFirst = out.xlaWallFirst == null ? e.ts : Math.min(out.xlaWallFirst, e.ts);
                out.xlaWallLast = out.xlaWallLast == null ? e.end() : Math.max(out.xlaWallLast, e.end());
            }
        }
        copyBandwidth(e);
        for (RankPart p : parts) p.accept(e);
        if (e.isGpu()) gpu(e);
        else cpu(e);
    }

    private void cpu(RankEvent e) {
        if (e.ts != null) {
            if ("cuda_runtime".equals(e.cat) || "cuda_driver".equals(e.cat)) {
                out.runtimeEvents++;
                out.runtimeNs += e.dur;
                if (KernelNameRules.isKernelLaunch(e.name)) launches.launch(e.ts);
            }
            if ("X".equals(e.ph)) {
                int priority = StepNames.stepPriority(e.cat, e.name);
                Long step = StepNames.profilerStep(e.name);
                if (step == null) step = e.step;
                if (priority >= 0 && step != null) {
                    stepCandidates.add(new StepCandidate(priority, step, e.ts, e.end(), e.name));
                } else if (StepNames.CAT_USER_ANNOTATION.equals(e.cat)) nearStep(e.name);
            }
        }
        if (GPU_USER_ANNOTATION.equals(e.cat)) return; // Kineto's GPU-side copy of a CPU annotation
        if (e.ts != null && PhasePart.phaseOf(e.name) != null) out.phaseAnnotations++; // timed by PhasePart
        if (e.name != null && e.name.startsWith("FSDP::")) {
            out.hasFsdp = true;
            String metric = fsdpMetric(e.name);
            if (metric != null) out.fsdpNs.merge(metric, e.dur, Long::sum);
        }
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
        if (e.ts == null) return;
        if (e.launchTs != null) launches.activity(e.launchTs);
        if (!windowsSealed) sealWindows();
        boolean isKernel = ActivityClass.CAT_KERNEL.equals(e.cat);
        sweep.addActivity(
                e.ts,
                e.end(),
                e.activityClass,
                isKernel,
                e.step,
                e.collective,
                e.name != null && KernelNameRules.isCopyKernel(e.name),
                KernelNameRules.isCclBenchEventCat(e.cat),
                e.name != null && KernelNameRules.isCclBenchCommName(e.name));
        if (ActivityClass.COMM.equals(e.activityClass)) {
            comm.add(e); // kernel_totals counts communication by instance, from the rank's collective instances
        } else {
            long[] totals = out.gpuTotals.computeIfAbsent(
                    new RankSummary.GpuKey(e.name, e.activityClass, e.kernelCategory), k -> new long[2]);
            totals[0]++;
            totals[1] += e.dur;
        }
        if (!ActivityClass.SYNC.equals(e.activityClass)) {
            out.hasKernelTime = true;
            out.kernelTimeNs += e.dur;
            if (e.name != null) out.kernelTimeByName.merge(e.name, e.dur, Long::sum);
            out.kernelTimeByCategory.merge(e.kernelCategory, e.dur, Long::sum);
            if (e.step != null) {
                out.stepKernelTimeNs += e.dur;
                if (e.name != null) out.stepKernelTimeByName.merge(e.name, e.dur, Long::sum);
                if (e.kernelCategory != null) out.stepKernelTimeByCategory.merge(e.kernelCategory, e.dur, Long::sum);
            }
        }
        if (isKernel) leaderboardKernel(e);
        if (XlaOps.isXlaOp(e)) xlaOp(e);
    }

    private void leaderboardKernel(RankEvent e) {
        out.leaderboardKernels++;
        out.leaderboardNs += e.dur;
        out.leaderboardByName.merge(e.name, e.dur, Long::sum);
        if (e.name != null && KernelNameRules.isMoeKernel(e.name)) out.moeNs += e.dur;
        Double blocksPerSm = SparkCasts.toDouble(e.argBlocksPerSm);
        if (blocksPerSm != null) {
            out.smKernels++;
            out.smDurNs += e.dur;
            // least(x, 1.0) as Spark orders doubles: NaN above every number
            out.smWeightedNs += e.dur * (blocksPerSm.isNaN() ? 1.0 : Math.min(blocksPerSm, 1.0));
        }
        if (KernelNameRules.isNcclDevKernel(e.name)) {
            out.hasNcclDevKernel = true;
            out.ncclDevKernelNs += e.dur;
        }
    }

    private void xlaOp(RankEvent e) {
        out.hasXlaOps = true;
        double t = XlaOps.seconds(e);
        if (ActivityClass.COMPUTE.equals(e.activityClass)) out.xlaComputeS += t;
        Double flops = SparkCasts.toDouble(e.argModelFlops);
        if (flops != null) {
            out.xlaWithFlops++;
            out.xlaModelFlops += flops;
            if (flops > 0 && t > 0) {
                out.xlaTimedFlops = (out.xlaTimedFlops == null ? 0.0 : out.xlaTimedFlops) + flops;
                out.xlaTimedFlopsS = (out.xlaTimedFlopsS == null ? 0.0 : out.xlaTimedFlopsS) + t;
            }
        }
    }

    /**
     * average_memory_bandwidth (METRICS.md §4): GPU-side copies (activity class memcpy: Kineto gpu_memcpy, Nsight and
     * rocprof copies) with a duration and a byte count. Memsets are not copies, and neither are the CPU-side runtime
     * calls ROCm's Kineto writes bytes on (hipMemcpyWithStream): their duration is the host's wait.
     */
    private void copyBandwidth(RankEvent e) {
        if (e.dur <= 0 || e.ts == null || !ActivityClass.MEMCPY.equals(e.activityClass)) return;
        Double bytes = SparkCasts.toDouble(e.argBytes);
        if (bytes == null || !(bytes > 0)) return;
        out.copies++;
        out.copyBytes += bytes;
        out.copyNs += e.dur;
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
        out.clippedNs = clipper.clippedNs;
        out.clippedActivities = clipper.clippedActivities;
        out.launchesWithoutActivity = launches.missing();
        if (!windowsSealed) sealWindows();
        sweep.emit(f -> {
            if (f.step() == null) out.whole.put(f.fact(), f.value());
            else out.steps.computeIfAbsent(f.step(), k -> new HashMap<>()).put(f.fact(), f.value());
        });
        out.comm = comm.instances();
        for (RankPart p : parts) out.putPart(p.finish(out));
        return out;
    }

    private static final String GPU_USER_ANNOTATION = "gpu_user_annotation";
    private static final Pattern FSDP_SUFFIX = Pattern.compile("^FSDP::(\\w+)");

    /**
     * The fsdp_* metric of an FSDP::&lt;suffix&gt; annotation: all_gather, reduce_scatter (FSDP2 names it
     * post_backward_reduce), copy_in (all_gather_copy_in), copy_out (all_gather_copy_out), pre/post forward/backward;
     * null for other suffixes (post_backward's nested _reshard/_accumulate are not counted twice).
     */
    static String fsdpMetric(String name) {
        Matcher m = FSDP_SUFFIX.matcher(name);
        String suffix = m.find() ? m.group(1) : "";
        return switch (suffix) {
            case "all_gather" -> "fsdp_all_gather";
            case "reduce_scatter", "post_backward_reduce" -> "fsdp_reduce_scatter";
            case "all_gather_copy_in", "copy_in" -> "fsdp_copy_in";
            case "all_gather_copy_out", "copy_out" -> "fsdp_copy_out";
            case "pre_forward", "post_forward", "pre_backward", "post_backward" ->
                "fsdp_" + suffix.toLowerCase(Locale.ROOT);
            default -> null;
        };
    }
}
