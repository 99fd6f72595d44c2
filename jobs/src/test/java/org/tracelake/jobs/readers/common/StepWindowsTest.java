package org.tracelake.jobs.readers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one step rule (METRICS.md §1) without Spark: each case offers a few events, then looks up times. Times are
 * plain nanoseconds; "[a, b)" is an event from a to b. Expected steps are read off the events by hand.
 */
class StepWindowsTest {
    static final String CPU = "user_annotation";
    static final String GPU_COPY = "gpu_user_annotation";
    static final String VLLM_0 = "execute_context_0(4)_generation_0(4)";
    static final String VLLM_1 = "execute_context_1(4)_generation_1(4)";

    /** One offered event: an annotation (cat, name) or, with cat null, a numbered XLA Steps-line event. */
    record Event(String cat, String name, long number, long start, long end) {
        static Event annotation(String cat, String name, long start, long end) {
            return new Event(cat, name, -1, start, end);
        }

        static Event numbered(long number, long start, long end) {
            return new Event(null, null, number, start, end);
        }
    }

    /** A lookup and its expected step (null: no step contains the time). */
    record Lookup(Long ts, Long step) {}

    static Lookup at(Long ts, Long step) {
        return new Lookup(ts, step);
    }

    static List<Event> events(Event... e) {
        return Arrays.asList(e);
    }

    static Stream<Arguments> cases() {
        List<Arguments> c = new ArrayList<>();
        c.add(Arguments.of(
                "ProfilerStep#N keeps its N; windows are [start, end)",
                events(
                        Event.annotation(CPU, "ProfilerStep#7", 100, 200),
                        Event.annotation(CPU, "ProfilerStep#8", 200, 350)),
                2,
                List.of(at(99L, null), at(100L, 7L), at(199L, 7L), at(200L, 8L), at(349L, 8L), at(350L, null))));
        c.add(Arguments.of(
                "ProfilerStep numbers need not be consecutive or start at 0 (a rank missing #3)",
                events(
                        Event.annotation(CPU, "ProfilerStep#4", 30, 40),
                        Event.annotation(CPU, "ProfilerStep#1", 0, 10),
                        Event.annotation(CPU, "ProfilerStep#2", 10, 30)),
                3,
                List.of(at(5L, 1L), at(10L, 2L), at(35L, 4L))));
        c.add(Arguments.of(
                "inference kinds are numbered 0, 1, … in time order, whatever order they come in",
                events(Event.annotation(CPU, VLLM_1, 500, 600), Event.annotation(CPU, VLLM_0, 0, 500)),
                2,
                List.of(at(0L, 0L), at(499L, 0L), at(500L, 1L), at(600L, null))));
        c.add(Arguments.of(
                "SGLang run_batch and TPU vLLM are step kinds too",
                events(Event.annotation(CPU, "run_batch", 0, 10), Event.annotation(CPU, "run_batch", 20, 30)),
                2,
                List.of(at(5L, 0L), at(15L, null), at(25L, 1L))));
        c.add(Arguments.of(
                "the TPU vLLM form counts as a python_function (XLA's Python tracer)",
                events(Event.annotation("python_function", "$core.py:331 step", 0, 10)),
                1,
                List.of(at(5L, 0L))));
        c.add(Arguments.of(
                "priority: ProfilerStep beats vLLM, whose windows are then ignored",
                events(Event.annotation(CPU, VLLM_0, 0, 1000), Event.annotation(CPU, "ProfilerStep#3", 100, 200)),
                1,
                List.of(at(50L, null), at(150L, 3L), at(500L, null))));
        c.add(Arguments.of(
                "priority: vLLM beats SGLang beats TPU vLLM",
                events(
                        Event.annotation(CPU, "$core.py:331 step", 0, 100),
                        Event.annotation(CPU, "run_batch", 0, 50),
                        Event.annotation(CPU, VLLM_0, 60, 70)),
                1,
                List.of(at(10L, null), at(65L, 0L))));
        c.add(Arguments.of(
                "a numbered Steps line beats every annotation kind",
                events(
                        Event.annotation(CPU, "ProfilerStep#1", 0, 100),
                        Event.numbered(11, 10, 20),
                        Event.numbered(12, 20, 30)),
                2,
                List.of(at(5L, null), at(10L, 11L), at(25L, 12L))));
        // vLLM on a GPU (the shape of kineto/hta-nccl-args-rank0of2's gpu_user_annotation copies: same name, on the
        // device's stream, starting when the first kernel starts, here 5 after the CPU annotation)
        c.add(Arguments.of(
                "GPU-side copies are never steps: one step, not two, and no phantom step 1",
                events(Event.annotation(CPU, VLLM_0, 0, 100), Event.annotation(GPU_COPY, VLLM_0, 5, 103)),
                1,
                List.of(at(1L, 0L), at(50L, 0L), at(99L, 0L), at(100L, null), at(102L, null))));
        c.add(Arguments.of(
                "a GPU-side copy alone makes no step; nor does ProfilerStep#N in another category",
                events(
                        Event.annotation(GPU_COPY, VLLM_0, 0, 100),
                        Event.annotation(GPU_COPY, "ProfilerStep#1", 0, 100),
                        Event.annotation("cpu_op", "ProfilerStep#2", 0, 100)),
                0,
                List.of(at(50L, null))));
        c.add(Arguments.of(
                "overlapping windows: the one that started last wins",
                events(
                        Event.annotation(CPU, "ProfilerStep#1", 0, 120),
                        Event.annotation(CPU, "ProfilerStep#2", 100, 200)),
                2,
                List.of(at(99L, 1L), at(100L, 2L), at(119L, 2L), at(150L, 2L))));
        c.add(Arguments.of(
                "a long window around several short ones still contains the times past them",
                events(
                        Event.annotation(CPU, VLLM_0, 0, 1000),
                        Event.annotation(CPU, VLLM_1, 10, 20),
                        Event.annotation(CPU, VLLM_1, 20, 30),
                        Event.annotation(CPU, VLLM_1, 30, 40),
                        Event.annotation(CPU, VLLM_1, 40, 50)),
                5,
                List.of(at(5L, 0L), at(15L, 1L), at(45L, 4L), at(50L, 0L), at(999L, 0L), at(1000L, null))));
        c.add(Arguments.of(
                "a zero-length window contains no time; a null time has no step",
                events(Event.annotation(CPU, "ProfilerStep#1", 10, 10)),
                1,
                List.of(at(10L, null), at(null, null))));
        c.add(Arguments.of("no events, no steps", events(), 0, List.of(at(0L, null))));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void stepOfATime(String description, List<Event> offered, int expectedCount, List<Lookup> lookups) {
        StepWindows steps = new StepWindows();
        for (Event e : offered) {
            if (e.cat() == null) steps.offerNumbered(e.number(), e.start(), e.end() - e.start());
            else steps.offerAnnotation(e.cat(), e.name(), e.start(), e.end() - e.start());
        }
        steps.seal();
        assertEquals(expectedCount, steps.count(), description + ": step count");
        for (Lookup l : lookups) {
            assertEquals(l.step(), steps.stepAt(l.ts()), description + ": step at " + l.ts());
        }
    }
}
