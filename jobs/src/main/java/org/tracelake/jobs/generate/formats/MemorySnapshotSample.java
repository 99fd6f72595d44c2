package org.tracelake.jobs.generate.formats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@code torch.cuda.memory._dump_snapshot} pickle (FORMATS.md §5) of GPU 0 in torchtitan's place for it
 * ({@code memory_snapshot/iteration_2/rank0_memory_snapshot.pickle}): one 2 MiB segment holding a 1 MiB active block
 * and a 1 MiB inactive one, and a trace of four actions — alloc 1 MiB (the block still held), alloc 512 KiB,
 * free_requested and free_completed of it — 10 µs apart from {@link FormatSamples#START_NS}. Peak allocated: 1.5 MiB.
 */
final class MemorySnapshotSample {
    static final String FILE = "memory_snapshot/iteration_2/rank0_memory_snapshot.pickle";
    static final long SEGMENT = 0x7f00_0000_0000L;
    static final long MIB = 1 << 20;

    private MemorySnapshotSample() {}

    static void write(Path dir) throws IOException {
        List<Object> frames = List.of(FormatSamples.ordered("name", "forward", "filename", "train.py", "line", 42));
        Map<String, Object> segment = FormatSamples.ordered(
                "device",
                0,
                "address",
                SEGMENT,
                "total_size",
                2 * MIB,
                "allocated_size",
                MIB,
                "active_size",
                MIB,
                "requested_size",
                MIB,
                "stream",
                0,
                "segment_type",
                "large",
                "segment_pool_id",
                new Object[] {0, 0},
                "is_expandable",
                false,
                "frames",
                frames,
                "blocks",
                List.of(
                        FormatSamples.ordered(
                                "address",
                                SEGMENT,
                                "size",
                                MIB,
                                "requested_size",
                                MIB,
                                "state",
                                "active_allocated",
                                "frames",
                                frames),
                        FormatSamples.ordered(
                                "address",
                                SEGMENT + MIB,
                                "size",
                                MIB,
                                "requested_size",
                                0,
                                "state",
                                "inactive",
                                "frames",
                                List.of())));
        long t = FormatSamples.START_NS / 1000;
        List<Object> trace = List.of(
                action("alloc", SEGMENT, MIB, t, frames),
                action("alloc", SEGMENT + MIB, MIB / 2, t + 10, frames),
                action("free_requested", SEGMENT + MIB, MIB / 2, t + 20, frames),
                action("free_completed", SEGMENT + MIB, MIB / 2, t + 30, frames));
        Map<String, Object> snapshot = FormatSamples.ordered(
                "segments",
                List.of(segment),
                "device_traces",
                List.of(trace),
                "allocator_settings",
                FormatSamples.ordered(
                        "PYTORCH_CUDA_ALLOC_CONF", "", "max_split_size", -1, "expandable_segments", false),
                "external_annotations",
                List.of());
        Path file = dir.resolve(FILE);
        Files.createDirectories(file.getParent());
        Files.write(file, PickleWriter.dumps(snapshot));
    }

    private static Map<String, Object> action(String action, long addr, long size, long timeUs, List<Object> frames) {
        return FormatSamples.ordered(
                "action",
                action,
                "addr",
                addr,
                "size",
                size,
                "stream",
                0,
                "time_us",
                timeUs,
                "frames",
                frames,
                "compile_context",
                "N/A",
                "user_metadata",
                "");
    }
}
