package org.tracelake.jobs.readers;

import java.util.EnumMap;
import java.util.Map;
import org.tracelake.jobs.readers.kineto.KinetoReader;

/** Which reader turns which format into rows of the {@code events} table. */
public final class ReaderRegistry {
    private ReaderRegistry() {}

    private static final Map<TraceFormat, TraceReader> EVENT_READERS = new EnumMap<>(TraceFormat.class);

    static {
        EVENT_READERS.put(TraceFormat.KINETO, new KinetoReader());
    }

    /** The events reader for a format, or null when the format feeds another table or has no reader. */
    public static TraceReader eventsReader(TraceFormat format) {
        return format == null ? null : EVENT_READERS.get(format);
    }
}
