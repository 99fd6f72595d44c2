package org.tracelake.jobs.readers.xla;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.common.json.EventFields;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.jobs.readers.common.json.ValueText;

/**
 * One read of an XLA profiler JSON with the byte scanner the Kineto reader uses ({@link JsonScanner}): the keys of
 * the top-level object one by one ({@link #nextKey}), and inside a {@code traceEvents} array its entries
 * ({@link #nextEntry}). Field names are matched by their bytes, strings are decoded once per distinct value (a
 * {@link StringTable} per scan), times are converted from their digits; every value keeps the text Jackson's
 * parser gave it before ({@link ValueText}: a number as written, a structure as compact JSON).
 */
final class XlaScan implements Closeable {
    /** What {@link #nextEntry} found. */
    static final int END = 0;

    static final int EVENT = 1;
    static final int NOT_OBJECT = 2;

    private final TraceInput.Opened in;
    private final JsonScanner scanner;
    private final ValueText values;
    private final StringTable strings = new StringTable();
    /**
     * A scan for the index (the first pass): of the args (and of the other fields an entry has), only those
     * {@link #INDEX_ARGS} names are kept; the rest are checked as the rows' scan would read them (UTF-8, escapes)
     * but neither decoded nor looked up, so a file fails in the first pass wherever it would have failed before.
     */
    private final boolean indexOnly;
    /** The token of the value of the key {@link #nextKey} returned. */
    private int value;

    private XlaScan(TraceInput.Opened in, boolean indexOnly) {
        this.in = in;
        this.indexOnly = indexOnly;
        this.scanner = new JsonScanner(in);
        this.values = new ValueText(scanner);
    }

    /**
     * Opens the file (gzip or not: the input's business) at its start; {@code forIndex}: the first pass, which hashes
     * the content and keeps of an entry's args only what the index reads.
     */
    static XlaScan open(FileTask task, Configuration conf, boolean forIndex) throws IOException {
        return new XlaScan(TraceInput.open(task.path(), conf, task.limits(), forIndex), forIndex);
    }

    /** The args {@link XlaTraceIndex} reads: a metadata event's name, and the step numbers of an op. */
    private static final byte[][] INDEX_ARGS = {ascii("name"), ascii("step_num"), ascii("group_id")};

    /** The root's opening brace, or an error naming what the file starts with instead. */
    void begin() throws IOException {
        int t = scanner.next();
        if (t != JsonScanner.START_OBJECT) {
            throw new IOException(
                    "an XLA profiler trace is a JSON object; this file starts with " + EventFields.jacksonName(t));
        }
    }

    /** The root object's next key, its value's token then {@link #value()}; null when the root object ends. */
    String nextKey() throws IOException {
        if (scanner.next() != JsonScanner.FIELD) return null;
        String key = values.string();
        value = scanner.next();
        return key;
    }

    int value() {
        return value;
    }

    /** The text of the current top-level value (a structure read to its end); null for JSON null. */
    String valueText() throws IOException {
        return values.text(value);
    }

    void skipValue() throws IOException {
        scanner.skipValue(value);
    }

    /**
     * The next entry of the array the scan is in: {@link #EVENT} (read into {@code e}), {@link #NOT_OBJECT} (passed
     * over), or {@link #END} when the array closes.
     */
    int nextEntry(XlaEvent e) throws IOException {
        int t = scanner.next();
        if (t == JsonScanner.END_ARRAY) return END;
        if (t != JsonScanner.START_OBJECT) {
            scanner.skipValue(t);
            return NOT_OBJECT;
        }
        readEvent(e);
        return EVENT;
    }

