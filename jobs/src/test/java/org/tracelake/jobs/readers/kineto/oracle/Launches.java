package org.tracelake.jobs.readers.kineto.oracle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.readers.common.ChromeEvent;
import org.tracelake.udfs.Numbers;

/**
 * Runtime launches ({@code cuda_runtime} / {@code cuda_driver} complete events) by correlation id: start in relative
 * ns and launching thread, the first record of the file winning — what a GPU activity's launch time, step and
 * enclosing comm ops are found by.
 *
 * <p><b>Which pass learns them.</b> A GPU activity needs its launch when the second pass reaches it. Real Kineto
 * files write a kernel just before its launch (the CUDA traces of ../shared: the runtime call follows its kernel), so
 * there the first pass has to index every launch. Files whose launches come before their kernels (the generator's,
 * ROCm's) need no such index: the second pass meets each launch before the activity that wants it. The order is
 * detected, not assumed: the first pass keeps indexing launches until it has seen {@link #ORDER_SAMPLE} GPU
 * activities with a correlation id, each with its launch already indexed; from then on it leaves launches to the
 * second pass, whose parser reads them anyway, and the first pass's sieve drops them unparsed.
 * One activity whose launch is not yet indexed settles the other way: the first pass indexes every launch to the end.
 *
 * <p><b>When the order turns out wrong midway.</b> The second pass learns every launch it walks past ({@link #learn})
 * and asks {@link #missing} before it uses one. The first activity whose launch it has not met (one written after it,
 * or absent from the file) makes the reader index the launches of the whole file once, as the first pass would have
 * ({@code KinetoReader}: a sieved scan, {@link #scans} counts it), before that activity's row is built. Every row
 * built before had its launch, and first-record-wins gives the same table whichever pass filled it, so the rows are
 * those of a first pass that indexed everything; the cost of a wrong guess is one scan that keeps launches only.
 */
final class Launches {
    /** GPU activities, each with its launch before it, that the first pass sees before leaving launches to the second. */
    static final int ORDER_SAMPLE = 1024;

    private final IdTable table = new IdTable();
    private final List<String> threadNames = new ArrayList<>();
    private final Map<String, Integer> threadIds = new HashMap<>();

    private static final int SAMPLING = 0; // the first pass indexes launches and watches the order
    private static final int INDEX_ALL = 1; // an activity came before its launch: the first pass indexes every launch
    private static final int SECOND_PASS = 2; // launches came first: the second pass learns them as it goes
    private int state = SAMPLING;
    /** GPU activities seen with their launch already indexed, while {@link #SAMPLING}. */
    private int inOrder;
    /** The second pass indexed the whole file's launches (after a miss). */
    private boolean scanned;
    /** Whole-file launch scans the second pass made (0 or 1): for tests and the benchmark harness. */
    int scans;

    static boolean isLaunch(String cat) {
        return "cuda_runtime".equals(cat) || "cuda_driver".equals(cat);
    }

    /** Categories of the GPU activities whose order against their launches the first pass looks at. */
    static boolean isGpuActivity(String cat) {
        return "kernel".equals(cat) || "gpu_memcpy".equals(cat) || "gpu_memset".equals(cat);
    }

    /** Whether the first pass indexes launches (its sieve keeps them, its parser reads their args). */
    boolean indexing() {
        return state != SECOND_PASS;
    }

    /** Whether the first pass still looks at GPU activities to find out the order. */
    boolean sampling() {
        return state == SAMPLING;
    }

    /**
     * The first pass met a GPU activity: one whose launch is not indexed yet settles it (the first pass indexes
     * launches to the end of the file); {@link #ORDER_SAMPLE} in order leave the launches to the second pass.
     */
    void sample(ChromeEvent activity) {
        if (state != SAMPLING) return;
        Long correlation = activity.longArg("correlation");
        if (correlation == null) return;
        if (table.value(correlation) == IdTable.ABSENT) {
            state = INDEX_ALL;
        } else if (++inOrder >= ORDER_SAMPLE) {
            state = SECOND_PASS;
        }
    }

    /**
     * Records the event when it is a launch the index learns from: complete ({@code ph} X) with a usable {@code ts}
     * and non-negative {@code dur}, and a correlation id. The same rule in both passes and in the scan.
     */
    void learn(ChromeEvent e) {
        if (!isLaunch(e.cat) || !"X".equals(e.ph) || e.ts == null || e.dur == null) return;
        long relTs;
        long dur;
        try {
            relTs = Numbers.microsToNanos(e.ts);
            dur = Numbers.microsToNanos(e.dur);
        } catch (Numbers.NotANumber bad) {
            return; // the second pass drops the event and says why
        }
        if (relTs == Long.MIN_VALUE || dur < 0) return;
        Long correlation = e.longArg("correlation");
        if (correlation != null) table.putIfAbsent(correlation, relTs, threadId(e.tid));
    }

    /** The second pass indexed the whole file's launches: it stops learning and asking. */
    void scanned() {
        scanned = true;
        scans++;
    }

    /** Whether the table holds every launch of the file (a first pass that indexed to its end, or a scan). */
    boolean complete() {
        return state != SECOND_PASS || scanned;
    }

    /** Whether the second pass must index the whole file's launches before it can trust the table for this id. */
    boolean missing(Long correlation) {
        return correlation != null && !complete() && table.value(correlation) == IdTable.ABSENT;
    }

    /** Start (relative ns) of the launch with this correlation id, or null. */
    Long start(Long correlation) {
        if (correlation == null) return null;
        long start = table.value(correlation);
        return start == IdTable.ABSENT ? null : start;
    }

    /** The thread (tid as written) of the launch with this correlation id, or null. */
    String thread(Long correlation) {
        if (correlation == null || table.value(correlation) == IdTable.ABSENT) return null;
        return threadNames.get(table.tag(correlation));
    }

    private int threadId(String tid) {
        return threadIds.computeIfAbsent(tid == null ? "" : tid, t -> {
            threadNames.add(t);
            return threadNames.size() - 1;
        });
    }
}
