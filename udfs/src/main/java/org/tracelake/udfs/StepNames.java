package org.tracelake.udfs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which annotations delimit steps (METRICS.md section 1): {@code ProfilerStep#N} for training; for
 * inference, vLLM's {@code execute_context_*}, SGLang's {@code run_batch} and TPU vLLM's
 * {@code $core.py:331 step}, tried in that order: a reader uses the first kind present on a rank.
 */
public final class StepNames {

    public static final String VLLM = "vllm";
    public static final String SGLANG = "sglang";
    public static final String TPU_VLLM = "tpu_vllm";

    private static final Pattern PROFILER_STEP = Pattern.compile("ProfilerStep#(\\d+)$");
    private static final Pattern VLLM_STEP = Pattern.compile("^execute_context_");
    /** Also as a Kineto python_function ("…/scheduler.py(812): run_batch"). */
    private static final Pattern SGLANG_STEP = Pattern.compile("(?:^|[\\s:])run_batch$");
    private static final Pattern TPU_VLLM_STEP = Pattern.compile("^\\$core\\.py:331 step$");

    private StepNames() {
    }

    /** N of {@code ProfilerStep#N}; null for other names or an N beyond a long. */
    public static Long profilerStep(String name) {
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

    /** 0 ProfilerStep, 1 vLLM, 2 SGLang, 3 TPU vLLM, −1 not a step name: lower wins. */
    public static int stepNamePriority(String name) {
        if (profilerStep(name) != null) {
            return 0;
        }
        String kind = inferenceStepKind(name);
        if (kind == null) {
            return -1;
        }
        return switch (kind) {
            case VLLM -> 1;
            case SGLANG -> 2;
            default -> 3;
        };
    }
}
