package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.TraceClock.t;
import static org.tracelake.jobs.testing.TraceClock.us;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;
import org.tracelake.jobs.readers.xplane.proto.XStat;
import org.tracelake.jobs.readers.xplane.proto.XStatMetadata;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 46: phase times as GPU time, and the hazards peers hit on real traces, on small hand-built traces (times in
 * µs, one rank each).
 *
 * <pre>
 * phases     ProfilerStep#1 [0, 1000), ProfilerStep#2 [1000, 2000)
 *            ## forward ## [10, 60): kernels launched at 20 → [100, 400) and at 30 → [450, 700) (stream 7); a kernel
 *              launched at 70, after the annotation, → [700, 800)
 *            ## backward ## [200, 230), its GPU-side copy (gpu_user_annotation) [800, 1300) running past the step's
 *              end; a kernel launched at 210 → [800, 900) on stream 8
 *            Optimizer.zero_grad#SGD.zero_grad [240, 250), launching nothing
 *            step 2: ## forward ## [1010, 1030), a kernel launched at 1020 → [1300, 1500)
 * no_links   ProfilerStep#1 [0, 1000), ## forward ## [10, 60), a kernel [100, 300) without a launch record
 * overrun    ProfilerStep#1 [0, 1000); stream 7: A [100, 400), B [300, 500) (A's end runs 100 past B's start, as
 *              ROCm writes them), E [600, 700), F [690, 800) (10 of overlap: programmatic dependent launch);
 *              stream 9: C [350, 360); stream 11: G [900, 950) and H [900, 920), starting together
 * dropped    ProfilerStep#1 [0, 1000); cudaLaunchKernel at 10, 11, 12 whose kernels the trace lacks, kernels launched
 *              at 20 → [100, 200) and 30 → [200, 300), and a launch at 40 whose kernel the trace lacks
 * </pre>
 */
class ProfilerHazardsTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static MetricRows m;
    static TestArchive archive;

    static final String GEMM = "sm90_xmma_gemm_bf16bf16_bf16f32";
    static final String ELEMENTWISE = "void at::native::vectorized_elementwise_kernel<4>()";

    @BeforeAll
    static void refresh() {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp);
        KinetoTraceBuilder phases = new KinetoTraceBuilder(0, 1)
                .step(1, t(0), us(1000))
                .step(2, t(1000), us(1000))
                .cpu("user_annotation", "## forward ##", t(10), us(50), Map.of())
                .kernel(GEMM, 7, t(100), us(300), t(20), Map.of())
                .kernel(ELEMENTWISE, 7, t(450), us(250), t(30), Map.of())
                .kernel(ELEMENTWISE, 7, t(700), us(100), t(70), Map.of())
                .cpu("user_annotation", "## backward ##", t(200), us(30), Map.of())
                .gpuAnnotation("## backward ##", 7, t(800), us(500), 77)
                .kernel(GEMM, 8, t(800), us(100), t(210), Map.of())
                .cpu("user_annotation", "Optimizer.zero_grad#SGD.zero_grad", t(240), us(10), Map.of())
                .cpu("user_annotation", "## forward ##", t(1010), us(20), Map.of())
                .kernel(GEMM, 7, t(1300), us(200), t(1020), Map.of());
        archive.write("phases", "rank0_trace.json", phases.toJson())
                .card("phases", "training", "llama3-8b", "NVIDIA H100", 1);
        KinetoTraceBuilder noLinks = new KinetoTraceBuilder(0, 1)
                .step(1, t(0), us(1000))
                .cpu("user_annotation", "## forward ##", t(10), us(50), Map.of())
                .kernelWithoutLaunch(GEMM, 7, t(100), us(200), Map.of());
        archive.write("no_links", "rank0_trace.json", noLinks.toJson())
                .card("no_links", "training", "llama3-8b", "NVIDIA H100", 1);
        KinetoTraceBuilder overrun = new KinetoTraceBuilder(0, 1)
                .step(1, t(0), us(1000))
                .kernel("A_kernel", 7, t(100), us(300), t(10), Map.of())
                .kernel("B_kernel", 7, t(300), us(200), t(11), Map.of())
                .kernel("C_kernel", 9, t(350), us(10), t(12), Map.of())
                .kernel("E_kernel", 7, t(600), us(100), t(13), Map.of())
                .kernel("F_kernel", 7, t(690), us(110), t(14), Map.of())
                .kernel("G_kernel", 11, t(900), us(50), t(15), Map.of())
                .kernel("H_kernel", 11, t(900), us(20), t(16), Map.of());
        archive.write("overrun", "rank0_trace.json", overrun.toJson())
                .card("overrun", "training", "llama3-8b", "AMD Instinct MI300X", 1);
        KinetoTraceBuilder dropped = new KinetoTraceBuilder(0, 1).step(1, t(0), us(1000));
        for (int i = 0; i < 3; i++) {
            dropped.cpu("cuda_runtime", "cudaLaunchKernel", t(10 + i), us(1), Map.of("correlation", 900 + i));
        }
        dropped.kernel(GEMM, 7, t(100), us(100), t(20), Map.of())
                .kernel(GEMM, 7, t(200), us(100), t(30), Map.of())
                .cpu("cuda_runtime", "cudaLaunchKernel", t(40), us(1), Map.of("correlation", 999));
        archive.write("dropped", "rank0_trace.json", dropped.toJson())
                .card("dropped", "training", "llama3-8b", "NVIDIA H100", 1);
        archive.write("jax_2gpu", "host0.xplane.pb", twoGpuJaxXSpace())
                .card("jax_2gpu", "training", "attention-mlp", "NVIDIA H200", 2);
        var result = archive.refresh(spark);
        assertTrue(result.allOk(), () -> "refresh: " + result.workloads());
        m = MetricRows.load(spark, archive.table("metrics"));
    }

    /**
     * phase_time_ms is the phase's GPU time (METRICS.md §4 as amended), dispatch_ms the CPU annotation's:
     * <ul>
     *   <li>step 1 forward: the span of the two kernels launched inside [10, 60): 100 → 700 = 600 µs (the kernel
     *       launched at 70 is not the phase's); dispatch 50 µs.
     *   <li>step 1 backward: its GPU-side copy [800, 1300) = 500 µs, though it ends in step 2's window (the kernel
     *       launched inside it spans only 100 µs: the copy wins); dispatch 30 µs.
     *   <li>step 1 optimizer: zero_grad launched nothing: 0 µs of GPU time; dispatch 10 µs.
     *   <li>step 2 forward: the kernel launched at 1020, [1300, 1500) = 200 µs; dispatch 20 µs.
     *   <li>workload forward = mean of the steps: (600 + 200) / 2 = 400 µs; dispatch (50 + 20) / 2 = 35 µs.
     * </ul>
     */
    @Test
    void phaseTimeIsTheGpuTimeAndDispatchTheCpuTime() {
        String w = "phases";
        String p = "phase_time_ms";
        m.ok(0.600, w, p, null, "step", 0, 1L, "forward");
        m.ok(0.050, w, p, "dispatch_ms", "step", 0, 1L, "forward");
        m.ok(0.500, w, p, null, "step", 0, 1L, "backward");
        m.ok(0.030, w, p, "dispatch_ms", "step", 0, 1L, "backward");
        m.ok(0.0, w, p, null, "step", 0, 1L, "optimizer");
        m.ok(0.010, w, p, "dispatch_ms", "step", 0, 1L, "optimizer");
        m.ok(0.200, w, p, null, "step", 0, 2L, "forward");
        m.ok(0.020, w, p, "dispatch_ms", "step", 0, 2L, "forward");
        m.ok(0.400, w, p, null, "workload", null, null, "forward");
        m.ok(0.035, w, p, "dispatch_ms", "workload", null, null, "forward");
        m.ok(0.500, w, p, null, "workload", null, null, "backward");
        m.ok(0.400, w, p, null, "rank", 0, null, "forward");
    }

    /** Without a launch record or a GPU-side copy the GPU time is unknown, said so; the dispatch time stays (50 µs). */
    @Test
    void phaseGpuTimeWithoutLaunchLinksIsUnknown() {
        Row step = m.one("no_links", "phase_time_ms", null, "step", 0, 1L, "forward");
        assertTrue(step.isNullAt(3));
        assertEquals("missing_input", step.getString(9));
        assertTrue(step.getString(10).contains("phase's GPU time is unknown"), step.getString(10));
        Row workload = m.one("no_links", "phase_time_ms", null, "workload", null, null, "forward");
        assertTrue(workload.isNullAt(3));
        assertEquals("missing_input", workload.getString(9));
        m.ok(0.050, "no_links", "phase_time_ms", "dispatch_ms", "workload", null, null, "forward");
        // and no launch can be checked for its kernel
        m.gap("missing_input", "no GPU activity is linked", "no_links", "missing_gpu_activities", null);
    }

    /**
     * Stream 7: A's end (400) runs past B's start (300): A is clipped to [100, 300), 100 µs; F starts at 690 inside
     * E [600, 700): E is clipped to [600, 690), 10 µs. C is on another stream, and G and H start together (neither
     * says the other ran first): not clipped. stream_overrun_ms = (100 + 10) µs = 0.110 ms over 2 activities.
     * kernel_time_s = Σ clipped dur = A 200 + B 200 + C 10 + E 90 + F 110 + G 50 + H 20 = 680 µs (790 before the
     * clip: the stream's time counted twice). The busy time is a union and does not move: [100, 500) ∪ [600, 800) ∪
     * [900, 950) = 650 µs over the span 100 → 950 = 850 µs: gpu_utilization 650 / 850 × 100.
     */
    @Test
    void aKernelRunningPastTheNextOnItsStreamIsClippedAndCounted() {
        String w = "overrun";
        m.workload(0.110, w, "stream_overrun_ms", null);
        m.workload(2, w, "stream_overrun_ms", "activities");
        m.ok(0.110, w, "stream_overrun_ms", null, "rank", 0, null, null);
        assertTrue(m.one(w, "stream_overrun_ms", null, "workload", null, null, null)
                .getString(10)
                .contains("2 GPU activities ran past the start of the next activity on their stream"));
        m.workload(680e-6, w, "kernel_time_s", null);
        m.workload(650.0 / 850 * 100, w, "gpu_utilization", null);
        // no clip where nothing overran: the phases workload's stream 7 and 8 kernels never overlap
        m.workload(0.0, "phases", "stream_overrun_ms", null);
    }

    /**
     * Three launches (10, 11, 12) before the first kernel the trace holds (launched at 20) have no kernel: the
     * profiler dropped the session's first kernels; the launch at 40, after the last kernel's (30), ran past the
     * profile's end. missing_gpu_activities = 4, at_start 3, at_end 1, and the reason says what happened.
     */
    @Test
    void launchesWhoseKernelsTheProfilerDroppedAreCounted() {
        String w = "dropped";
        m.workload(4, w, "missing_gpu_activities", null);
        m.workload(3, w, "missing_gpu_activities", "at_start");
        m.workload(1, w, "missing_gpu_activities", "at_end");
        m.ok(3, w, "missing_gpu_activities", "at_start", "rank", 0, null, null);
        String reason = m.one(w, "missing_gpu_activities", null, "workload", null, null, null)
                .getString(10);
        assertTrue(reason.contains("3 kernel launches before the first kernel") && reason.contains("dropped"), reason);
        // every launch of the phases workload has its kernel
        m.workload(0, "phases", "missing_gpu_activities", null);
        // and the findings say so, as a warning a person reads in the run summary (conf/findings.csv: 1 or more)
        java.util.List<Row> findings = spark.read()
                .format("iceberg")
                .load(archive.table("findings"))
                .where("rule = 'profiler_dropped_kernels'")
                .selectExpr("workload", "severity", "value", "message")
                .collectAsList();
        assertEquals(1, findings.size(), () -> "findings: " + findings);
        assertEquals(w, findings.get(0).getString(0));
        assertEquals("warning", findings.get(0).getString(1));
        assertEquals(3.0, findings.get(0).getDouble(2));
        assertTrue(
                findings.get(0).getString(3).contains("dropped the first kernels"),
                findings.get(0).getString(3));
    }

    /**
     * jax_2gpu: an XSpace of one host with two GPUs, as jax.profiler writes a multi-GPU run: the host's python line
     * holds {@code StepTraceAnnotation("train_step", step_num=i)} for steps 0 [0, 1000) and 1 [1000, 2500) µs (line
     * timestamp 1 µs), and each GPU plane a fusion kernel inside each step, [100, 400) and [1100, 1500) µs.
     */
    static byte[] twoGpuJaxXSpace() {
        XSpace.Builder space = XSpace.newBuilder().addHostnames("host0");
        space.addPlanes(XPlane.newBuilder()
                .setId(0)
                .setName("Task Environment")
                .putStatMetadata(
                        1,
                        XStatMetadata.newBuilder()
                                .setId(1)
                                .setName("profile_start_time")
                                .build())
                .addStats(XStat.newBuilder().setMetadataId(1).setUint64Value(1_790_000_000_000_000_000L)));
        space.addPlanes(XPlane.newBuilder()
                .setId(1)
                .setName("/host:CPU")
                .putEventMetadata(
                        1,
                        XEventMetadata.newBuilder()
                                .setId(1)
                                .setName("train_step")
                                .build())
                .putStatMetadata(
                        1,
                        XStatMetadata.newBuilder().setId(1).setName("step_num").build())
                .addLines(XLine.newBuilder()
                        .setId(1)
                        .setName("python3")
                        .setTimestampNs(1_000)
                        .addEvents(XEvent.newBuilder()
                                .setMetadataId(1)
                                .setOffsetPs(0)
                                .setDurationPs(1_000_000_000L)
                                .addStats(XStat.newBuilder().setMetadataId(1).setInt64Value(0)))
                        .addEvents(XEvent.newBuilder()
                                .setMetadataId(1)
                                .setOffsetPs(1_000_000_000L)
                                .setDurationPs(1_500_000_000L)
                                .addStats(XStat.newBuilder().setMetadataId(1).setInt64Value(1)))));
        for (int d = 0; d < 2; d++) {
            space.addPlanes(XPlane.newBuilder()
                    .setId(2 + d)
                    .setName("/device:GPU:" + d)
                    .putEventMetadata(
                            1,
                            XEventMetadata.newBuilder()
                                    .setId(1)
                                    .setName("loop_multiply_fusion")
                                    .build())
                    .addLines(XLine.newBuilder()
                            .setId(1)
                            .setName("Stream #17(Kernel)")
                            .setTimestampNs(1_000)
                            .addEvents(XEvent.newBuilder()
                                    .setMetadataId(1)
                                    .setOffsetPs(100_000_000L)
                                    .setDurationPs(300_000_000L))
                            .addEvents(XEvent.newBuilder()
                                    .setMetadataId(1)
                                    .setOffsetPs(1_100_000_000L)
                                    .setDurationPs(400_000_000L))));
        }
        return space.build().toByteArray();
    }

    /**
     * Each GPU of a multi-GPU JAX XSpace has the host's steps (METRICS.md §1): iter_time on rank 0 and rank 1 is 1.0
     * ms for step 0 and 1.5 ms for step 1, avg over the 4 (rank, step) = 1.25 ms; each GPU's kernels lie in its
     * steps, 300 µs in step 0 and 400 µs in step 1 (pipeline_bubble of step 0 = 1 − 300 / 1000).
     */
    @Test
    void everyGpuOfAJaxXSpaceHasTheHostsSteps() {
        String w = "jax_2gpu";
        for (int rank = 0; rank < 2; rank++) {
            m.ok(1.0, w, "iter_time", null, "step", rank, 0L, null);
            m.ok(1.5, w, "iter_time", null, "step", rank, 1L, null);
            m.ok(0.7, w, "pipeline_bubble", "bubble_ratio", "step", rank, 0L, "gaps");
        }
        m.workload(1.25, w, "iter_time", "avg_ms");
    }

    @Test
    void noImpossibleValue() {
        m.assertNoImpossibleValues(Map.of(
                "phases", "NVIDIA H100",
                "no_links", "NVIDIA H100",
                "overrun", "AMD Instinct MI300X",
                "dropped", "NVIDIA H100",
                "jax_2gpu", "NVIDIA H200"));
    }
}
