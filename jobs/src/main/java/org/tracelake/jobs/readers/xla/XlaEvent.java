package org.tracelake.jobs.readers.xla;

import java.util.LinkedHashMap;
import java.util.Map;

/** One entry of an XLA profiler JSON's {@code traceEvents}, values kept as text so no digit is lost. */
final class XlaEvent {
    String ph;
    String name;
    String cat;
    String pid;
    String tid;
    String ts;
    String dur;
    /** Event args, then any other top-level field ({@code id}, {@code bind_id}, {@code s}, …). */
    final Map<String, String> args = new LinkedHashMap<>();

    void clear() {
        ph = name = cat = pid = tid = ts = dur = null;
        args.clear();
    }

    boolean isMetadata() {
        return "M".equals(ph);
    }
}
