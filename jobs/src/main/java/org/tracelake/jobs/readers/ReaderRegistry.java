package org.tracelake.jobs.readers;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.readers.et.EtReader;
import org.tracelake.jobs.readers.flightrecorder.FlightRecorderReader;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.readers.memory.MemorySnapshotReader;
import org.tracelake.jobs.readers.nsys.NsysReader;
import org.tracelake.jobs.readers.rocprof.RocprofReader;
import org.tracelake.jobs.readers.telemetry.TelemetryReader;
import org.tracelake.jobs.readers.xla.XlaTraceReader;
import org.tracelake.jobs.readers.xplane.XPlaneReader;
import org.tracelake.schemas.EtNodeSchema;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TelemetrySchema;

/**
 * Which reader turns which format into rows of which table(s). Ingest runs one write job per {@link Entry#table()}
 * that has files in a workload. A reader with one output yields rows of that table's schema; a reader with several
 * (the memory snapshot: {@code memory_events} and {@code memory_segments} from one parse) yields
 * {@link MultiTableRows} envelopes. torchtitan TOML configs have no entry: they are read on the driver (they fill the
 * workload card, not a table).
 */
public final class ReaderRegistry {
    private ReaderRegistry() {}

    /** One table a reader writes. */
    public record Output(String table, StructType schema) {}

    /** A format's reader and the tables it writes; {@link #table()} (the first output) names its write job. */
    public record Entry(List<Output> outputs, TraceReader reader) {
        public String table() {
            return outputs.get(0).table();
        }

        public boolean multiTable() {
            return outputs.size() > 1;
        }
    }

    private static final List<Output> EVENTS = List.of(new Output(Tables.EVENTS, EventSchema.SCHEMA));
    private static final Map<TraceFormat, Entry> ENTRIES = new EnumMap<>(TraceFormat.class);

    static {
        ENTRIES.put(TraceFormat.KINETO, new Entry(EVENTS, new KinetoReader()));
        ENTRIES.put(TraceFormat.NSYS_SQLITE, new Entry(EVENTS, new NsysReader()));
        ENTRIES.put(TraceFormat.NSYS_REP, new Entry(EVENTS, new NsysReader()));
        ENTRIES.put(TraceFormat.ROCPROF_JSON, new Entry(EVENTS, new RocprofReader()));
        ENTRIES.put(TraceFormat.XLA_TRACE_JSON, new Entry(EVENTS, new XlaTraceReader()));
        ENTRIES.put(TraceFormat.XPLANE, new Entry(EVENTS, new XPlaneReader()));
        ENTRIES.put(
                TraceFormat.MEMORY_SNAPSHOT,
                new Entry(
                        List.of(
                                new Output(Tables.MEMORY_EVENTS, MemorySchema.EVENTS),
                                new Output(Tables.MEMORY_SEGMENTS, MemorySchema.SEGMENTS)),
                        new MemorySnapshotReader()));
        ENTRIES.put(
                TraceFormat.FLIGHT_RECORDER,
                new Entry(
                        List.of(
                                new Output(Tables.FLIGHT_RECORDER, FlightRecorderSchema.ENTRIES),
                                new Output(Tables.PROCESS_GROUP_STATUS, FlightRecorderSchema.GROUPS)),
                        new FlightRecorderReader()));
        ENTRIES.put(
                TraceFormat.AORTA_JSONL,
                new Entry(
                        List.of(new Output(Tables.ITERATION_TELEMETRY, TelemetrySchema.SCHEMA)),
                        new TelemetryReader()));
        ENTRIES.put(
                TraceFormat.PYTORCH_ET,
                new Entry(List.of(new Output(Tables.ET_NODES, EtNodeSchema.SCHEMA)), new EtReader()));
    }

    /** The entry of a format, or null when no executor reader reads it (unknown, TOML, the card). */
    public static Entry entry(TraceFormat format) {
        return format == null ? null : ENTRIES.get(format);
    }

    /** The entry of the reader that writes {@code table} (as its first output or another), or null. */
    public static Entry entryWriting(String table) {
        for (Entry e : ENTRIES.values()) {
            for (Output o : e.outputs()) if (o.table().equals(table)) return e;
        }
        return null;
    }

    /** The outputs of the write job named {@code table} (events when no entry names it). */
    public static List<Output> outputsOf(String table) {
        for (Entry e : ENTRIES.values()) {
            if (e.table().equals(table)) return e.outputs();
        }
        return EVENTS;
    }

    /** Every table some reader writes, events first, in a stable order. */
    public static List<String> tables() {
        List<String> out = new ArrayList<>();
        out.add(Tables.EVENTS);
        for (Entry e : ENTRIES.values()) {
            for (Output o : e.outputs()) if (!out.contains(o.table())) out.add(o.table());
        }
        return out;
    }
}
