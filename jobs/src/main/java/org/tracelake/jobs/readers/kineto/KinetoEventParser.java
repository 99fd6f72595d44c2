package org.tracelake.jobs.readers.kineto;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.StringWriter;

/** Reads one event object from a streaming parser into a reusable {@link KinetoEvent}. */
final class KinetoEventParser {
    /**
     * NaN and Infinity are accepted by the tokenizer so that one such event can be dropped with a reason
     * instead of failing the whole file.
     */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private final StringWriter scratch = new StringWriter(256);

    /** Parser is on START_OBJECT of an event; on return it is on the matching END_OBJECT. */
    void read(JsonParser p, KinetoEvent e) throws IOException {
        e.clear();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "ph" -> e.ph = scalar(p, v);
                case "cat" -> e.cat = scalar(p, v);
                case "name" -> e.name = scalar(p, v);
                case "pid" -> e.pid = scalar(p, v);
                case "tid" -> e.tid = scalar(p, v);
                case "ts" -> {
                    e.ts = scalar(p, v);
                    e.tsQuoted = v == JsonToken.VALUE_STRING;
                }
                case "dur" -> {
                    e.dur = scalar(p, v);
                    e.durQuoted = v == JsonToken.VALUE_STRING;
                }
                case "args" -> readArgs(p, v, e);
                default -> p.skipChildren();
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw new IOException("malformed event object near " + p.currentLocation());
        }
    }

    private void readArgs(JsonParser p, JsonToken v, KinetoEvent e) throws IOException {
        if (v != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken av = p.nextToken();
            e.args.put(key, av.isStructStart() ? compactJson(p) : scalar(p, av));
        }
    }

    /** Text of a scalar value (null for JSON null); a structure in a scalar place is kept as JSON. */
    private String scalar(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) return null;
        if (v.isStructStart()) return compactJson(p);
        return p.getText();
    }

    String compactJson(JsonParser p) throws IOException {
        scratch.getBuffer().setLength(0);
        try (JsonGenerator g = FACTORY.createGenerator(scratch)) {
            g.copyCurrentStructure(p);
        }
        return scratch.toString();
    }
}
