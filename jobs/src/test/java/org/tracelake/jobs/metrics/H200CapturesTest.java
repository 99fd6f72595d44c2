package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.jobs.testing.TestArchive;

/**
 * A refresh of ../shared/captures/h200 as a user would run it (issue 46): both profile folders exactly as the
 * profilers wrote them, each with the card this test writes (1 × NVIDIA H200, training). The JAX folder holds one
 * run in three renderings (vm.xplane.pb, vm.trace.json.gz, perfetto_trace.json.gz): the XSpace is read, the other two
 * are listed as skipped renderings of it, and the steps come from {@code StepTraceAnnotation("train_step",
 * step_num=i)}. Step times are compared with what the GPU side measured while the trace was taken (measured.json).
 */
class H200CapturesTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Refresh.Result result;

    static final String JAX = "h200-jax-attention-1gpu";
    static final String TORCH = "h200-torch-compile-1gpu";

    @BeforeAll
    static void refreshOnce() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        archive.copyCapture(JAX, "h200/" + JAX).card(JAX, "training", "attention-mlp", "NVIDIA H200", 1);
        archive.copyCapture(TORCH, "h200/" + TORCH).card(TORCH, "training", "transformer-encoder", "NVIDIA H200", 1);
        result = archive.refresh(spark);
    }

    @Test
    void theRefreshExitsZero() {
        // RefreshCommand exits 0 exactly when allOk(): no file error, no dropped event (JAX's trailing {} is none)
        assertTrue(
                result.allOk(),
                () -> "problems: "
                        + result.workloads().stream()
                                .map(w -> w.workload() + " " + w.problems() + " "
                                        + w.files().stream()
                                                .map(f -> f.task.fileName() + ":" + f.status + ":" + f.error + ":"
                                                        + f.drops)
                                                .toList())
                                .toList());
    }

    @Test
    void theJaxFolderIsReadOnceFromItsXSpace() {
        Map<String, Row> byName = new TreeMap<>();
        for (Row r : spark.read()
                .format("iceberg")
                .load(archive.table("trace_files"))
                .where("workload = '" + JAX + "'")
                .selectExpr("regexp_extract(path, '[^/]+$', 0)", "status", "error", "time_base", "events_read")
                .collectAsList()) {
            byName.put(r.getString(0), r);
        }
        assertEquals("ok", byName.get("vm.xplane.pb").getString(1));
        assertEquals("epoch", byName.get("vm.xplane.pb").getString(3));
        for (String other : List.of("vm.trace.json.gz", "perfetto_trace.json.gz")) {
            Row r = byName.get(other);
            assertEquals("skipped", r.getString(1), other);
            assertTrue(
                    r.getString(2).contains("another rendering")
                            && r.getString(2).contains("vm.xplane.pb"),
                    r.getString(2));
            assertEquals(0L, r.getLong(4), other + " read no event");
        }
        // one clock: every event of the workload within the 10 ms the profile lasted (the span was 57 years when the
        // XSpace's epoch clock and the JSON's profile clock were mixed)
        Row span = spark.read()
                .format("iceberg")
                .load(archive.table("events"))
                .where("workload = '" + JAX + "' AND ts_ns IS NOT NULL")
                .selectExpr("max(ts_ns + coalesce(dur_ns, 0)) - min(ts_ns)", "count_if(activity_class IS NOT NULL)")
                .first();
        assertTrue(span.getLong(0) < 1_000_000_000L, "span " + span.getLong(0) + " ns");
        // the perfetto JSON holds 384 GPU activities (stream 14); the XSpace the same run's, counted once
        assertEquals(384L, span.getLong(1));
    }

    /**
     * Step i of the JAX run is the host event train_step with step_num i; iter_time is its duration. measured.json's
     * wall_ms times the same call from Python, so it encloses the annotation: each step is 17.7 to 46.6 µs longer
     * there (the profiler's TraceMe and the Python call around it), at most 2.4 % of the step.
     */
    @Test
    void jaxStepsAreTheStepTraceAnnotationsAndMatchTheMeasuredTimes() throws IOException {
        JsonNode measured = new ObjectMapper()
                .readTree(SharedTraces.capture("h200/" + JAX + "/measured.json").toFile())
                .get("steps");
        // durations read by hand from perfetto_trace.json.gz's train_step events (µs, ns digits)
        double[] traceMs = {1.963884, 1.469309, 1.624777, 1.466719, 1.378122, 1.483454};
        Map<Long, Double> iter = iterTimes(JAX);
        assertEquals(6, iter.size(), "six steps: " + iter);
        for (int i = 0; i < 6; i++) {
            double got = iter.get((long) i);
            assertEquals(traceMs[i], got, 1e-9, "step " + i);
            double wall = measured.get(i).get("wall_ms").asDouble();
            assertTrue(got <= wall && wall - got <= 0.050, "step " + i + ": trace " + got + " ms, measured " + wall);
        }
    }

    /**
     * The PyTorch capture's ProfilerStep#1..3 against the CUDA-event times measured around the same steps: the CPU
     * annotation spans the step's dispatch plus its wait, 91.6 to 158.6 µs more than the GPU's events (≤ 1.1 %).
     */
    @Test
    void torchStepsMatchTheCudaEventTimes() throws IOException {
        JsonNode measured = new ObjectMapper()
                .readTree(
                        SharedTraces.capture("h200/" + TORCH + "/measured.json").toFile())
                .get("steps");
        double[] traceMs = {15.651482, 14.359197, 12.771626}; // ProfilerStep#1..3 dur, µs / 1000
        Map<Long, Double> iter = iterTimes(TORCH);
        assertEquals(3, iter.size(), "three steps: " + iter);
        for (int i = 1; i <= 3; i++) {
            double got = iter.get((long) i);
            assertEquals(traceMs[i - 1], got, 1e-9, "step " + i);
            double cuda = measured.get(i).get("cuda_event_ms").asDouble();
            assertTrue(
                    Math.abs(got - cuda) / cuda <= 0.011, "step " + i + ": trace " + got + " ms, CUDA events " + cuda);
        }
    }

    /**
     * phase_time_ms of the PyTorch capture is GPU time (METRICS.md §4 as amended), worked out with python3 over
     * rank0_trace.json.gz (ts/dur µs × 1000 as integers):
     * <ul>
     *   <li>optimizer: each step's Optimizer.step#SGD.step has a GPU-side copy (gpu_user_annotation): 93.345, 92.609
     *       and 93.985 µs in steps 1-3. Its dispatch_ms is the |union| of the CPU annotations Optimizer.step#SGD.step
     *       and Optimizer.zero_grad#SGD.zero_grad: step 1 413.468 + 358.808 = 772.276 µs (disjoint).
     *   <li>backward: no GPU-side copy; the 147 kernels, memcpys and memsets of each step whose launching
     *       cudaLaunchKernel/cuLaunchKernel (by correlation) starts inside one of its 51
     *       autograd::engine::evaluate_function annotations span 4960944546427285 → 4960944553211669 ns in step 1 =
     *       6,784,384 ns; 6,587,458 ns in step 2, 6,672,768 ns in step 3. dispatch_ms: the annotations' |union|, step
     *       1 = 7,475,825 ns (the CPU took longer to dispatch the backward than the GPU took to run it).
     *   <li>workload backward = (6.784384 + 6.587458 + 6.672768) / 3 ms.
     * </ul>
     */
    @Test
    void torchPhasesAreGpuTime() {
        MetricRows m = MetricRows.load(spark, archive.table("metrics"));
        String p = "phase_time_ms";
        m.ok(0.093345, TORCH, p, null, "step", 0, 1L, "optimizer");
        m.ok(0.092609, TORCH, p, null, "step", 0, 2L, "optimizer");
        m.ok(0.093985, TORCH, p, null, "step", 0, 3L, "optimizer");
        m.ok(0.772276, TORCH, p, "dispatch_ms", "step", 0, 1L, "optimizer");
        m.ok(6.784384, TORCH, p, null, "step", 0, 1L, "backward");
        m.ok(6.587458, TORCH, p, null, "step", 0, 2L, "backward");
        m.ok(6.672768, TORCH, p, null, "step", 0, 3L, "backward");
        m.ok(7.475825, TORCH, p, "dispatch_ms", "step", 0, 1L, "backward");
        m.ok((6.784384 + 6.587458 + 6.672768) / 3, TORCH, p, null, "workload", null, null, "backward");
        // every kernel launch of the capture has its kernel, and no activity overran the next on its stream
        m.workload(0, TORCH, "missing_gpu_activities", null);
        m.workload(0, TORCH, "stream_overrun_ms", null);
    }

    @Test
    void noImpossibleValue() {
        MetricRows.load(spark, archive.table("metrics")).assertNoImpossibleValues("NVIDIA H200");
    }

    private static Map<Long, Double> iterTimes(String workload) {
        Map<Long, Double> out = new TreeMap<>();
        for (Row r : spark.read()
                .format("iceberg")
                .load(archive.table("metrics"))
                .where("workload = '" + workload + "' AND metric = 'iter_time' AND scope = 'step'")
                .selectExpr("step", "value")
                .collectAsList()) {
            out.put(r.getLong(0), r.getDouble(1));
        }
        return out;
    }
}
