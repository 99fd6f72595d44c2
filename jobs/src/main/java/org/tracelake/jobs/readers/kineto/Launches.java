package org.tracelake.jobs.readers.kineto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runtime launches ({@code cuda_runtime} / {@code cuda_driver} complete events) by correlation id: start in relative
 * ns and launching thread, the first record of the file winning — what a GPU activity's launch time, step and
 * enclosing comm ops are found by. Learnt as the scan streams by, whatever the order of kernels and launches (real
 * Kineto writes a kernel just before its launch): no row is made before the file's end, or before a first pass over
 * the whole file, so every activity finds its launch wherever the file put it.
 */
final class Launches {
    private final IdTable table = new IdTable();
    private final List<String> threadNames = new ArrayList<>();
    private final Map<String, Integer> threadIds = new HashMap<>();

    static boolean isLaunch(String cat) {
        return "cuda_runtime".equals(cat) || "cuda_driver".equals(cat);
    }

    /** Categories of the GPU activities that have a launch. */
    static boolean isGpuActivity(String cat) {
        return "kernel".equals(cat) || "gpu_memcpy".equals(cat) || "gpu_memset".equals(cat);
    }

    /** A launch with a usable ts and dur (the caller checks them): kept when it has a correlation id. */
    void learn(Long correlation, long relTs, String tid) {
        if (correlation != null) table.putIfAbsent(correlation, relTs, threadId(tid));
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
