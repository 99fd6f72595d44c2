package org.tracelake.jobs.generate.formats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * NCCL Flight Recorder dumps of a hang (FORMATS.md §9), one pickle per rank as NVRx names them ({@code _dump_<rank>}):
 * four ranks in one process group ({@code "0"}, {@code default_pg}) run all-reduces of a 1024×1024 BFloat16 tensor.
 * Collectives 1–4 completed everywhere; ranks 0, 1 and 3 then enqueued and started collective 5 and wait in it,
 * while rank {@link #MISSING_RANK} never enqueued it: it is the rank missing from the stuck collective.
 */
final class FlightRecorderSample {
    static final int RANKS = 4;
    static final int MISSING_RANK = 2;
    static final int STUCK_SEQ = 5;

    private FlightRecorderSample() {}

    static void write(Path dir) throws IOException {
        for (int rank = 0; rank < RANKS; rank++) {
            Files.write(dir.resolve("_dump_" + rank), PickleWriter.dumps(dump(rank)));
        }
    }

    private static Map<String, Object> dump(int rank) {
        int last = rank == MISSING_RANK ? STUCK_SEQ - 1 : STUCK_SEQ;
        List<Object> entries = new ArrayList<>();
        for (int seq = 1; seq <= last; seq++) {
            boolean done = seq < STUCK_SEQ;
            long created = FormatSamples.START_NS + seq * 10_000_000L + rank * 1_000L;
            entries.add(FormatSamples.ordered(
                    "record_id",
                    seq - 1,
                    "pg_id",
                    0,
                    "process_group",
                    new Object[] {"0", "default_pg"},
                    "thread_name",
                    "pt_main_thread",
                    "thread_id",
                    "140000000000" + rank,
                    "collective_seq_id",
                    seq,
                    "p2p_seq_id",
                    0,
                    "op_id",
                    seq,
                    "profiling_name",
                    "nccl:all_reduce",
                    "time_created_ns",
                    created,
                    "input_sizes",
                    List.of(List.of(1024, 1024)),
                    "input_dtypes",
                    List.of("BFloat16"),
                    "output_sizes",
                    List.of(List.of(1024, 1024)),
                    "output_dtypes",
                    List.of("BFloat16"),
                    "state",
                    done ? "completed" : "started",
                    "time_discovered_started_ns",
                    created + 1_000_000L,
                    "time_discovered_completed_ns",
                    done ? created + 3_000_000L : null,
                    "retired",
                    done,
                    "timeout_ms",
                    600_000,
                    "is_p2p",
                    false));
        }
        return FormatSamples.ordered(
                "version",
                "2.9",
                "nccl_version",
                "2.27.3",
                "pg_config",
                FormatSamples.ordered(
                        "0", FormatSamples.ordered("name", "0", "desc", "default_pg", "ranks", "[0, 1, 2, 3]")),
                "pg_status",
                FormatSamples.ordered(
                        "0",
                        FormatSamples.ordered(
                                "last_enqueued_collective",
                                last,
                                "last_started_collective",
                                last,
                                "last_completed_collective",
                                STUCK_SEQ - 1)),
                "entries",
                entries);
    }
}
