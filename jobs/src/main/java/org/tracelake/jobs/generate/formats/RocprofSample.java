package org.tracelake.jobs.generate.formats;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code rocprofv3 --output-format json} file ({@code <pid>_results.json}, FORMATS.md §3) of one process on one
 * MI300X (agent 2, GPU index 0; agent 1 is the CPU): three GEMM dispatches of 200 µs each, 100 µs apart, then one RCCL
 * kernel of 80 µs, on the host's monotonic clock from {@link #FIRST_START_NS} (rocprof records carry no epoch).
 */
final class RocprofSample {
    static final long PID = 4242;
    static final String FILE = PID + "_results.json";
    static final long FIRST_START_NS = 63_861_843_088_486L;

    private RocprofSample() {}

    static void write(Path dir) throws IOException {
        List<Object> dispatches = new ArrayList<>();
        long t = FIRST_START_NS;
        for (int i = 0; i < 3; i++) {
            dispatches.add(dispatch(1, t, t + 200_000, 10 + i));
            t += 300_000;
        }
        dispatches.add(dispatch(2, t, t + 80_000, 13));
        List<Object> operations =
                List.of("KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE", "KERNEL_DISPATCH_COMPLETE");
        List<Object> kinds = new ArrayList<>();
        for (int k = 0; k < 11; k++) kinds.add(FormatSamples.ordered("kind", "NONE", "operations", List.of()));
        kinds.add(FormatSamples.ordered("kind", "KERNEL_DISPATCH", "operations", operations)); // kind 11
        Map<String, Object> process = FormatSamples.ordered(
                "metadata",
                        FormatSamples.ordered(
                                "pid",
                                PID,
                                "init_time",
                                FIRST_START_NS - 5_000_000,
                                "fini_time",
                                t + 1_000_000,
                                "node",
                                FormatSamples.ordered("hostname", "mi300-node0"),
                                "command",
                                List.of("python3", "train.py")),
                "agents",
                        List.of(
                                FormatSamples.ordered(
                                        "id",
                                        FormatSamples.ordered("handle", 1),
                                        "type",
                                        1,
                                        "gpu_index",
                                        -1,
                                        "name",
                                        "AMD EPYC 9654"),
                                FormatSamples.ordered(
                                        "id",
                                        FormatSamples.ordered("handle", 2),
                                        "type",
                                        2,
                                        "gpu_index",
                                        0,
                                        "name",
                                        "gfx942",
                                        "product_name",
                                        "AMD Instinct MI300X",
                                        "cu_count",
                                        304,
                                        "wave_front_size",
                                        64)),
                "strings", FormatSamples.ordered("buffer_records", kinds),
                "kernel_symbols",
                        List.of(
                                FormatSamples.ordered(),
                                FormatSamples.ordered(
                                        "kernel_id",
                                        1,
                                        "kernel_name",
                                        "_Z9gemm_bf16v.kd",
                                        "formatted_kernel_name",
                                        "gemm_bf16()",
                                        "demangled_kernel_name",
                                        "gemm_bf16()",
                                        "truncated_kernel_name",
                                        "gemm_bf16"),
                                FormatSamples.ordered(
                                        "kernel_id",
                                        2,
                                        "kernel_name",
                                        "_Z23ncclDevKernel_Generic_124ncclDevKernelArgsStorageILm4096EE.kd",
                                        "formatted_kernel_name",
                                        "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)",
                                        "demangled_kernel_name",
                                        "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)",
                                        "truncated_kernel_name",
                                        "ncclDevKernel_Generic_1")),
                "buffer_records", FormatSamples.ordered("kernel_dispatch", dispatches, "memory_copy", List.of()));
        new ObjectMapper()
                .writeValue(
                        dir.resolve(FILE).toFile(), FormatSamples.ordered("rocprofiler-sdk-tool", List.of(process)));
    }

    private static Map<String, Object> dispatch(int kernelId, long start, long end, long correlation) {
        return FormatSamples.ordered(
                "size",
                184,
                "kind",
                11,
                "operation",
                2,
                "thread_id",
                PID,
                "correlation_id",
                FormatSamples.ordered("internal", correlation, "external", 0),
                "start_timestamp",
                start,
                "end_timestamp",
                end,
                "dispatch_info",
                FormatSamples.ordered(
                        "size",
                        72,
                        "agent_id",
                        FormatSamples.ordered("handle", 2),
                        "queue_id",
                        FormatSamples.ordered("handle", 1),
                        "kernel_id",
                        kernelId,
                        "dispatch_id",
                        correlation,
                        "workgroup_size",
                        FormatSamples.ordered("x", 256, "y", 1, "z", 1),
                        "grid_size",
                        FormatSamples.ordered("x", 26624, "y", 1, "z", 1)),
                "stream_id",
                FormatSamples.ordered("handle", 2));
    }
}
