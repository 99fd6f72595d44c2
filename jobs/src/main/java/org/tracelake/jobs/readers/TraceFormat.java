package org.tracelake.jobs.readers;

import java.util.List;

/** Every input format tracelake knows, by the name stored in {@code trace_files.format} and {@code events.format}. */
public enum TraceFormat {
    KINETO("kineto"),
    NSYS_SQLITE("nsys_sqlite"),
    NSYS_REP("nsys_rep"),
    ROCPROF_JSON("rocprofv3_json"),
    XLA_TRACE_JSON("xla_trace_json"),
    XPLANE("xplane_pb"),
    MEMORY_SNAPSHOT("memory_snapshot"),
    AORTA_JSONL("aorta_jsonl"),
    PYTORCH_ET("pytorch_et"),
    FLIGHT_RECORDER("flight_recorder"),
    TORCHTITAN_TOML("torchtitan_toml"),
    WORKLOAD_CARD("workload_card");

    private final String id;

    TraceFormat(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The formats of a workload's description rather than its traces: the card and torchtitan configs. */
    public static final List<String> NOT_TRACES = List.of(TORCHTITAN_TOML.id, WORKLOAD_CARD.id);

    /** Whether a trace_files format (null: a skipped file, whatever it was meant to be) is a trace. */
    public static boolean isTrace(String formatId) {
        return formatId == null || !NOT_TRACES.contains(formatId);
    }
}
