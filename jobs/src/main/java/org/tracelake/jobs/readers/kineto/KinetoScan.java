package org.tracelake.jobs.readers.kineto;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.common.MicrosField;
import org.tracelake.jobs.readers.common.json.EventFields;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.jobs.readers.common.json.ValueText;
import org.tracelake.udfs.Numbers;

/**
 * One read of a Kineto file with the byte scanner: the top-level object's keys (the time base, distributed info and
 * the rest of the metadata go to the {@link KinetoIndex}, when one is given) and the entries of its
 * {@code traceEvents} arrays, handed out one at a time as {@link KinetoEvent}s. Whether an entry makes a row is
 * decided here, by the rules the rows always had: an entry without a usable {@code ts} (but a metadata event), with
 * a bad or negative {@code dur}, a complete event without one, or no object at all, is counted in the drops (when
 * given) with its reason; JAX's trailing {@code {}} is passed over silently. Rows come from the first
 * {@code traceEvents} array only; later ones (there should be none) still teach the index.
 */
final class KinetoScan implements Closeable {

    private final TraceInput.Opened in;
    private final JsonScanner scanner;
    private final ValueText values;
    final StringTable strings;
    private final KinetoIndex index;
    private final DropCounter drops;
    private final boolean firstArrayOnly;

    private boolean started;
    private boolean inArray;
    private int arrays;
    private long ordinal;
    /** The largest relative ts of the first array's entries (whatever else drops them). */
    long maxRelTsNs = Long.MIN_VALUE;

    private final int phX;
    private final int phM;

    // the entry's ts and dur as it wrote them: a number converted on the spot, other text converted at the end
    private final MicrosField ts = new MicrosField();
    private final MicrosField dur = new MicrosField();

    /**
     * @param index where the metadata goes; null for a scan that only wants the rows (the second of two passes)
     * @param drops where dropped entries are counted; null when this scan makes no rows
     * @param firstArrayOnly end the scan with the first traceEvents array (a scan for rows, after the index is built)
     */
    private KinetoScan(
            TraceInput.Opened in, StringTable strings, KinetoIndex index, DropCounter drops, boolean firstArrayOnly)
            throws IOException {
        this.in = in;
        this.scanner = new JsonScanner(in);
        this.values = new ValueText(scanner);
        this.strings = strings;
        this.index = index;
        this.drops = drops;
        this.firstArrayOnly = firstArrayOnly;
        this.phX = strings.intern("X");
        this.phM = strings.intern("M");
        // the args the rows look up by id: in the table before any entry can fill it
        for (String key : List.of("correlation", "External id", "device", "stream")) strings.intern(key);
        strings.intern(CommDetails.COLLECTIVE_NAME);
        strings.intern(CommDetails.RECORD_FUNCTION_ID);
    }

