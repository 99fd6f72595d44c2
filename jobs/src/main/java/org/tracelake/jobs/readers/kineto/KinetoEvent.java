package org.tracelake.jobs.readers.kineto;

import java.util.LinkedHashMap;
import java.util.Map;

/** One entry of {@code traceEvents} as written: values kept as text so no digit is lost before we decide. */
final class KinetoEvent {
    String ph;
    String cat;
    String name;
    String pid;
    String tid;
    /** Textual number, a quoted string, or null when absent. */
    String ts;
    boolean tsQuoted;
    String dur;
    boolean durQuoted;
    /** Every arg; scalars as their text, arrays and objects as compact JSON. */
    final Map<String, String> args = new LinkedHashMap<>();

    void clear() {
        ph = cat = name = pid = tid = ts = dur = null;
        tsQuoted = durQuoted = false;
        args.clear();
    }

    String arg(String key) {
        return args.get(key);
    }

    Long longArg(String key) {
        return parseLong(args.get(key));
    }

    static Long parseLong(String s) {
        if (s == null || s.isEmpty()) return null;
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            try {
                double d = Double.parseDouble(s);
                if (d == Math.rint(d) && !Double.isInfinite(d)) return (long) d;
            } catch (NumberFormatException ignored) {
                // not a number: the caller treats it as absent
            }
            return null;
        }
    }
}
