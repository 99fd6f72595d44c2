package org.tracelake.jobs.readers.common.json;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.tracelake.jobs.readers.common.ChromeEventParser;

/**
 * The text a trace reader keeps of a JSON value, as {@link ChromeEventParser#text} defines it: a string's content, a
 * number as written, {@code true}/{@code false}, null for JSON null, and a structure as compact JSON. A structure is
 * written out from its tokens' bytes, which is exactly what Jackson's generator writes when its strings have no
 * escapes and its numbers are integers other than {@code -0}; any other structure (rare: floats, escapes, words) is
 * handed, compacted, to {@link ChromeEventParser#text} itself, so the text never depends on which path made it.
 */
public final class ValueText {
    private final JsonScanner scanner;
    private final ChromeEventParser jackson = new ChromeEventParser(false);
    private byte[] out = new byte[256];
    private int length;
    private boolean needsJackson;

    public ValueText(JsonScanner scanner) {
        this.scanner = scanner;
    }

    /** The text of the value the scanner's {@code token} is (a structure is read to its end). */
    public String text(int token) throws IOException {
        return switch (token) {
            case JsonScanner.NULL -> null;
            case JsonScanner.STRING -> string();
            case JsonScanner.TRUE -> "true";
            case JsonScanner.FALSE -> "false";
            case JsonScanner.START_OBJECT, JsonScanner.START_ARRAY -> structure(token);
            default -> scanner.tokenText();
        };
    }

    /** The current string's content. */
    public String string() throws IOException {
        return scanner.escaped()
                ? scanner.decodeEscaped()
                : scanner.utf8(scanner.buffer(), scanner.start(), scanner.end());
    }

    /** The structure {@code token} starts, as compact JSON text (see the class comment). */
    public String structure(int token) throws IOException {
        compact(token);
        if (!needsJackson) return scanner.utf8(out, 0, length);
        try (JsonParser p = ChromeEventParser.FACTORY.createParser(out, 0, length)) {
            return jackson.text(p, p.nextToken());
        }
    }

    /**
     * The id in {@code strings} of the structure's text: looked up by its compact bytes when they are its text (no
     * String made for a structure the file has written before), through {@link #structure} otherwise.
     */
    public int structureId(int token, StringTable strings) throws IOException {
        compact(token);
        if (!needsJackson) return strings.intern(out, 0, length, scanner);
        try (JsonParser p = ChromeEventParser.FACTORY.createParser(out, 0, length)) {
            return strings.intern(jackson.text(p, p.nextToken()));
        }
    }

    /** The value {@code token} starts, compacted (whitespace out, every token as written): for a tree reader. */
    public byte[] bytes(int token) throws IOException {
        length = 0;
        if (token == JsonScanner.START_OBJECT || token == JsonScanner.START_ARRAY) {
            compact(token);
        } else {
            writeToken(token);
        }
        return Arrays.copyOf(out, length);
    }

    private void compact(int token) throws IOException {
        length = 0;
        needsJackson = false;
        int until = scanner.depth() - 1;
        writeToken(token);
        int previous = token;
        while (scanner.depth() > until) {
            int t = scanner.next();
            if (t == JsonScanner.EOF) throw scanner.bad("file ends inside a value");
            boolean closes = t == JsonScanner.END_OBJECT || t == JsonScanner.END_ARRAY;
            boolean opened = previous == JsonScanner.START_OBJECT
                    || previous == JsonScanner.START_ARRAY
                    || previous == JsonScanner.FIELD;
            if (!closes && !opened) put((byte) ',');
            writeToken(t);
            previous = t;
        }
    }

    private void writeToken(int t) {
        switch (t) {
            case JsonScanner.START_OBJECT -> put((byte) '{');
            case JsonScanner.START_ARRAY -> put((byte) '[');
            case JsonScanner.END_OBJECT -> put((byte) '}');
            case JsonScanner.END_ARRAY -> put((byte) ']');
            case JsonScanner.FIELD -> {
                quoted();
                put((byte) ':');
            }
            case JsonScanner.STRING -> quoted();
            case JsonScanner.TRUE -> put(TRUE);
            case JsonScanner.FALSE -> put(FALSE);
            case JsonScanner.NULL -> put(NULL);
            case JsonScanner.INT -> {
                int s = scanner.start();
                byte[] b = scanner.buffer();
                if (scanner.end() - s == 2 && b[s] == '-' && b[s + 1] == '0') needsJackson = true;
                put(b, s, scanner.end());
            }
            default -> { // FLOAT, NON_FINITE: Jackson's generator rewrites them
                needsJackson = true;
                put(scanner.buffer(), scanner.start(), scanner.end());
            }
        }
    }

    private void quoted() {
        if (scanner.escaped()) needsJackson = true;
        put((byte) '"');
        put(scanner.buffer(), scanner.start(), scanner.end());
        put((byte) '"');
    }

    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private void put(byte[] b) {
        put(b, 0, b.length);
    }

    private void put(byte b) {
        if (length == out.length) out = Arrays.copyOf(out, out.length * 2);
        out[length++] = b;
    }

    private void put(byte[] b, int from, int to) {
        int n = to - from;
        if (length + n > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, length + n));
        System.arraycopy(b, from, out, length, n);
        length += n;
    }
}
