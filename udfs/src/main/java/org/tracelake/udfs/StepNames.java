package org.tracelake.udfs;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which events delimit steps (METRICS.md section 1), best first: the XLA profiler's per-device {@code Steps} line
 * (explicitly numbered step events on the device's own timeline); {@code ProfilerStep#N} for training; for
 * inference, vLLM's {@code execute_context_*}, SGLang's {@code run_batch} and TPU vLLM's
 * {@code $core.py:331 step}: a reader uses the first kind present on a rank.
 *
 * <p>{@link #stepPriority(String, String)} is the whole per-event rule (name and category); the readers' step
 * windows and SQL ({@code step_priority(cat, name)}) both call it, so they cannot disagree.
 */
public final class StepNames {

    public static final String VLLM = "vllm";
    public static final String SGLANG = "sglang";
    public static final String TPU_VLLM = "tpu_vllm";

    /** Kineto's category of CPU-side annotations (record_function); Nsight NVTX ranges are read into it too. */
    public static final String CAT_USER_ANNOTATION = "user_annotation";
    /** The Python tracer's category: how XLA traces carry TPU vLLM's {@code $core.py:331 step}. */
    public static final String CAT_PYTHON_FUNCTION = "python_function";
    /**
     * The category the XLA readers give the events of a device's {@code Steps} line, each named (or tagged) with its
     * step number. They are the device's own step windows, so they come before every annotation kind.
     */
    public static final String CAT_DEVICE_STEP = "xla_step";
    /**
     * The category the XLA readers give a host event that carries a {@code step_num} stat or arg: JAX's
     * {@code jax.profiler.StepTraceAnnotation(name, step_num=N)} (METRICS.md §1), step N whatever its name.
     */
    public static final String CAT_STEP_ANNOTATION = "step_annotation";

    /** Priorities, lower wins: a device's Steps line, then the annotation kinds of {@link #stepNamePriority}. */
    public static final int DEVICE_STEPS_PRIORITY = 0;

    private static final int PROFILER_STEP_PRIORITY = 1;
    /** Priority of the TPU vLLM kind, the only one that may come as a python_function (METRICS.md §1). */
    private static final int TPU_VLLM_PRIORITY = 4;
    /** JAX's StepTraceAnnotation, known by its category ({@link #CAT_STEP_ANNOTATION}), after the named kinds. */
    public static final int STEP_ANNOTATION_PRIORITY = 5;
    /** How many priorities there are: 0 … {@value} − 1. */
    public static final int PRIORITIES = STEP_ANNOTATION_PRIORITY + 1;

    private static final Pattern PROFILER_STEP = Pattern.compile("ProfilerStep#(\\d+)$");
    /** vLLM's execute_context_*, and its newer form execute_&lt;N&gt;_context_&lt;M&gt;(…)_generation_&lt;K&gt;(…) (METRICS.md §1). */
    private static final Pattern VLLM_STEP = Pattern.compile("^execute_(\\d+_)?context_");
    /**
     * SGLang's run_batch, also as a Kineto python_function ("…/scheduler.py(812): run_batch"), and its newer
     * step[EXTEND …] / step[DECODE …] annotations.
     */
    private static final Pattern SGLANG_STEP = Pattern.compile("(?:^|[\\s:])run_batch$|^step\\[[A-Z]+");

    private static final Pattern TPU_VLLM_STEP = Pattern.compile("^\\$core\\.py:331 step$");

    private StepNames() {}

    /** vLLM's context_0: a step that scheduled no prompt tokens (only decodes), in either of its forms. */
    private static final Pattern VLLM_NO_CONTEXT = Pattern.compile("^execute_(\\d+_)?context_0(?!\\d)");
    /** SGLang's step[DECODE …]: a batch of decodes only. */
    private static final Pattern SGLANG_DECODE = Pattern.compile("^step\\[DECODE\\b");

    /**
     * Whether an inference step annotation says it carried no prefill (METRICS.md §4 ttft): vLLM's
     * {@code execute_context_0_…} / {@code execute_<N>_context_0(…)_generation_<K>(…)} or SGLang's
     * {@code step[DECODE …]}. False for every other name, which either says it prefilled or does not say.
     */
    public static boolean saysNoPrefill(String name) {
        if (name == null) {
            return false;
        }
        String trimmed = name.trim();
        return VLLM_NO_CONTEXT.matcher(trimmed).find()
                || SGLANG_DECODE.matcher(trimmed).find();
    }

    /** N of {@code ProfilerStep#N}; null for other names or an N beyond a long. */
    public static Long profilerStep(String name) {
        return PROFILER_STEP_BY_NAME.apply(name);
    }

    /** The per-rank pass asks every CPU-side event's name (millions): each distinct name is matched once. */
    private static final NameMemo<Long> PROFILER_STEP_BY_NAME = new NameMemo<>(StepNames::matchProfilerStep);

    private static Long matchProfilerStep(String name) {
        if (name == null) {
            return null;
        }
        Matcher m = PROFILER_STEP.matcher(name);
        if (!m.find() || m.group(1).length() > 18) {
            return null;
        }
        return Long.parseLong(m.group(1));
    }

    /** "vllm", "sglang" or "tpu_vllm" for an inference step annotation, else null. */
    public static String inferenceStepKind(String name) {
        return STEP_KIND_BY_NAME.apply(name);
    }

    private static final NameMemo<String> STEP_KIND_BY_NAME = new NameMemo<>(StepNames::matchInferenceStepKind);

    private static String matchInferenceStepKind(String name) {
        if (name == null) {
            return null;
        }
        String trimmed = name.trim();
        if (VLLM_STEP.matcher(trimmed).find()) {
            return VLLM;
        }
        if (SGLANG_STEP.matcher(trimmed).find()) {
            return SGLANG;
        }
        if (TPU_VLLM_STEP.matcher(trimmed).find()) {
            return TPU_VLLM;
        }
        return null;
    }

    /**
     * The step rule for one event (METRICS.md §1): {@link #DEVICE_STEPS_PRIORITY} for an event of an XLA device's
     * {@code Steps} line; the priority of its name's kind ({@link #stepNamePriority}) when the event is a CPU-side
     * annotation; else −1. CPU-side means category {@code user_annotation}, or {@code python_function} for the TPU
     * vLLM form. Kineto also writes a GPU-side copy of each annotation ({@code gpu_user_annotation}, on the device's
     * stream, starting when its first kernel does): counted as a step it doubles an inference trace's steps and
     * moves every kernel launched after that start into the copy.
     */
    public static int stepPriority(String cat, String name) {
        if (CAT_DEVICE_STEP.equals(cat)) {
            return DEVICE_STEPS_PRIORITY;
        }
        if (CAT_STEP_ANNOTATION.equals(cat)) {
            return STEP_ANNOTATION_PRIORITY;
        }
        int priority = stepNamePriority(name);
        if (priority < 0) {
            return -1;
        }
        boolean cpuSide =
                CAT_USER_ANNOTATION.equals(cat) || (priority == TPU_VLLM_PRIORITY && CAT_PYTHON_FUNCTION.equals(cat));
        return cpuSide ? priority : -1;
    }

    /**
     * 1 ProfilerStep, 2 vLLM, 3 SGLang, 4 TPU vLLM, −1 not a step name: lower wins (0 is a device's Steps line,
     * which is known by its category, not its name). Ignores the category.
     */
    public static int stepNamePriority(String name) {
        if (profilerStep(name) != null) {
            return PROFILER_STEP_PRIORITY;
        }
        String kind = inferenceStepKind(name);
        if (kind == null) {
            return -1;
        }
        return switch (kind) {
            case VLLM -> PROFILER_STEP_PRIORITY + 1;
            case SGLANG -> PROFILER_STEP_PRIORITY + 2;
            default -> TPU_VLLM_PRIORITY;
        };
    }

    /** The step forms in words, for a reason that says no step was found (METRICS.md §1: it names what it looked for). */
    public static final String LOOKED_FOR = "ProfilerStep#<N>; vLLM execute_context_… or"
            + " execute_<N>_context_<M>(…)_generation_<K>(…); SGLang run_batch or step[<MODE> …]; TPU vLLM"
            + " $core.py:331 step (CPU-side user_annotation events); a JAX StepTraceAnnotation (a host event with a"
            + " step_num)";

    /** The literal part of each step form, and the form it stands for: a name's nearness to a step is to these. */
    private static final List<String[]> STEP_HEADS = List.of(
            new String[] {"profilerstep#", "ProfilerStep#<N>"},
            new String[] {"execute_context_", "execute_context_…"},
            new String[] {"execute_1_context_", "execute_<N>_context_<M>(…)"},
            new String[] {"run_batch", "run_batch"},
            new String[] {"step[extend", "step[<MODE> …]"},
            new String[] {"step[decode", "step[<MODE> …]"},
            new String[] {"$core.py:331 step", "$core.py:331 step"});

    /** How near a name comes to a step form: the edits it is away (relative to the form's length) and the form. */
    public record Nearness(double score, int edits, String form) {}

    /**
     * How near an annotation name comes to any step form (METRICS.md §1: a reason that says no step was found names
     * the nearest annotation seen). Per form, the fewest edits (case-insensitive Levenshtein) that turn some part of the
     * name into the form's literal part ("ProfilerStep#", "execute_context_", "step[EXTEND", …: a form may sit at
     * the start, the end or inside a name), divided by that literal's length; the nearest form wins. Null for a null
     * or blank name.
     */
    public static Nearness nearness(String name) {
        if (name == null || name.isBlank()) {
            return null;
        }
        String n = name.toLowerCase(Locale.ROOT);
        Nearness best = null;
        for (String[] head : STEP_HEADS) {
            int edits = substringEdits(head[0], n);
            double score = (double) edits / head[0].length();
            if (best == null || score < best.score()) {
                best = new Nearness(score, edits, head[1]);
            }
        }
        return best;
    }

    /** Fewest edits turning {@code text}'s best-matching substring into {@code pattern} (free start and end in text). */
    private static int substringEdits(String pattern, String text) {
        int[] prev = new int[text.length() + 1]; // row 0: the empty pattern matches anywhere at no cost
        int[] cur = new int[text.length() + 1];
        for (int i = 1; i <= pattern.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= text.length(); j++) {
                int sub = prev[j - 1] + (pattern.charAt(i - 1) == text.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        int min = Integer.MAX_VALUE;
        for (int v : prev) {
            min = Math.min(min, v);
        }
        return min;
    }
}