    static KinetoScan open(
            FileTask task,
            Configuration conf,
            boolean hash,
            StringTable strings,
            KinetoIndex index,
            DropCounter drops,
            boolean firstArrayOnly)
            throws IOException {
        TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), hash);
        try {
            return new KinetoScan(in, strings, index, drops, firstArrayOnly);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** The content hash of the whole raw file (the rest of it read for the hash), once the scan has ended. */
    String drainAndHash() throws IOException {
        return in.drainAndHash();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** The next entry of a traceEvents array into {@code e}; false at the end of the document. */
    boolean next(KinetoEvent e) throws IOException {
        while (true) {
            if (inArray) {
                int t = scanner.next();
                if (t == JsonScanner.END_ARRAY) {
                    inArray = false;
                    if (firstArrayOnly) return false;
                    continue;
                }
                e.clear();
                e.firstArray = arrays == 1;
                e.ordinal = ordinal++;
                if (t != JsonScanner.START_OBJECT) {
                    scanner.skipValue(t);
                    e.notObject = true;
                    if (e.firstArray && drops != null) drops.drop("traceEvents entry is not an object");
                    return true;
                }
                readEvent(e);
                return true;
            }
            if (!started) {
                started = true;
                int t = scanner.next();
                if (t != JsonScanner.START_OBJECT) {
                    throw new IOException(
                            "a Kineto trace is a JSON object; this file starts with " + EventFields.jacksonName(t));
                }
            }
            int t = scanner.next();
            if (t != JsonScanner.FIELD) return false; // the root object ends
            String key = values.string();
            int v = scanner.next();
            if (key.equals("traceEvents")) {
                if (v != JsonScanner.START_ARRAY) throw new IOException("traceEvents is not an array");
                arrays++;
                inArray = true;
                if (index != null) index.sawTraceEvents = true;
                continue;
            }
            if (index == null) {
                scanner.skipValue(v);
            } else {
                topLevel(key, v);
            }
        }
    }

    /** A top-level key other than traceEvents: the time base, the distributed info, or metadata. */
    private void topLevel(String key, int v) throws IOException {
        boolean structure = v == JsonScanner.START_OBJECT || v == JsonScanner.START_ARRAY;
        switch (key) {
            case "baseTimeNanoseconds" -> {
                if (structure) {
                    scanner.skipValue(v);
                    index.baseTimeNs = null;
                } else {
                    index.baseTimeNs = Numbers.wholeNumber(values.text(v));
                }
            }
            case "distributedInfo" -> index.learnDistributedInfo(KinetoIndex.JSON.readTree(values.bytes(v)));
            default -> index.keepMetadata(key, values.text(v), structure);
        }
    }

    private void readEvent(KinetoEvent e) throws IOException {
        ts.clear();
        dur.clear();
        while (true) {
            int t = scanner.next();
            if (t != JsonScanner.FIELD) break; // the object ends
            int field = field();
            int v = scanner.next();
            switch (field) {
                case 1 -> e.ph = textId(v);
                case 2 -> e.cat = textId(v);
                case 3 -> e.name = textId(v);
                case 4 -> e.pid = textId(v);
                case 5 -> e.tid = textId(v);
                case 6 -> ts.read(v, scanner, values);
                case 7 -> dur.read(v, scanner, values);
                case 8 -> {
                    if (v == JsonScanner.START_OBJECT) {
                        readArgs(e);
                    } else {
                        scanner.skipValue(v);
                    }
                }
                default -> scanner.skipValue(v);
            }
        }
        judge(e);
    }

    /** Which of the fields the reader reads the current field name is (0: another one; EventFields' numbers). */
    private int field() throws IOException {
        return EventFields.of(scanner, values);
    }

    private void readArgs(KinetoEvent e) throws IOException {
        while (scanner.next() == JsonScanner.FIELD) {
            int key = scanner.escaped()
                    ? strings.intern(scanner.decodeEscaped())
                    : strings.intern(scanner.buffer(), scanner.start(), scanner.end(), scanner);
            int v = scanner.next();
            if (v == JsonScanner.NULL) continue; // a null arg is no arg
            if (v == JsonScanner.INT) {
                long whole = wholeAsWritten();
                if (whole != NOT_PLAIN) {
                    e.addArg(key, KinetoEvent.LONG, whole);
                    continue;
                }
            }
            e.addArg(key, KinetoEvent.STRING, textId(v));
        }
    }

    private static final long NOT_PLAIN = Long.MIN_VALUE;

    /**
     * The current integer token as a long when its text is what {@link Long#toString} gives back (at most 18 digits,
     * not {@code -0}); {@link #NOT_PLAIN} otherwise, and the arg keeps its text.
     */
    private long wholeAsWritten() {
        byte[] b = scanner.buffer();
        int i = scanner.start();
        int end = scanner.end();
        boolean negative = b[i] == '-';
        if (negative) i++;
        int digits = end - i;
        if (digits > 18 || (negative && digits == 1 && b[i] == '0')) return NOT_PLAIN;
        long v = 0;
        for (; i < end; i++) v = v * 10 + (b[i] - '0');
        return negative ? -v : v;
    }

    /** The id of the value's text ({@link ValueText}); {@link StringTable#NULL} for JSON null. */
    private int textId(int v) throws IOException {
        switch (v) {
            case JsonScanner.NULL:
                return StringTable.NULL;
            case JsonScanner.STRING:
                if (scanner.escaped()) return strings.intern(scanner.decodeEscaped());
                return strings.intern(scanner.buffer(), scanner.start(), scanner.end(), scanner);
            case JsonScanner.START_OBJECT:
            case JsonScanner.START_ARRAY:
                return values.structureId(v, strings);
            default: // numbers and words: their bytes are their text
                return strings.intern(scanner.buffer(), scanner.start(), scanner.end(), scanner);
        }
    }

    /**
     * Sets what the event's ts and dur are in nanoseconds, and whether it makes a row: the reasons and their order are
     * those of the rows, counted only for the first array's entries of a scan that makes rows.
     */
    private void judge(KinetoEvent e) {
        DropCounter counted = e.firstArray ? drops : null;
        DropCounter sink = counted != null ? counted : ignored;
        if (ts.present()) {
            Long rel = ts.nanosOrDrop("ts", sink);
            if (rel == null) {
                e.dropped = true;
                return; // the index learns only from entries with a usable ts and dur: none is lost here
            }
            e.hasTs = true;
            e.ts = rel;
            if (e.firstArray && rel > maxRelTsNs) maxRelTsNs = rel;
        } else if (e.ph == StringTable.NULL
                && e.cat == StringTable.NULL
                && e.name == StringTable.NULL
                && e.pid == StringTable.NULL
                && e.tid == StringTable.NULL
                && !dur.present()
                && e.argCount == 0) {
            e.empty = true;
            return;
        } else if (e.ph != phM) {
            sink.drop("event without ts (ph " + strings.get(e.ph) + ")");
            e.dropped = true;
            return;
        }
        if (dur.present()) {
            Long d = dur.nanosOrDrop("dur", sink);
            if (d == null) {
                e.dropped = true;
                return;
            }
            if (d < 0) {
                sink.drop("negative dur");
                e.dropped = true;
                return;
            }
            e.hasDur = true;
            e.dur = d;
        } else if (e.ph == phX) {
            sink.drop("complete event (ph X) without dur");
            e.dropped = true;
        }
    }

    /** Where the drops of entries that make no row go: nobody reads it. */
    private final DropCounter ignored = new DropCounter();

    boolean isX(int ph) {
        return ph == phX;
    }
}