    private void readEvent(XlaEvent e) throws IOException {
        e.clear();
        while (scanner.next() == JsonScanner.FIELD) {
            int field = EventFields.of(scanner, values);
            // the name of a field kept as an arg, taken before the scanner moves off it
            String other = field == EventFields.OTHER ? argName() : null;
            int v = scanner.next();
            switch (field) {
                case EventFields.PH -> e.ph = text(v);
                case EventFields.CAT -> e.cat = text(v);
                case EventFields.NAME -> e.name = text(v);
                case EventFields.PID -> e.pid = text(v);
                case EventFields.TID -> e.tid = text(v);
                case EventFields.TS -> e.ts.read(v, scanner, values);
                case EventFields.DUR -> e.dur.read(v, scanner, values);
                case EventFields.ARGS -> {
                    if (v == JsonScanner.START_OBJECT) {
                        readArgs(e);
                    } else {
                        check(v); // args that are no object: none, but their text must still be text
                    }
                }
                default -> {
                    if (other == null) {
                        check(v);
                    } else {
                        String text = text(v);
                        if (text != null) e.args.putIfAbsent(other, text);
                    }
                }
            }
        }
    }

    private void readArgs(XlaEvent e) throws IOException {
        while (scanner.next() == JsonScanner.FIELD) {
            String key = argName();
            int v = scanner.next();
            if (key == null) {
                check(v);
                continue;
            }
            String text = text(v);
            if (text != null) e.args.put(key, text); // a null arg is no arg
        }
    }

    /** The current field name as an arg's key; null when this scan does not keep that arg (checked, not decoded). */
    private String argName() throws IOException {
        if (!indexOnly) return string();
        if (scanner.escaped()) {
            String name = scanner.decodeEscaped();
            return name.equals("name") || name.equals("step_num") || name.equals("group_id") ? string() : null;
        }
        for (byte[] kept : INDEX_ARGS) {
            if (scanner.is(kept)) return string();
        }
        checkString();
        return null;
    }

    /**
     * Reads a value this scan does not keep, with every check its text would have had ({@link #text}): a string's
     * escapes and UTF-8, also inside a structure; numbers and words are checked by the scanner itself.
     */
    private void check(int v) throws IOException {
        if (v == JsonScanner.STRING) {
            checkString();
        } else if (v == JsonScanner.START_OBJECT || v == JsonScanner.START_ARRAY) {
            int until = scanner.depth() - 1;
            while (scanner.depth() > until) {
                int t = scanner.next();
                if (t == JsonScanner.EOF) throw new IOException("file ends inside a value");
                if (t == JsonScanner.STRING || t == JsonScanner.FIELD) checkString();
            }
        }
    }

    /** The current string or field name decodes (its escapes, its UTF-8), as when it is kept; nothing is made. */
    private void checkString() throws IOException {
        if (scanner.escaped()) {
            scanner.decodeEscaped();
            return;
        }
        byte[] b = scanner.buffer();
        int end = scanner.end();
        for (int i = scanner.start(); i < end; i++) {
            if (b[i] < 0) { // not ASCII: the strict decoder says whether it is UTF-8
                scanner.utf8(b, scanner.start(), end);
                return;
            }
        }
    }

    /** The current string or field name, from the table. */
    private String string() throws IOException {
        int id = scanner.escaped()
                ? strings.intern(scanner.decodeEscaped())
                : strings.intern(scanner.buffer(), scanner.start(), scanner.end(), scanner);
        return strings.get(id);
    }

    /** The text of the value token {@code v} starts, from the table; null for JSON null. */
    private String text(int v) throws IOException {
        return switch (v) {
            case JsonScanner.NULL -> null;
            case JsonScanner.STRING -> string();
            case JsonScanner.START_OBJECT, JsonScanner.START_ARRAY -> strings.get(values.structureId(v, strings));
            // numbers and words: their bytes are their text
            default -> strings.get(strings.intern(scanner.buffer(), scanner.start(), scanner.end(), scanner));
        };
    }

    /** The content hash of the whole raw file (the rest of it read for the hash), once the scan has ended. */
    String drainAndHash() throws IOException {
        return in.drainAndHash();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
