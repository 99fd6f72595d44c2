package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.schemas.EventSchema;

/**
 * Issue 28, and 43: a kernel's {@code launch_ts_ns} and its step (by launch time, METRICS.md §1) are the same whatever
 * the order of kernels and launches in the file, and whether the reader reads it once (launches resolved at the end of
 * the file) or twice (its budget's fallback: the first pass indexes every launch). Each case states them from the
 * times written here. The cases are those that made the two-pass reader before issue 43 guess the order, guess wrong
 * midway, or find no launch at all.
 *
 * <p>Every trace: step 1 is [t0, t0 + 10 ms), step 2 [t0 + 10 ms, t0 + 20 ms). {@link #IN_ORDER} kernels launched
 * in step 1 at t0 + 1 µs + i × 5 µs (the last at t0 + 5.496 ms), each starting 2 µs after its launch.
 */
class LaunchOrderTest {
    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long STEP_NS = 10_000_000;
    /** More than the 1,024 in-order activities after which the two-pass reader left launches to its second pass. */
    private static final int IN_ORDER = 1_100;
    /** The kernel whose launch may come after it: starts in step 2, launched near the end of step 1. */
    private static final long LATE_KERNEL_START = T0 + 12_000_000;

    private static final long LATE_LAUNCH = T0 + 9_990_000;
    private static final long LATE_CORRELATION = 1_000_001;

    @Test
    void launchesBeforeTheirKernelsAreLearntByTheSecondPass(@TempDir Path dir) throws IOException {
        Trace trace = steps().inOrderKernels();
        Map<Long, InternalRow> kernels = read(dir, trace.toJson(), 0);
        assertEquals(IN_ORDER, kernels.size());
        assertInOrderKernels(kernels);
    }

    /** The order turns out wrong after the sample: one scan of the file's launches, then the kernel has its launch. */
    @Test
    void aKernelBeforeItsLaunchAfterTheSampleMakesOneScan(@TempDir Path dir) throws IOException {
        Trace trace = steps().inOrderKernels().lateKernel().lateLaunch();
        Map<Long, InternalRow> kernels = read(dir, trace.toJson(), 1);
        assertInOrderKernels(kernels);
        InternalRow late = kernels.get(LATE_CORRELATION);
        assertEquals(LATE_LAUNCH, late.getLong(col(EventSchema.LAUNCH_TS_NS)));
        assertEquals(1L, late.getLong(col(EventSchema.STEP)), "stepped by its launch at t0 + 9.99 ms, not its start");
    }

    /** A kernel whose launch the file does not hold: the scan finds none, and its own start decides its step. */
    @Test
    void aKernelWithoutALaunchAfterTheSampleIsSteppedByItsStart(@TempDir Path dir) throws IOException {
        Trace trace = steps().inOrderKernels().lateKernel();
        Map<Long, InternalRow> kernels = read(dir, trace.toJson(), 1);
        assertInOrderKernels(kernels);
        InternalRow late = kernels.get(LATE_CORRELATION);
        assertNull(late.isNullAt(col(EventSchema.LAUNCH_TS_NS)) ? null : late.getLong(col(EventSchema.LAUNCH_TS_NS)));
        assertEquals(2L, late.getLong(col(EventSchema.STEP)), "no launch: stepped by its start at t0 + 12 ms");
    }

    /** Real Kineto's order, a kernel before its launch from the start: the first pass indexes them all, no scan. */
    @Test
    void kernelsBeforeTheirLaunchesAreIndexedByTheFirstPass(@TempDir Path dir) throws IOException {
        Trace trace = steps().lateKernel().lateLaunch().inOrderKernels();
        Map<Long, InternalRow> kernels = read(dir, trace.toJson(), 0);
        assertInOrderKernels(kernels);
        assertEquals(LATE_LAUNCH, kernels.get(LATE_CORRELATION).getLong(col(EventSchema.LAUNCH_TS_NS)));
    }

    /** Kernel i (correlation i + 1, as the builder numbers them): launched at t0 + 1 µs + i × 5 µs, so in step 1. */
    private static void assertInOrderKernels(Map<Long, InternalRow> kernels) {
        for (int i = 0; i < IN_ORDER; i++) {
            InternalRow k = kernels.get((long) i + 1);
            assertEquals(T0 + 1_000 + i * 5_000L, k.getLong(col(EventSchema.LAUNCH_TS_NS)), "kernel " + i);
            assertEquals(1L, k.getLong(col(EventSchema.STEP)), "kernel " + i);
        }
    }

    /** The trace being written, in the order of the calls. */
    private static final class Trace {
        final KinetoTraceBuilder b = new KinetoTraceBuilder(0, 1);

        Trace inOrderKernels() {
            for (int i = 0; i < IN_ORDER; i++) {
                long launch = T0 + 1_000 + i * 5_000L;
                b.kernel("gemm_" + i, 7, launch + 2_000, 1_000, launch, Map.of());
            }
            return this;
        }

        Trace lateKernel() {
            b.kernelWithoutLaunch("late_gemm", 7, LATE_KERNEL_START, 1_000, Map.of("correlation", LATE_CORRELATION));
            return this;
        }

        Trace lateLaunch() {
            b.cpu("cuda_runtime", "cudaLaunchKernel", LATE_LAUNCH, 1_000, Map.of("correlation", LATE_CORRELATION));
            return this;
        }

        String toJson() {
            return b.toJson();
        }
    }

    private static Trace steps() {
        Trace t = new Trace();
        t.b.step(1, T0, STEP_NS).step(2, T0 + STEP_NS, STEP_NS);
        return t;
    }

    /**
     * The kernels' rows by correlation id: the same whether the reader makes one pass (launches resolved at the end of
     * the file) or two (the first indexes every launch). {@code expectedScans} is what the two-pass reader of before
     * issue 43 needed (whole-file launch scans after a wrong guess of the order): the one-pass reader needs none.
     */
    private static Map<Long, InternalRow> read(Path dir, String json, int expectedScans) throws IOException {
        Map<Long, InternalRow> onePass = read(dir, json, new KinetoReader(Long.MAX_VALUE));
        assertEquals(onePass.keySet(), read(dir, json, new KinetoReader(0)).keySet());
        Map<Long, InternalRow> twoPasses = read(dir, json, new KinetoReader(0));
        for (Map.Entry<Long, InternalRow> k : onePass.entrySet()) {
            assertEquals(k.getValue(), twoPasses.get(k.getKey()), "kernel " + k.getKey() + ": one pass or two");
        }
        assertTrue(expectedScans >= 0);
        return onePass;
    }

    private static Map<Long, InternalRow> read(Path dir, String json, KinetoReader reader) throws IOException {
        Path file = Files.writeString(dir.resolve("rank0_trace.json"), json);
        FileTask task = new FileTask(
                "order",
                file.toUri().toString(),
                Files.size(file),
                0L,
                TraceFormat.KINETO,
                0,
                InputLimits.defaults(),
                "test");
        Map<Long, InternalRow> kernels = new HashMap<>();
        try (EventStream rows = reader.open(task, new Configuration())) {
            while (rows.hasNext()) {
                InternalRow r = rows.next();
                if (r.getUTF8String(col(EventSchema.CAT)).toString().equals("kernel")) {
                    kernels.put(r.getLong(col(EventSchema.CORRELATION)), r.copy());
                }
            }
            assertNull(rows.report().error);
        }
        return kernels;
    }

    private static int col(String name) {
        return EventSchema.index(name);
    }
}
