package org.tracelake.jobs.readers;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Recognises a file's format by name, and confirms it (or finds it, for unfamiliar names) by its first bytes
 * (FORMATS.md §0). Sniffing sees decoded content: gzip is undone before.
 */
public final class FormatDetector {
    private FormatDetector() {}

    public static final int SNIFF_BYTES = 4096;

    /** xprof and JAX write displayTimeUnit ns first; Kineto starts with schemaVersion (or deviceProperties). */
    private static final Pattern XPROF_HEAD = Pattern.compile("\\{\\s*\"displayTimeUnit\"\\s*:\\s*\"ns\"");

    /**
     * NCCL Flight Recorder dumps (FORMATS.md §9): {@code _dump_<rank>} (NVRx), {@code nccl_trace_rank_<rank>}
     * (PyTorch's default prefix), {@code rank_<rank>} (torchtitan's {@code comm_traces/}), bare or as .pkl/.pickle/.json.
     */
    private static final Pattern FLIGHT_RECORDER_NAME =
            Pattern.compile("(.*_dump_|(.*[_-])?nccl_trace_rank_|rank_)\\d{1,9}(\\.(pkl|pickle|json))?");

    /** True when the name is one a Flight Recorder dump is written under (also {@code _dump_3}, which starts with '_'). */
    public static boolean isFlightRecorderName(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) n = n.substring(0, n.length() - 3);
        return FLIGHT_RECORDER_NAME.matcher(n).matches();
    }

    /** The format a file name suggests, or null. */
    public static TraceFormat byName(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) n = n.substring(0, n.length() - 3);
        if (n.endsWith(".xplane.pb")) return TraceFormat.XPLANE;
        if (n.endsWith(".sqlite")) return TraceFormat.NSYS_SQLITE;
        if (isFlightRecorderName(n)) return TraceFormat.FLIGHT_RECORDER;
        if (n.endsWith(".nsys-rep") || n.endsWith(".qdrep")) return TraceFormat.NSYS_REP;
        if (n.endsWith(".pickle") || n.endsWith(".pkl")) return TraceFormat.MEMORY_SNAPSHOT;
        if (n.endsWith(".jsonl")) return TraceFormat.AORTA_JSONL;
        if (n.endsWith(".toml")) return TraceFormat.TORCHTITAN_TOML;
        if (n.endsWith("results.json")) return TraceFormat.ROCPROF_JSON;
        if (n.endsWith(".pt.trace.json")) return TraceFormat.KINETO;
        if (n.matches("(.*[_/-])?(rank|worker)[_-]?\\d+_trace\\.json|kineto_trace_\\d+\\.json"))
            return TraceFormat.KINETO;
        if (n.endsWith(".trace.json")) return null; // Kineto or xprof: only the content can tell
        if (n.matches(".*(_et|_eg)(_\\d+)?\\.json") || n.matches("(torch_)?et_\\d+\\.json"))
            return TraceFormat.PYTORCH_ET;
        return null;
    }

    /** The format the first bytes show, or null when none matches. */
    public static TraceFormat byContent(byte[] head) {
        String s = new String(head, StandardCharsets.ISO_8859_1).stripLeading();
        if (s.startsWith("SQLite format 3")) return TraceFormat.NSYS_SQLITE;
        if (head.length >= 3 && (head[0] & 0xff) == 0x80 && head[1] >= 2 && head[1] <= 5) {
            // Both pickles are dicts of plain data; a Flight Recorder dump's keys come first (version, pg_config, ...).
            boolean dump = s.contains("pg_config") || s.contains("pg_status") || s.contains("collective_seq_id");
            return dump ? TraceFormat.FLIGHT_RECORDER : TraceFormat.MEMORY_SNAPSHOT;
        }
        if (s.startsWith("{")) {
            if (s.contains("\"rocprofiler-sdk-tool\"")) return TraceFormat.ROCPROF_JSON;
            if (s.contains("\"traceEvents\"") || s.contains("\"schemaVersion\"")) {
                // xprof writes its header first (FORMATS.md §6); Kineto starts with schemaVersion/deviceProperties.
                // JAX's perfetto_trace.json.gz starts {"displayTimeUnit": "ns", "traceEvents": … (spaces, no
                // metadata) and names its processes /device:GPU:0 and /host:CPU.
                if (s.contains("\"highres-ticks\"")
                        || s.contains("/device:TPU:")
                        || s.contains("/device:GPU:")
                        || XPROF_HEAD.matcher(s).lookingAt()) {
                    return TraceFormat.XLA_TRACE_JSON;
                }
                return TraceFormat.KINETO;
            }
            if (s.contains("\"schema\"") && s.contains("\"nodes\"")) return TraceFormat.PYTORCH_ET;
            // After the Kineto and ET tests (Kineto's distributedInfo has a "pg_config" too); a dump's keys in any
            // order.
            if (s.contains("\"pg_status\"")
                    || s.contains("\"collective_seq_id\"")
                    || (s.contains("\"pg_config\"") && s.contains("\"nccl_version\""))) {
                return TraceFormat.FLIGHT_RECORDER;
            }
            if (s.contains("\"profile\"") && s.contains("\"total_ms\"")) return TraceFormat.AORTA_JSONL;
            if (s.contains("\"displayTimeUnit\"")) return TraceFormat.XLA_TRACE_JSON;
        }
        return null;
    }

    /**
     * The format to read a file as: the name's suggestion when the content agrees (or cannot disagree, for
     * binary formats we cannot sniff cheaply), else what the content shows.
     */
    public static TraceFormat resolve(String fileName, byte[] head) {
        TraceFormat named = byName(fileName);
        TraceFormat seen = byContent(head);
        if (named == null) return seen;
        if (seen == null) {
            return switch (named) {
                case XPLANE, NSYS_REP, TORCHTITAN_TOML -> named; // protobuf, binary report, TOML: no JSON header
                // AORTA lines put "total_ms" after the step counters; a long first line may hide it from the sniff.
                case AORTA_JSONL ->
                    new String(head, StandardCharsets.ISO_8859_1).stripLeading().startsWith("{") ? named : null;
                default -> null;
            };
        }
        if (named == TraceFormat.KINETO && seen == TraceFormat.XLA_TRACE_JSON) return seen;
        return seen == named ? named : seen;
    }
}
