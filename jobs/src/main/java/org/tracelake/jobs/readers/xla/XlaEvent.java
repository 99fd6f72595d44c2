package org.tracelake.jobs.readers.xla;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tracelake.jobs.readers.common.MicrosField;

/**
 * One {@code traceEvents} entry as {@link XlaScan} read it, reused from entry to entry: its strings (taken from the
 * pass's string table, so a value the file repeats is one String), {@code ts} and {@code dur} as {@link MicrosField}, and
 * its args with their text in the file's order, a key written twice keeping its first place and its last value. Top
 * level fields other than the eight the reader knows ({@code id}, {@code bind_id}, {@code s}, a counter's
 * {@code entries} …) are in the args too, unless an arg of that name came first.
 */
final class XlaEvent {
    String ph;
    String cat;
    String name;
    String pid;
    String tid;
    final MicrosField ts = new MicrosField();
    final MicrosField dur = new MicrosField();
    final Map<String, String> args = new LinkedHashMap<>();

    void clear() {
        ph = cat = name = pid = tid = null;
        ts.clear();
        dur.clear();
        args.clear();
    }

    /**
     * An empty object in the event list: JAX ends its trace JSON with one ({@code …, {}]}), a terminator rather than
     * an event (METRICS.md §1), so the reader passes over it without counting it as a dropped event.
     */
    boolean isEmpty() {
        return ph == null
                && cat == null
                && name == null
                && pid == null
                && tid == null
                && !ts.present()
                && !dur.present()
                && args.isEmpty();
    }

    boolean isMetadata() {
        return "M".equals(ph);
    }
}
