package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StepNamesTest {

    @Test
    void profilerStepNumber() {
        assertEquals(12L, StepNames.profilerStep("ProfilerStep#12"));
        assertEquals(0L, StepNames.profilerStep("ProfilerStep#0"));
        assertNull(StepNames.profilerStep("ProfilerStep#12 extra")); // the number must end the name
        assertNull(StepNames.profilerStep("ProfilerStep#"));
        assertNull(StepNames.profilerStep("Optimizer.step#SGD.step"));
        assertNull(StepNames.profilerStep("ProfilerStep#99999999999999999999")); // beyond a long
        assertNull(StepNames.profilerStep(null));
    }

    @Test
    void inferenceStepKinds() {
        assertEquals("vllm", StepNames.inferenceStepKind("execute_context_1(512)_generation_3(3)"));
        assertEquals("sglang", StepNames.inferenceStepKind("run_batch"));
        // the newer annotations (METRICS.md §1): vLLM execute_<N>_context_<M>(…)_generation_<K>(…), SGLang step[MODE …]
        assertEquals("vllm", StepNames.inferenceStepKind("execute_12_context_1(512)_generation_3(3)"));
        assertEquals("sglang", StepNames.inferenceStepKind("step[EXTEND bs=1 toks=512]"));
        assertEquals("sglang", StepNames.inferenceStepKind("step[DECODE bs=8]"));
        assertNull(StepNames.inferenceStepKind("step[lowercase]"));
        assertNull(StepNames.inferenceStepKind("execute_model"));
        assertEquals("sglang", StepNames.inferenceStepKind("sglang/srt/managers/scheduler.py(812): run_batch"));
        assertEquals("tpu_vllm", StepNames.inferenceStepKind("$core.py:331 step"));
        assertNull(StepNames.inferenceStepKind("$core.py:331 step_with_batch_queue"));
        assertNull(StepNames.inferenceStepKind("run_batch_prefill"));
        assertNull(StepNames.inferenceStepKind("ProfilerStep#3"));
        assertNull(StepNames.inferenceStepKind(null));
    }

    @Test
    void priorityOrdersStepKinds() {
        assertEquals(1, StepNames.stepNamePriority("ProfilerStep#3"));
        assertEquals(2, StepNames.stepNamePriority("execute_context_0(0)_generation_8(8)"));
        assertEquals(3, StepNames.stepNamePriority("run_batch"));
        assertEquals(4, StepNames.stepNamePriority("$core.py:331 step"));
        assertEquals(-1, StepNames.stepNamePriority("aten::mm"));
        assertEquals(-1, StepNames.stepNamePriority(null));
    }

    /** METRICS.md §1 (amended): only CPU-side annotations are steps, whatever their name. */
    @Test
    void jaxStepTraceAnnotationsAreStepsByTheirCategory() {
        // METRICS.md §1: a host event with step_num (the XLA readers' step_annotation) is a step, whatever its name
        assertEquals(5, StepNames.stepPriority(StepNames.CAT_STEP_ANNOTATION, "train_step"));
        assertEquals(-1, StepNames.stepPriority("cpu_op", "train_step"));
    }

    @Test
    void stepsThatSayTheyCarryNoPrefill() {
        // METRICS.md §4 ttft: vLLM counts prefill requests after "context_"; SGLang names a decode-only batch
        assertTrue(StepNames.saysNoPrefill("execute_context_0(0)_generation_8(8)"));
        assertTrue(StepNames.saysNoPrefill("execute_3_context_0(0)_generation_16(16)"));
        assertTrue(StepNames.saysNoPrefill("step[DECODE bs=8]"));
        assertFalse(StepNames.saysNoPrefill("execute_context_1(77)_generation_0(0)"));
        assertFalse(StepNames.saysNoPrefill("execute_context_10(512)_generation_0(0)"));
        assertFalse(StepNames.saysNoPrefill("step[EXTEND bs=8]"));
        assertFalse(StepNames.saysNoPrefill("ProfilerStep#3"));
        assertFalse(StepNames.saysNoPrefill(null));
    }

    @Test
    void onlyCpuSideAnnotationsAreSteps() {
        String vllm = "execute_context_0(4)_generation_0(4)";
        assertEquals(1, StepNames.stepPriority("user_annotation", "ProfilerStep#3"));
        assertEquals(2, StepNames.stepPriority("user_annotation", vllm));
        assertEquals(3, StepNames.stepPriority("user_annotation", "run_batch"));
        assertEquals(4, StepNames.stepPriority("user_annotation", "$core.py:331 step"));
        assertEquals(4, StepNames.stepPriority("python_function", "$core.py:331 step")); // XLA's Python tracer
        // Kineto's GPU-side copy of an annotation is never a step
        assertEquals(-1, StepNames.stepPriority("gpu_user_annotation", vllm));
        assertEquals(-1, StepNames.stepPriority("gpu_user_annotation", "ProfilerStep#3"));
        // other categories: §1 allows python_function for the TPU form only
        assertEquals(-1, StepNames.stepPriority("python_function", "sglang/srt/managers/scheduler.py(812): run_batch"));
        assertEquals(-1, StepNames.stepPriority("cpu_op", "ProfilerStep#3"));
        assertEquals(-1, StepNames.stepPriority("kernel", vllm));
        assertEquals(-1, StepNames.stepPriority(null, vllm));
        assertEquals(-1, StepNames.stepPriority("user_annotation", "aten::mm"));
        assertEquals(-1, StepNames.stepPriority("user_annotation", null));
    }

    /**
     * Issue 14 item 8: an XLA device's Steps line (the readers' category xla_step, events named by their number)
     * is the device's own step windows, before every annotation kind, for the readers and the metrics alike.
     */
    @Test
    void anXlaDeviceStepsLineComesFirst() {
        assertEquals(0, StepNames.stepPriority("xla_step", "7"));
        assertEquals(0, StepNames.stepPriority(StepNames.CAT_DEVICE_STEP, null));
        assertTrue(
                StepNames.stepPriority("xla_step", "7") < StepNames.stepPriority("user_annotation", "ProfilerStep#7"));
        assertEquals(-1, StepNames.stepNamePriority("7")); // known by its category, not its name
    }

    /**
     * METRICS.md §1: a reason that says no step was found names the nearest annotation. "Profiler Step 12" is 2 edits
     * from "ProfilerStep#" (drop the blank, '1' for '#' — the digits after it are free): 2/13; "execute_model" is 7
     * edits from "execute_context_" at best; "step[extend 3]" differs from "step[EXTEND" only in case (the form wants
     * upper case), so 0 edits.
     */
    @Test
    void nearnessToTheStepForms() {
        StepNames.Nearness profiler = StepNames.nearness("Profiler Step 12");
        assertEquals("ProfilerStep#<N>", profiler.form());
        assertEquals(2, profiler.edits());
        assertEquals(0, StepNames.nearness("step[extend 3]").edits());
        assertEquals("step[<MODE> …]", StepNames.nearness("step[extend 3]").form());
        org.junit.jupiter.api.Assertions.assertTrue(
                StepNames.nearness("Profiler Step 12").score()
                        < StepNames.nearness("forward").score());
        org.junit.jupiter.api.Assertions.assertNull(StepNames.nearness(" "));
    }
}
