package org.tracelake.jobs.readers.xla;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.StepNames;

/**
 * What the XLA profiler's timelines ("lines", shown as threads in its JSON) hold, as an {@code events} category.
 * Device planes: {@code XLA Ops} (TPU) and {@code Stream #N(Kernel…)} (GPU) carry device activity ({@code Async XLA
 * Ops} shows the same ops in flight, {@link #CAT_ASYNC_OP}), so they become {@code kernel} (or {@code gpu_memcpy}/{@code gpu_memset} for copy and set rows on GPU
 * streams) and the udfs classify them; {@code Steps} holds step windows; {@code XLA Modules} whole programs; the
 * other device lines (TraceMe, Framework Ops, Framework Name Scope) are annotations projected onto device time, like
 * Kineto's {@code gpu_user_annotation}. Host planes: the GPU tracer's {@code Host Threads/<tid>} lines are CUDA/HIP
 * runtime calls ({@code cuda_runtime}, the category Kineto uses for both), {@code $file:line fn} events are the
 * Python tracer ({@code python_function}), everything else is a TraceMe span ({@code cpu_op}).
 */
public final class XlaLines {
    private XlaLines() {}

    public static final String STEPS = "Steps";
    public static final String CAT_STEP = StepNames.CAT_DEVICE_STEP;
    public static final String CAT_MODULE = "xla_module";
    /**
     * The TPU's {@code Async XLA Ops} line: the async ops in flight (a copy or collective from its start to its done).
     * The same ops are on the {@code XLA Ops} line, so these rows describe, and are never device activity added on
     * top (METRICS.md §2: a 92 s window held 276 s of kernel time when they were).
     */
    public static final String CAT_ASYNC_OP = "xla_async_op";

    public static final String CAT_DEVICE_ANNOTATION = "gpu_user_annotation";
    public static final String CAT_RUNTIME = "cuda_runtime";
    public static final String CAT_PYTHON = "python_function";
    public static final String CAT_HOST = "cpu_op";

    private static final Pattern GPU_STREAM = Pattern.compile("^Stream #(\\d{1,18})");

    /** The stat (XSpace) or arg (JSON) with which JAX's StepTraceAnnotation numbers its host event. */
    public static final String STEP_NUM = "step_num";

    /**
     * The category of an event, given also its {@code step_num} stat: a host event that carries one is a step
     * annotation ({@link StepNames#CAT_STEP_ANNOTATION}, METRICS.md §1), whatever its line.
     */
    public static String category(String lineName, boolean onDevice, String eventName, String stepNum) {
        if (!onDevice && stepNumber(stepNum) != null) return StepNames.CAT_STEP_ANNOTATION;
        return category(lineName, onDevice, eventName);
    }

    /** A step_num value as a step number, or null when absent or not a whole number. */
    public static Long stepNumber(String stepNum) {
        return stepNum != null && stepNum.matches("\\d{1,18}") ? Long.valueOf(stepNum) : null;
    }

    public static String category(String lineName, boolean onDevice, String eventName) {
        String line = lineName == null ? "" : lineName.trim();
        if (onDevice) {
            if (line.equals("XLA Ops")) return ActivityClass.CAT_KERNEL;
            if (line.equals("Async XLA Ops")) return CAT_ASYNC_OP;
            if (GPU_STREAM.matcher(line).find()) return gpuStreamCategory(eventName);
            if (line.equals(STEPS)) return CAT_STEP;
            if (line.equals("XLA Modules")) return CAT_MODULE;
            return CAT_DEVICE_ANNOTATION;
        }
        if (line.startsWith("Host Threads/")) return CAT_RUNTIME;
        if (eventName != null && eventName.startsWith("$")) return CAT_PYTHON;
        return CAT_HOST;
    }

    /** The CUDA/HIP stream of a GPU stream line ("Stream #17(Kernel)" is 17), or null for other lines. */
    public static Long gpuStream(String lineName) {
        if (lineName == null) return null;
        Matcher m = GPU_STREAM.matcher(lineName.trim());
        return m.find() ? Long.valueOf(m.group(1)) : null;
    }

    private static String gpuStreamCategory(String eventName) {
        if (eventName != null) {
            if (eventName.startsWith("Memcpy") || eventName.startsWith("MemcpyP2P"))
                return ActivityClass.CAT_GPU_MEMCPY;
            if (eventName.startsWith("Memset")) return ActivityClass.CAT_GPU_MEMSET;
        }
        return ActivityClass.CAT_KERNEL;
    }
}
