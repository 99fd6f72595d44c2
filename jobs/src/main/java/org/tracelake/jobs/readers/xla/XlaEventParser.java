package org.tracelake.jobs.readers.xla;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.StringWriter;

/** Reads one event object of an XLA profiler JSON from a streaming parser into a reusable {@link XlaEvent}. */
final class XlaEventParser {
    /** xprof writes NaN and ±Inf as strings, but older writers did not: accept the bare tokens too. */
    static final JsonFactory FACTORY = JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private final StringWriter scratch = new StringWriter(256);

    /** Parser is on START_OBJECT of an event; on return it is on the matching END_OBJECT. */
    void read(JsonParser p, XlaEvent e) throws IOException {
        e.clear();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "ph" -> e.ph = text(p, v);
                case "name" -> e.name = text(p, v);
                case "cat" -> e.cat = text(p, v);
                case "pid" -> e.pid = text(p, v);
                case "tid" -> e.tid = text(p, v);
                case "ts" -> e.ts = text(p, v);
                case "dur" -> e.dur = text(p, v);
                case "args" -> readArgs(p, v, e);
                default -> {
                    String value = text(p, v);
                    if (value != null) e.args.putIfAbsent(field, value);
                }
            }
        }
        if (t != JsonToken.END_OBJECT) throw new IOException("malformed event object near " + p.currentLocation());
    }

    private void readArgs(JsonParser p, JsonToken v, XlaEvent e) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            String value = text(p, p.nextToken());
            if (value != null) e.args.put(key, value);
        }
    }

    /** Text of a scalar (null for JSON null); a structure is kept as compact JSON. */
    String text(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) return null;
        if (!v.isStructStart()) return p.getText();
        scratch.getBuffer().setLength(0);
        try (JsonGenerator g = FACTORY.createGenerator(scratch)) {
            g.copyCurrentStructure(p);
        }
        return scratch.toString();
    }
}
