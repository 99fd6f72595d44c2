package org.tracelake.jobs.readers;

import java.util.EnumMap;
import java.util.Map;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.readers.nsys.NsysReader;
import org.tracelake.jobs.readers.rocprof.RocprofReader;
import org.tracelake.jobs.readers.xla.XlaTraceReader;
import org.tracelake.jobs.readers.xplane.XPlaneReader;

/** Which reader turns which format into rows of the {@code events} table. */
public final class ReaderRegistry {
    private ReaderRegistry() {}

    private static final Map<TraceFormat, TraceReader> EVENT_READERS = new EnumMap<>(TraceFormat.class);

    static {
        EVENT_READERS.put(TraceFormat.KINETO, new KinetoReader());
        EVENT_READERS.put(TraceFormat.NSYS_SQLITE, new NsysReader());
        EVENT_READERS.put(TraceFormat.NSYS_REP, new NsysReader());
        EVENT_READERS.put(TraceFormat.ROCPROF_JSON, new RocprofReader());
        EVENT_READERS.put(TraceFormat.XLA_TRACE_JSON, new XlaTraceReader());
        EVENT_READERS.put(TraceFormat.XPLANE, new XPlaneReader());
    }

    /** The events reader for a format, or null when the format feeds another table or has no reader. */
    public static TraceReader eventsReader(TraceFormat format) {
        return format == null ? null : EVENT_READERS.get(format);
    }
}
