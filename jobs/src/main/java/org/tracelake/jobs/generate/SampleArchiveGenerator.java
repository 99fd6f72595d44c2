package org.tracelake.jobs.generate;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Writes an archive in the CCL-Bench layout: {@code <out>/<workload>/<workload>.yaml} and one Kineto trace per
 * rank. MODERN workloads use torchtitan's layout ({@code profile_traces/iteration_N/rank{R}_trace.json}), LEGACY
 * ones the older {@code worker{R}_step_N.pt.trace.json}. Each file streams out, so size is only a matter of
 * steps and layers.
 */
public final class SampleArchiveGenerator {
    /** 2026-11-01T00:00:00Z (plus the seed in seconds): the simulated runs start here. */
    static final long START_EPOCH_NS = 1_793_491_200_000_000_000L;

    private SampleArchiveGenerator() {}

    public static void write(Path archive, WorkloadSpec spec) throws IOException {
        Path dir = archive.resolve(spec.name());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(spec.name() + ".yaml"), card(spec), StandardCharsets.UTF_8);
        if (!spec.faults().isEmpty()) {
            writeTogether(dir, spec);
            return;
        }
        for (int rank = 0; rank < spec.ranks(); rank++) {
            Path file = dir.resolve(traceName(spec, rank));
            Files.createDirectories(file.getParent());
            long start = START_EPOCH_NS + spec.seed() * 1_000_000_000L;
            try (OutputStream out = open(file, spec.gzip());
                    KinetoTraceWriter w = new KinetoTraceWriter(out, spec.style(), start)) {
                w.begin(
                        rank,
                        spec.ranks(),
                        spec.style() == TraceStyle.MODERN ? "NVIDIA H100 80GB HBM3" : "Tesla V100-SXM2-32GB");
                new RankTraceGenerator(spec, rank, w, start).run();
                w.end(file.getFileName().toString());
            }
        }
    }

    /**
     * A run with injected faults: every rank on its own thread, meeting the others at each collective
     * ({@link Rendezvous}), so the bytes are still the same for the same spec.
     */
    private static void writeTogether(Path dir, WorkloadSpec spec) throws IOException {
        Rendezvous meet = new Rendezvous(spec.ranks());
        java.util.List<Thread> threads = new java.util.ArrayList<>();
        java.util.List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        for (int r = 0; r < spec.ranks(); r++) {
            int rank = r;
            Thread t = new Thread(
                    () -> {
                        try {
                            Path file = dir.resolve(traceName(spec, rank));
                            Files.createDirectories(file.getParent());
                            long start = START_EPOCH_NS + spec.seed() * 1_000_000_000L;
                            try (OutputStream out = open(file, spec.gzip());
                                    KinetoTraceWriter w = new KinetoTraceWriter(out, spec.style(), start)) {
                                w.begin(rank, spec.ranks(), device(spec));
                                new RankTraceGenerator(spec, rank, w, start, meet).run();
                                w.end(file.getFileName().toString());
                            }
                        } catch (IOException | RuntimeException e) {
                            failures.add(e);
                            meet.abandon();
                        }
                    },
                    "generate-rank-" + rank);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while generating " + spec.name(), e);
            }
        }
        if (!failures.isEmpty()) throw new IOException("generating " + spec.name() + " failed", failures.get(0));
    }

    private static String device(WorkloadSpec spec) {
        return spec.style() == TraceStyle.MODERN ? "NVIDIA H100 80GB HBM3" : "Tesla V100-SXM2-32GB";
    }

    static String traceName(WorkloadSpec spec, int rank) {
        String gz = spec.gzip() ? ".gz" : "";
        return spec.style() == TraceStyle.MODERN
                ? "profile_traces/iteration_" + (spec.firstStep() + spec.steps() - 1) + "/rank" + rank + "_trace.json"
                        + gz
                : "worker" + rank + "_step_" + spec.firstStep() + ".pt.trace.json" + gz;
    }

    private static OutputStream open(Path file, boolean gzip) throws IOException {
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        return gzip ? new GZIPOutputStream(out, 1 << 16) : out;
    }

    /** A CCL-Bench workload card for the simulated run. */
    static String card(WorkloadSpec s) {
        boolean modern = s.style() == TraceStyle.MODERN;
        return String.join(
                "\n",
                "# Generated by `tracelake generate`: a simulated run, not a measurement.",
                "description: "
                        + (modern
                                ? "Llama-3.1-8B pretraining with FSDP (simulated, " + s.layers() + " layers profiled)"
                                : "DLRM training with DDP, older PyTorch profiler output (simulated)"),
                "contributor: tracelake sample generator",
                "workload:",
                "  model:",
                "    phase: training",
                "    model_family: " + (modern ? "llama-3.1-8b" : "dlrm"),
                "    precision: " + (modern ? "bf16" : "fp32"),
                "    iteration: " + (s.firstStep() + s.steps() - 1),
                "    model_arch:",
                "      num_params: " + (modern ? "8030261248" : "540000000"),
                "      num_params_embedding: " + (modern ? "525336576" : "520000000"),
                "      num_layers: " + (modern ? 32 : 8),
                "      num_heads: " + (modern ? 32 : 1),
                "      head_dim: " + (modern ? 128 : 64),
                "  data:",
                // A global batch of 512 tokens (one sequence of 128 per rank) is what the simulated 14.7 ms step
                // can hold at a plausible mfu (~40 % on four H100s); a real 8192-token batch would claim 6500 %.
                "    batch_size: " + (modern ? 4 : 2048),
                "    seq_len: " + (modern ? 128 : 1),
                "    dataset: " + (modern ? "c4" : "criteo-kaggle"),
                "  hardware:",
                "    network_topo:",
                "      topology: " + (modern ? "nvlink-switch" : "nvlink-hybrid-cube-mesh"),
                "      bandwidth_gbps: " + (modern ? "[3600]" : "[1200]"),
                "    xpu_spec:",
                "      type: GPU",
                "      model: " + (modern ? "NVIDIA H100" : "NVIDIA V100"),
                "      total_count: " + s.ranks(),
                "      count_per_node: " + Math.min(8, s.ranks()),
                "Model-executor:",
                "  framework:",
                "    name: " + (modern ? "torchtitan" : "pytorch"),
                "    version: " + (modern ? "2.5.1" : "2.0.1"),
                "  model_plan_parallelization:",
                "    dp_replicate: 1",
                "    dp_shard: " + (modern ? s.ranks() : 1),
                "    tp: 1",
                "    pp: 1",
                "    cp: 1",
                "    ep: 1",
                "  communication_library:",
                "    name: NCCL",
                "    version: " + (modern ? "2.21.5" : "2.14.3"),
                "    env:",
                "      NCCL_ALGO: Ring",
                "metric_source:",
                "  traces:",
                "    - " + (modern ? "profile_traces" : "worker*_step_*.pt.trace.json.gz"),
                "");
    }
}
