package org.tracelake.jobs.readers.common;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tracelake.udfs.Numbers;

/**
 * One entry of a Chrome trace-event file's {@code traceEvents} (Kineto and the XLA profiler both write this format),
 * reused from event to event. Values are kept as the text the file wrote, so no digit is lost before a reader decides
 * what a value means.
 */
public final class ChromeEvent {
    public String ph;
    public String cat;
    public String name;
    public String pid;
    public String tid;
    /** Textual number, a quoted string, or null when absent. */
    public String ts;

    public boolean tsQuoted;
    public String dur;
    public boolean durQuoted;
    /** Every arg (scalars as their text, arrays and objects as compact JSON); also other top-level fields when asked. */
    public final Map<String, String> args = new LinkedHashMap<>();
    /** False when the parser skipped this event's args (the first pass of a reader that did not need them). */
    public boolean argsRead;

    public void clear() {
        ph = cat = name = pid = tid = ts = dur = null;
        tsQuoted = durQuoted = false;
        args.clear();
        argsRead = false;
    }

    /**
     * An empty object in the event list: JAX ends its trace JSON with one ({@code …, {}]}), a terminator rather than
     * an event (METRICS.md §1), so readers pass over it without counting it as a dropped event.
     */
    public boolean isEmpty() {
        return ph == null
                && cat == null
                && name == null
                && pid == null
                && tid == null
                && ts == null
                && dur == null
                && args.isEmpty();
    }

    public boolean isMetadata() {
        return "M".equals(ph);
    }

    public Long longArg(String key) {
        return Numbers.wholeNumber(args.get(key));
    }
}
