package org.tracelake.jobs.readers.kineto.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A first pass made cheap: the bytes of a Chrome trace-event document with the {@code traceEvents} entries the pass
 * does not need taken out before Jackson tokenizes them. Whether an entry is needed is decided from its {@code cat}
 * and {@code name} alone, found by a byte scan that follows strings and nesting and decodes nothing else; most entries
 * of a Kineto file (CPU ops, kernels, flow events) are never parsed by the first pass.
 *
 * <p>Whatever the scan cannot be sure of is kept: an entry with an escaped key, a repeated or non-string
 * {@code cat}/{@code name} or one with a broken escape, an entry larger than {@link #MAX_ENTRY_BYTES}; an element that
 * is not an object,
 * or nesting that does not add up, ends the sieving and the rest of the file goes through whole. So the pass that
 * reads the result learns what it would have learnt from the whole file. The scan checks no syntax: Jackson checks
 * what is kept, and the second pass reads every byte. Everything outside the {@code traceEvents} array goes through
 * unchanged.
 */
public final class TraceEventsSieve extends InputStream {
    /** Entries larger than this are not held to be judged: they go through, and the rest of the file with them. */
    static final int MAX_ENTRY_BYTES = 1 << 20;

    /** The two fields of an entry the scan found, for {@link Filter#keep}. */
    public interface Entry {
        /** The entry's category, or null when it has none. */
        String cat();

        /** The entry's name, decoded on demand, or null when it has none. */
        String name();
    }

    @FunctionalInterface
    public interface Filter {
        boolean keep(Entry entry);
    }

    private static final byte[] TRACE_EVENTS = "traceEvents".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CAT = "cat".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NAME = "name".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COMMA = {','};
    /** Bytes that continue a number or literal: all but whitespace, quotes and the structural characters. */
    private static final boolean[] SCALAR = new boolean[256];

    static {
        Arrays.fill(SCALAR, true);
        for (char ch : " \n\r\t\"{}[],:".toCharArray()) SCALAR[ch] = false;
    }

    // where the scan is
    private static final int OUTSIDE = 0; // bytes go through, watching for the traceEvents key
    private static final int BETWEEN = 1; // inside the array, between entries (separators are dropped)
    private static final int ENTRY = 2; // inside an entry object
    private static final int THROUGH = 3; // sieving ended: every remaining byte goes through

    // what the string being scanned is
    private static final int OTHER = 0;
    private static final int TOP_KEY = 1;
    private static final int ENTRY_KEY = 2;
    private static final int ENTRY_VALUE = 3;

    private final InputStream source;
    private final Filter filter;
    private final byte[] chunk = new byte[1 << 16];
    private int chunkLength;
    private boolean sourceEnded;

    private byte[] out = new byte[1 << 16];
    private int outStart;
    private int outEnd;

    private int mode = OUTSIDE;
    private int depth;
    private boolean inString;
    private boolean escaped;
    private int stringRole;
    private int stringStart; // index in chunk where the current string's content starts (0: began in an earlier chunk)
    private boolean stringHadEscape;
    /** The part of a key or value string scanned in earlier chunks (keys and categories are short; names are held). */
    private final ByteRun spanned = new ByteRun();

    // top level: finding "traceEvents": [
    private boolean topKeyExpected;
    private boolean traceEventsKey;
    private boolean traceEventsColon;

    // the array and the entry being scanned
    private boolean keptAny;
    private final ByteRun held = new ByteRun(); // the current entry's bytes from earlier chunks
    private int entryStart; // index in chunk where the entry (or its part in this chunk) starts
    private boolean entryKeyExpected;
    private int entryKey; // 0 none, 1 cat, 2 name: the key whose value comes next
    private boolean entryValueExpected;
    private boolean unsure;
    private String cat;
    private String name;
    /**
     * The name's bytes when it had no escape: decoded only if the filter asks for it (most entries are judged by their
     * category alone), and then through {@link #names}.
     */
    private final ByteRun nameBytes = new ByteRun();

    private boolean nameUndecoded;
    private final NameCache names = new NameCache();
    private final Judged judged = new Judged();
    private String lastCat;
    private byte[] lastCatBytes;

    public TraceEventsSieve(InputStream source, Filter filter) {
        this.source = source;
        this.filter = filter;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) return 0;
        while (outStart == outEnd) {
            if (sourceEnded) return -1;
            outStart = outEnd = 0;
            sieveNextChunk();
        }
        int n = Math.min(len, outEnd - outStart);
        System.arraycopy(out, outStart, b, off, n);
        outStart += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    private void sieveNextChunk() throws IOException {
        chunkLength = source.readNBytes(chunk, 0, chunk.length);
        if (chunkLength == 0) {
            sourceEnded = true;
            if (mode == ENTRY) emitEntry(held.bytes, 0, held.length); // a cut entry: Jackson says the file is cut
            return;
        }
        if (mode == THROUGH) {
            emit(chunk, 0, chunkLength);
            return;
        }
        scan();
    }

    /** One chunk through the state machine; bytes go out in runs, not one by one. */
    private void scan() {
        byte[] c = chunk;
        int n = chunkLength;
        int passFrom = mode == OUTSIDE ? 0 : -1;
        entryStart = 0;
        stringStart = 0; // a string still open began in an earlier chunk: its part here starts at 0
        scan:
        for (int i = 0; i < n; i++) {
            if (inString) {
                if (escaped) { // this byte is the escaped one, whatever it is
                    escaped = false;
                    continue;
                }
                while (i < n && c[i] != '"' && c[i] != '\\') i++; // most bytes are inside strings
                if (i == n) break;
                if (c[i] == '\\') {
                    escaped = true;
                    stringHadEscape = true;
                } else {
                    inString = false;
                    endString(i);
                }
                continue;
            }
            byte b = c[i];
            switch (b) {
                case ' ', '\n', '\r', '\t' -> {}
                case '"' -> {
                    if (mode == BETWEEN) { // a string as an element
                        passFrom = giveUp(i);
                        break scan;
                    }
                    startString(i);
                }
                case '{' -> {
                    depth++;
                    if (mode == BETWEEN) {
                        startEntry(i);
                    } else {
                        notAValue();
                        if (mode == OUTSIDE && depth == 1) topKeyExpected = true;
                        if (mode == ENTRY && depth == 3) entryKeyExpected = true;
                    }
                }
                case '[' -> {
                    if (mode == BETWEEN) { // an array as an element
                        passFrom = giveUp(i);
                        break scan;
                    }
                    depth++;
                    if (mode == OUTSIDE && depth == 2 && traceEventsColon) {
                        emit(c, passFrom, i + 1 - passFrom);
                        passFrom = -1;
                        mode = BETWEEN;
                        keptAny = false;
                    } else {
                        notAValue();
                    }
                }
                case '}', ']' -> {
                    depth--;
                    if (mode == ENTRY && depth == 2) {
                        if (b != '}') {
                            passFrom = giveUpInsideEntry();
                            break scan;
                        }
                        endEntry(i);
                    } else if (mode == BETWEEN) { // depth 1: the array ends
                        if (b != ']') {
                            passFrom = giveUp(i);
                            break scan;
                        }
                        mode = OUTSIDE;
                        passFrom = i;
                    } else if (depth < 0) { // more closers than openers: Jackson will say so
                        mode = THROUGH;
                        break scan;
                    }
                }
                case ',' -> {
                    if (mode == OUTSIDE && depth == 1) {
                        topKeyExpected = true;
                        traceEventsKey = traceEventsColon = false;
                    } else if (mode == ENTRY && depth == 3) {
                        entryKeyExpected = true;
                        entryKey = 0;
                        entryValueExpected = false;
                    }
                }
                case ':' -> {
                    if (mode == OUTSIDE && depth == 1 && traceEventsKey) traceEventsColon = true;
                    if (mode == ENTRY && depth == 3 && entryKey != 0) entryValueExpected = true;
                }
                default -> {
                    if (mode == BETWEEN) { // a number or a literal as an element
                        passFrom = giveUp(i);
                        break scan;
                    }
                    notAValue();
                    // the rest of the number or literal at once (a third of a Kineto file's bytes are digits of ts,
                    // dur and ids); notAValue would change nothing more for its other bytes
                    while (i + 1 < n && SCALAR[c[i + 1] & 0xff]) i++;
                }
            }
        }
        if (mode == THROUGH) {
            if (passFrom >= 0) emit(c, passFrom, n - passFrom);
            return;
        }
        if (inString) keepStringPart(n);
        if (mode == OUTSIDE) emit(c, passFrom, n - passFrom);
        if (mode == ENTRY) holdEntryPart(n);
    }

    /** A value other than the string the scan waits for: traceEvents is not an array, or cat/name is not a string. */
    private void notAValue() {
        if (mode == OUTSIDE) traceEventsColon = traceEventsKey = false;
        if (mode == ENTRY && entryValueExpected && depth >= 3) {
            unsure = true;
            entryValueExpected = false;
            entryKey = 0;
        }
    }

    private void startString(int i) {
        inString = true;
        stringHadEscape = false;
        stringStart = i + 1;
        spanned.length = 0;
        stringRole = OTHER;
        if (mode == OUTSIDE && depth == 1 && topKeyExpected) {
            stringRole = TOP_KEY;
            topKeyExpected = false;
        } else if (mode == ENTRY && depth == 3) {
            if (entryKeyExpected) {
                stringRole = ENTRY_KEY;
                entryKeyExpected = false;
            } else if (entryValueExpected) {
                stringRole = ENTRY_VALUE;
                entryValueExpected = false;
            }
        }
        if (mode == OUTSIDE && depth == 1 && stringRole != TOP_KEY) traceEventsColon = traceEventsKey = false;
    }

    /** Keeps the part of a key or value string this chunk holds, for when it ends in the next one. */
    private void keepStringPart(int n) {
        if (stringRole == OTHER) return;
        spanned.append(chunk, stringStart, n - stringStart);
    }

    private void endString(int end) {
        if (stringRole == OTHER) return;
        byte[] bytes;
        int from;
        int length;
        if (spanned.length == 0) {
            bytes = chunk;
            from = stringStart;
            length = end - stringStart;
        } else {
            spanned.append(chunk, stringStart, end - stringStart);
            bytes = spanned.bytes;
            from = 0;
            length = spanned.length;
        }
        switch (stringRole) {
            case TOP_KEY -> traceEventsKey = !stringHadEscape && equal(bytes, from, length, TRACE_EVENTS);
            case ENTRY_KEY -> {
                entryKey = 0;
                if (stringHadEscape) {
                    unsure = true;
                } else if (equal(bytes, from, length, CAT)) {
                    entryKey = 1;
                } else if (equal(bytes, from, length, NAME)) {
                    entryKey = 2;
                }
            }
            case ENTRY_VALUE -> {
                boolean repeated = entryKey == 1 ? cat != null : name != null || nameUndecoded;
                if (entryKey == 2 && !stringHadEscape) { // nothing to refuse in it: decoded when asked for
                    nameBytes.length = 0;
                    nameBytes.append(bytes, from, length);
                    nameUndecoded = true;
                    name = null;
                    if (repeated) unsure = true;
                } else {
                    String value = decode(bytes, from, length, stringHadEscape);
                    if (value == null || repeated) unsure = true; // bad escape, or repeated
                    if (entryKey == 1) {
                        cat = value;
                    } else {
                        name = value;
                        nameUndecoded = false;
                    }
                }
                entryKey = 0;
            }
            default -> {}
        }
    }

    private void startEntry(int i) {
        mode = ENTRY;
        entryStart = i;
        held.length = 0;
        entryKeyExpected = true;
        entryKey = 0;
        entryValueExpected = false;
        unsure = false;
        cat = name = null;
        nameUndecoded = false;
    }

    /** The entry ends at {@code end} (its closing brace): judged, then sent on or dropped. */
    private void endEntry(int end) {
        mode = BETWEEN;
        if (!unsure && !filter.keep(judged)) return;
        if (held.length == 0) {
            emitEntry(chunk, entryStart, end + 1 - entryStart);
        } else {
            held.append(chunk, 0, end + 1);
            emitEntry(held.bytes, 0, held.length);
        }
    }

    /** At the end of a chunk inside an entry: its part so far is held, unless the entry is too large to judge. */
    private void holdEntryPart(int n) {
        held.append(chunk, entryStart, n - entryStart);
        if (held.length > MAX_ENTRY_BYTES) {
            emitEntry(held.bytes, 0, held.length);
            mode = THROUGH;
        }
    }

    /**
     * Sieving ends at {@code i}, between entries: what follows goes through whole. Returns where the bytes to pass
     * start.
     */
    private int giveUp(int i) {
        if (keptAny) emit(COMMA, 0, 1);
        mode = THROUGH;
        return i;
    }

    /** Sieving ends inside an entry whose nesting does not add up: its bytes so far go out, then the rest. */
    private int giveUpInsideEntry() {
        if (keptAny) emit(COMMA, 0, 1);
        emit(held.bytes, 0, held.length);
        mode = THROUGH;
        return entryStart; // the entry's part in this chunk (0 when it began in an earlier one)
    }

    private void emitEntry(byte[] bytes, int from, int length) {
        if (keptAny) emit(COMMA, 0, 1);
        keptAny = true;
        emit(bytes, from, length);
    }

    private void emit(byte[] bytes, int from, int length) {
        if (length <= 0) return;
        if (outEnd + length > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, outEnd + length));
        System.arraycopy(bytes, from, out, outEnd, length);
        outEnd += length;
    }

    private static boolean equal(byte[] bytes, int from, int length, byte[] expected) {
        return length == expected.length && Arrays.equals(bytes, from, from + length, expected, 0, length);
    }

    /** The scanned entry as the filter sees it. */
    private final class Judged implements Entry {
        @Override
        public String cat() {
            return cat;
        }

        @Override
        public String name() {
            if (nameUndecoded) {
                name = names.decode(nameBytes.bytes, nameBytes.length);
                nameUndecoded = false;
            }
            return name;
        }
    }

    /**
     * Names decoded before, by their bytes: a file repeats a few thousand names (op and kernel names) over millions
     * of entries, so a name asked for again is handed out as the same String (no decoding, no copy, its hash already
     * computed for the filter's own lookups). Direct-mapped: a slot holds the last name that hashed to it.
     */
    private static final class NameCache {
        private static final int SLOTS = 4096;
        /** Longer names are decoded each time rather than kept. */
        private static final int MAX_KEPT = 1024;

        private final byte[][] keys = new byte[SLOTS][];
        private final String[] values = new String[SLOTS];

        String decode(byte[] bytes, int length) {
            int h = 1;
            for (int i = 0; i < length; i++) h = 31 * h + bytes[i];
            int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
            byte[] key = keys[slot];
            if (key != null && Arrays.equals(key, 0, key.length, bytes, 0, length)) return values[slot];
            String value = new String(bytes, 0, length, StandardCharsets.UTF_8);
            if (length <= MAX_KEPT) {
                keys[slot] = Arrays.copyOf(bytes, length);
                values[slot] = value;
            }
            return value;
        }
    }

    /**
     * A JSON string's content as Jackson would return it, or null for an escape Jackson would refuse. Categories repeat:
     * the last one decoded is handed out again when the bytes match, so most entries decode none.
     */
    private String decode(byte[] bytes, int from, int length, boolean hadEscape) {
        if (!hadEscape) {
            if (lastCat != null && equal(bytes, from, length, lastCatBytes)) return lastCat;
            String plain = new String(bytes, from, length, StandardCharsets.UTF_8);
            if (entryKey == 1) {
                lastCat = plain;
                lastCatBytes = Arrays.copyOfRange(bytes, from, from + length);
            }
            return plain;
        }
        StringBuilder text = new StringBuilder(length);
        int run = from;
        int end = from + length;
        for (int i = from; i < end; i++) {
            if (bytes[i] != '\\') continue;
            text.append(new String(bytes, run, i - run, StandardCharsets.UTF_8));
            if (++i == end) return null;
            switch (bytes[i]) {
                case '"' -> text.append('"');
                case '\\' -> text.append('\\');
                case '/' -> text.append('/');
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'n' -> text.append('\n');
                case 'r' -> text.append('\r');
                case 't' -> text.append('\t');
                case 'u' -> {
                    if (i + 4 >= end) return null;
                    int code = 0;
                    for (int k = 1; k <= 4; k++) {
                        int digit = Character.digit(bytes[i + k], 16);
                        if (digit < 0) return null;
                        code = code * 16 + digit;
                    }
                    text.append((char) code);
                    i += 4;
                }
                default -> {
                    return null;
                }
            }
            run = i + 1;
        }
        return text.append(new String(bytes, run, end - run, StandardCharsets.UTF_8))
                .toString();
    }

    /** A growable run of bytes, reused. */
    private static final class ByteRun {
        byte[] bytes = new byte[64];
        int length;

        void append(byte[] from, int offset, int count) {
            if (count <= 0) return;
            if (length + count > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + count));
            System.arraycopy(from, offset, bytes, length, count);
            length += count;
        }
    }
}
