package org.tracelake.jobs.generate;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Map;

/**
 * Writes one Kineto trace file as it is generated, event by event, so files of any size take constant memory.
 * Times are given in absolute epoch nanoseconds and written the way the chosen style writes them.
 */
final class KinetoTraceWriter implements Closeable {
    /** kineto's base: the system clock floored to 7,889,238 s ("3-month intervals", FORMATS.md §1). */
    static final long BASE_INTERVAL_NS = 7_889_238_000_000_000L;

    private final JsonGenerator g;
    private final TraceStyle style;
    private final long baseNs;

    KinetoTraceWriter(OutputStream out, TraceStyle style, long firstEventNs) throws IOException {
        this.g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
        this.style = style;
        this.baseNs = style == TraceStyle.MODERN ? (firstEventNs / BASE_INTERVAL_NS) * BASE_INTERVAL_NS : 0L;
    }

    long baseNs() {
        return baseNs;
    }

    void begin(int rank, int worldSize, String deviceName) throws IOException {
        g.writeStartObject();
        g.writeNumberField("schemaVersion", 1);
        g.writeArrayFieldStart("deviceProperties");
        g.writeStartObject();
        g.writeNumberField("id", 0);
        g.writeStringField("name", deviceName);
        g.writeNumberField("totalGlobalMem", style == TraceStyle.MODERN ? 85_045_870_592L : 34_089_730_048L);
        g.writeNumberField("computeMajor", style == TraceStyle.MODERN ? 9 : 7);
        g.writeNumberField("computeMinor", 0);
        g.writeNumberField("numSms", style == TraceStyle.MODERN ? 132 : 80);
        g.writeEndObject();
        g.writeEndArray();
        g.writeObjectFieldStart("distributedInfo");
        g.writeStringField("backend", "nccl");
        g.writeNumberField("rank", rank);
        g.writeNumberField("world_size", worldSize);
        if (style == TraceStyle.MODERN) {
            g.writeNumberField("pg_count", 1);
            g.writeArrayFieldStart("pg_config");
            g.writeStartObject();
            g.writeStringField("pg_name", "0");
            g.writeStringField("pg_desc", "default_pg");
            g.writeStringField("backend_config", "cuda:nccl");
            g.writeNumberField("pg_size", worldSize);
            g.writeArrayFieldStart("ranks");
            for (int r = 0; r < worldSize; r++) g.writeNumber(r);
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeStringField("nccl_version", "2.21.5");
        }
        g.writeEndObject();
        g.writeNumberField("record_shapes", 1);
        g.writeArrayFieldStart("traceEvents");
    }

    /** A complete (ph X) event. Args values: String, Number, or int[] / long[][] for arrays. */
    void complete(String cat, String name, Object pid, Object tid, long tsNs, long durNs, Map<String, ?> args)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "X");
        g.writeStringField("cat", cat);
        g.writeStringField("name", name);
        writeId("pid", pid);
        writeId("tid", tid);
        writeTime("ts", tsNs - baseNs);
        writeTime("dur", durNs);
        writeArgs(args);
        g.writeEndObject();
    }

    void flow(String ph, long id, Object pid, Object tid, long tsNs) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", ph);
        g.writeNumberField("id", id);
        writeId("pid", pid);
        writeId("tid", tid);
        writeTime("ts", tsNs - baseNs);
        g.writeStringField("cat", "ac2g");
        g.writeStringField("name", "ac2g");
        if (ph.equals("f")) g.writeStringField("bp", "e");
        g.writeEndObject();
    }

    void metadata(String name, Object pid, Object tid, String argKey, Object argValue) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        writeId("pid", pid);
        writeId("tid", tid);
        g.writeObjectFieldStart("args");
        writeValue(argKey, argValue);
        g.writeEndObject();
        g.writeEndObject();
    }

    void end(String traceName) throws IOException {
        g.writeEndArray();
        g.writeStringField("traceName", traceName);
        g.writeStringField("displayTimeUnit", "ms");
        if (style == TraceStyle.MODERN) {
            // After traceEvents, as May-2024 kineto wrote it: readers must still apply it (METRICS.md §1).
            g.writeNumberField("baseTimeNanoseconds", baseNs);
        }
        g.writeEndObject();
    }

    private void writeTime(String field, long ns) throws IOException {
        if (style == TraceStyle.MODERN) {
            long us = ns / 1000;
            long frac = Math.abs(ns % 1000);
            g.writeFieldName(field);
            g.writeNumber(us + "." + String.format(Locale.ROOT, "%03d", frac));
        } else {
            g.writeNumberField(field, Math.round(ns / 1000.0));
        }
    }

    private void writeId(String field, Object id) throws IOException {
        if (id instanceof Number n) g.writeNumberField(field, n.longValue());
        else g.writeStringField(field, String.valueOf(id));
    }

    private void writeArgs(Map<String, ?> args) throws IOException {
        if (args == null || args.isEmpty()) return;
        g.writeObjectFieldStart("args");
        for (Map.Entry<String, ?> e : args.entrySet()) writeValue(e.getKey(), e.getValue());
        g.writeEndObject();
    }

    private void writeValue(String key, Object v) throws IOException {
        g.writeFieldName(key);
        writeValue(v);
    }

    private void writeValue(Object v) throws IOException {
        if (v == null) g.writeNull();
        else if (v instanceof Integer i) g.writeNumber(i);
        else if (v instanceof Long l) g.writeNumber(l);
        else if (v instanceof Double d) g.writeNumber(d);
        else if (v instanceof int[] a) {
            g.writeStartArray();
            for (int x : a) g.writeNumber(x);
            g.writeEndArray();
        } else if (v instanceof Object[] a) {
            g.writeStartArray();
            for (Object x : a) writeValue(x);
            g.writeEndArray();
        } else if (v instanceof long[] a) {
            g.writeStartArray();
            for (long x : a) g.writeNumber(x);
            g.writeEndArray();
        } else g.writeString(v.toString());
    }

    @Override
    public void close() throws IOException {
        g.close();
    }
}
