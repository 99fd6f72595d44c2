package org.tracelake.jobs.readers.common;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.udfs.Numbers;

/**
 * Reads Chrome trace-event JSON (Kineto, XLA profiler) with Jackson's streaming parser, one event object at a time
 * into a reusable {@link ChromeEvent}; the readers of both formats interpret the events, this class only parses.
 */
public final class ChromeEventParser {
    /**
     * NaN and Infinity are accepted by the tokenizer so that one such event can be dropped with a reason instead of
     * failing the whole file (xprof writes them as strings, older writers as bare tokens).
     */
    public static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private final boolean otherFieldsAsArgs;
    private final StringWriter scratch = new StringWriter(256);
    /** Writes structures into {@link #scratch}; made on first use, dropped after a value that failed midway. */
    private JsonGenerator generator;

    /** @param otherFieldsAsArgs keep top-level fields other than the known ones ({@code id}, {@code s}, …) in args */
    public ChromeEventParser(boolean otherFieldsAsArgs) {
        this.otherFieldsAsArgs = otherFieldsAsArgs;
    }

    /** Parser is on START_OBJECT of an event; on return it is on the matching END_OBJECT. */
    public void read(JsonParser p, ChromeEvent e) throws IOException {
        read(p, e, null);
    }

    /**
     * As {@link #read(JsonParser, ChromeEvent)}, skipping the args of events that {@code wantsArgs} turns down — a
     * first pass that needs the args of a few kinds of event only. The test sees the event as read so far; writers put
     * {@code args} last, and when they do not, the args are read.
     */
    public void read(JsonParser p, ChromeEvent e, Predicate<ChromeEvent> wantsArgs) throws IOException {
        e.clear();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "ph" -> e.ph = text(p, v);
                case "cat" -> e.cat = text(p, v);
                case "name" -> e.name = text(p, v);
                case "pid" -> e.pid = text(p, v);
                case "tid" -> e.tid = text(p, v);
                case "ts" -> {
                    e.ts = text(p, v);
                    e.tsQuoted = v == JsonToken.VALUE_STRING;
                }
                case "dur" -> {
                    e.dur = text(p, v);
                    e.durQuoted = v == JsonToken.VALUE_STRING;
                }
                case "args" -> {
                    if (wantsArgs == null || e.name == null || e.cat == null || wantsArgs.test(e)) {
                        readArgs(p, v, e);
                    } else {
                        p.skipChildren();
                    }
                }
                default -> {
                    if (!otherFieldsAsArgs) {
                        p.skipChildren();
                    } else {
                        String value = text(p, v);
                        if (value != null) e.args.putIfAbsent(field, value);
                    }
                }
            }
        }
        if (t != JsonToken.END_OBJECT) throw new IOException("malformed event object near " + p.currentLocation());
    }

    private void readArgs(JsonParser p, JsonToken v, ChromeEvent e) throws IOException {
        e.argsRead = true;
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

    /**
     * Text of a scalar (null for JSON null); a structure in a scalar place is kept as compact JSON, written through
     * one generator per parser (creating one per structured arg is a cost an ingest notices).
     */
    public String text(JsonParser p, JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NULL) return null;
        if (!v.isStructStart()) return p.getText();
        scratch.getBuffer().setLength(0);
        if (generator == null) {
            generator = FACTORY.createGenerator(scratch);
            generator.setRootValueSeparator(null); // one value per call, nothing between them
        }
        try {
            if (v == JsonToken.START_ARRAY) {
                String wholeNumbers = wholeNumberArray(p);
                if (wholeNumbers != null) return wholeNumbers;
            } else {
                generator.copyCurrentStructure(p);
            }
            generator.flush();
        } catch (IOException | RuntimeException e) {
            generator = null; // left inside the broken value: the next call starts a new one
            throw e;
        }
        return scratch.toString();
    }

    private final StringBuilder numbers = new StringBuilder(64);

    /**
     * An array (the parser on its START_ARRAY) whose elements are all whole numbers, as the generator would write it
     * ({@code [132,1,1]}: Kineto's grid and block dims on every kernel) without going through the generator; null when
     * an element is anything else, the generator having then written the whole array to {@link #scratch} (the numbers
     * before that element as they were read, the rest copied).
     */
    private String wholeNumberArray(JsonParser p) throws IOException {
        numbers.setLength(0);
        numbers.append('[');
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.VALUE_NUMBER_INT) {
            if (numbers.length() > 1) numbers.append(',');
            // the generator's copy writes the int, long or BigInteger the parser read: the same digits
            switch (p.getNumberType()) {
                case INT -> numbers.append(p.getIntValue());
                case LONG -> numbers.append(p.getLongValue());
                default -> numbers.append(p.getBigIntegerValue());
            }
        }
        if (t == JsonToken.END_ARRAY) return numbers.append(']').toString();
        if (t == null) throw new IOException("file ends inside an array near " + p.currentLocation());
        generator.writeStartArray();
        if (numbers.length() > 1) {
            for (String n : numbers.substring(1).split(",")) generator.writeNumber(n);
        }
        do {
            generator.copyCurrentStructure(p);
        } while ((t = p.nextToken()) != JsonToken.END_ARRAY && t != null);
        if (t == null) throw new IOException("file ends inside an array near " + p.currentLocation());
        generator.writeEndArray();
        return null;
    }

    /**
     * Reads every event of a {@code traceEvents} array (the parser on its START_ARRAY token, {@code v}), handing each
     * to {@code learn}: a first pass. Elements that are not objects are passed over (the second pass reports them).
     */
    public void forEachEvent(
            JsonParser p, JsonToken v, ChromeEvent e, Predicate<ChromeEvent> wantsArgs, Consumer<ChromeEvent> learn)
            throws IOException {
        if (v != JsonToken.START_ARRAY) throw new IOException("traceEvents is not an array");
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) throw new IOException("file ends inside traceEvents");
            if (t != JsonToken.START_OBJECT) {
                p.skipChildren();
                continue;
            }
            read(p, e, wantsArgs);
            learn.accept(e);
        }
    }

    /** Moves a parser at the start of the document to the first element of its {@code traceEvents} array. */
    public static void seekTraceEvents(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("not a JSON object");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (key.equals("traceEvents") && v == JsonToken.START_ARRAY) return;
            p.skipChildren();
        }
        throw new IOException("traceEvents vanished between the two passes: was the file being rewritten?");
    }

    /**
     * An event time or duration in µs as written ({@code ts}, {@code dur}) in exact nanoseconds, or null when it cannot
     * be used: the event is then dropped, counted under a reason that names the field.
     */
    public static Long nanos(String text, boolean quoted, String field, DropCounter drops) {
        if (Numbers.isNonFinite(text)) {
            drops.drop("non-finite " + field + " (" + text + ")");
            return null;
        }
        try {
            return Numbers.microsToNanos(text);
        } catch (Numbers.NotANumber bad) {
            drops.drop((quoted ? "non-numeric " : "unreadable ") + field);
            return null;
        }
    }
}
