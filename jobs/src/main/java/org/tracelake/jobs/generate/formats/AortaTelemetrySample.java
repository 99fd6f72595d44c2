package org.tracelake.jobs.generate.formats;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * AORTA's per-rank telemetry ({@code artifacts/rank_<rr>_metrics.jsonl}, FORMATS.md §4): two ranks, three steps
 * each, one JSON line per step. Step s lasts {@code 40 + s} ms: compute 30 ms, a reduce-scatter of 7.5 ms of which
 * 6 ms overlap compute, 0.5 ms idle; loss {@code 2.0 - 0.1 s}. Times are ms from each step's start (AORTA has no
 * epoch).
 */
final class AortaTelemetrySample {
    static final int RANKS = 2;
    static final int STEPS = 3;

    private AortaTelemetrySample() {}

    static void write(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Files.createDirectories(dir.resolve("artifacts"));
        for (int rank = 0; rank < RANKS; rank++) {
            StringBuilder lines = new StringBuilder();
            for (int step = 1; step <= STEPS; step++)
                lines.append(json.writeValueAsString(line(rank, step))).append('\n');
            Files.writeString(
                    dir.resolve(String.format(Locale.ROOT, "artifacts/rank_%02d_metrics.jsonl", rank)),
                    lines,
                    StandardCharsets.UTF_8);
        }
    }

    private static Map<String, Object> line(int rank, int step) {
        double total = 40.0 + step;
        return FormatSamples.ordered(
                "rank",
                rank,
                "world_size",
                RANKS,
                "epoch",
                0,
                "step",
                step,
                "global_step",
                step,
                "loss",
                2.0 - 0.1 * step,
                "grad_norm",
                1.0,
                "lr",
                3e-4,
                "profile",
                FormatSamples.ordered(
                        "index",
                        step,
                        "total_ms",
                        total,
                        "ranges",
                        List.of(
                                FormatSamples.ordered(
                                        "stream",
                                        "compute",
                                        "tag",
                                        "epoch0_step" + step + "_forward",
                                        "start_ms",
                                        0.5,
                                        "end_ms",
                                        30.5,
                                        "duration_ms",
                                        30.0,
                                        "metadata",
                                        FormatSamples.ordered()),
                                FormatSamples.ordered(
                                        "stream",
                                        "reducescatter",
                                        "tag",
                                        "reduce_scatter_tensor",
                                        "start_ms",
                                        24.5,
                                        "end_ms",
                                        32.0,
                                        "duration_ms",
                                        7.5,
                                        "metadata",
                                        FormatSamples.ordered("function", "reduce_scatter_tensor"))),
                        "markers",
                        List.of(FormatSamples.ordered(
                                "stream",
                                "compute",
                                "tag",
                                "epoch0_step" + step + "_end",
                                "time_ms",
                                total - 0.1,
                                "metadata",
                                FormatSamples.ordered())),
                        "overlap",
                        FormatSamples.ordered(
                                "per_stream_ms", FormatSamples.ordered("compute", 30.0, "reducescatter", 7.5),
                                "overlap_ms",
                                        FormatSamples.ordered(
                                                "compute_reducescatter", 6.0, "compute_comm", 6.0, "idle", 0.5),
                                "utilization",
                                        FormatSamples.ordered(
                                                "compute",
                                                30.0 / total,
                                                "allreduce",
                                                0.0,
                                                "reducescatter",
                                                7.5 / total,
                                                "aux",
                                                0.0))));
    }
}
