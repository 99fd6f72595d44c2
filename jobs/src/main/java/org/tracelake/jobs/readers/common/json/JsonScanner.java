package org.tracelake.jobs.readers.common.json;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A pull tokenizer of JSON over the bytes of a stream, read into one refillable buffer (gzip is the stream's
 * business): the reader of a large trace asks for the next token and looks at its bytes where they lie, so that a
 * field name is matched by its bytes, a string is decoded only when it is kept (and then once per distinct value, by
 * the caller's {@link StringTable}), and a number is converted from its characters through {@link #numberText()}
 * without a String.
 *
 * <p>As strict as Jackson with the settings the trace readers use ({@code ALLOW_NON_NUMERIC_NUMBERS}): the grammar
 * of every token is checked, trailing commas and bare words are refused, and Jackson's own limits apply
 * ({@link StreamReadConstraints#defaults()}: nesting depth, number and string lengths). Errors are
 * {@link JsonSyntaxException}s naming line, column and byte. Once the root value is complete the scanner reads no
 * further ({@link #EOF}): what follows is the caller's (a content hash drains it).
 */
public final class JsonScanner {
    public static final int EOF = 0;
    public static final int START_OBJECT = 1;
    public static final int END_OBJECT = 2;
    public static final int START_ARRAY = 3;
    public static final int END_ARRAY = 4;
    /** A field name: its bytes are the token's ({@link #start()} to {@link #end()}, without the quotes). */
    public static final int FIELD = 5;

    public static final int STRING = 6;
    /** A number without fraction or exponent. */
    public static final int INT = 7;
    /** A number with a fraction or an exponent. */
    public static final int FLOAT = 8;

    public static final int TRUE = 9;
    public static final int FALSE = 10;
    public static final int NULL = 11;
    /** {@code NaN}, {@code Infinity}, {@code +Infinity}, {@code -Infinity}: the token's bytes are the word. */
    public static final int NON_FINITE = 12;

    private static final StreamReadConstraints LIMITS = StreamReadConstraints.defaults();

    // what may come next
    private static final int VALUE = 0;
    private static final int ARRAY_FIRST = 1;
    private static final int OBJECT_FIRST = 2;
    private static final int KEY = 3;
    private static final int COLON = 4;
    private static final int AFTER_VALUE = 5;
    private static final int DONE = 6;

    /** Bytes that end the fast scan of a string: the quote, the backslash, control characters. */
    private static final boolean[] STRING_STOP = new boolean[256];
    /** Bytes a number token is made of. */
    private static final boolean[] NUMBER_CHAR = new boolean[256];
    /** Bytes that may follow a number or a literal. */
    private static final boolean[] DELIMITER = new boolean[256];

    static {
        for (int b = 0; b < 0x20; b++) STRING_STOP[b] = true;
        STRING_STOP['"'] = STRING_STOP['\\'] = true;
        for (char c : "0123456789-+.eE".toCharArray()) NUMBER_CHAR[c] = true;
        for (char c : " \t\r\n,]}".toCharArray()) DELIMITER[c] = true;
    }

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean inputEnded;
    /** Whether the last {@link #refill} added bytes. */
    private boolean filled;
    /** Bytes of the input before {@code buf[0]}. */
    private long discarded;

    private int line = 1;
    /** Offset in the input of the current line's first byte. */
    private long lineStart;

    private int start;
    private int end;
    private boolean escaped;

    private byte[] stack = new byte[32];
    private int depth;
    private int state = VALUE;

    private final NumberView number = new NumberView();

    public JsonScanner(InputStream in) {
        this(in, 1 << 16);
    }

    JsonScanner(InputStream in, int bufferSize) {
        this.in = in;
        this.buf = new byte[Math.max(16, bufferSize)];
    }

    /** The buffer the current token's bytes are in, valid until the next call of {@link #next}. */
    public byte[] buffer() {
        return buf;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** Whether the current string or field name has escapes: its bytes are not its text. */
    public boolean escaped() {
        return escaped;
    }

    /** Nesting depth after the current token: 1 inside the root object. */
    public int depth() {
        return depth;
    }

    /** Whether the current field name or string is exactly these (ASCII) bytes. */
    public boolean is(byte[] text) {
        if (escaped || end - start != text.length) return false;
        for (int i = 0; i < text.length; i++) {
            if (buf[start + i] != text[i]) return false;
        }
        return true;
    }

    /** The current number's (or word's) characters, a view valid until the next call of {@link #next}. */
    public CharSequence numberText() {
        number.from = start;
        number.to = end;
        return number;
    }

    /** The current token's bytes as text (ASCII: numbers and words). */
    public String tokenText() {
        return new String(buf, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** The next token, or {@link #EOF} once the root value is complete. */
    public int next() throws IOException {
        switch (state) {
            case DONE:
                return EOF;
            case AFTER_VALUE: {
                int c = skipSpace();
                boolean inObject = stack[depth - 1] == '{';
                if (c == ',') {
                    pos++;
                    if (inObject) return key(skipSpace());
                    return value(skipSpace());
                }
                if (c == '}' && inObject) return close(END_OBJECT);
                if (c == ']' && !inObject) return close(END_ARRAY);
                if (c < 0) throw cut(inObject ? "file ends inside an object" : "file ends inside an array");
                throw bad("unexpected character " + describe(c) + ": was expecting comma to separate "
                        + (inObject ? "Object entries" : "Array entries"));
            }
            case OBJECT_FIRST: {
                int c = skipSpace();
                if (c == '}') return close(END_OBJECT);
                return key(c);
            }
            case KEY:
                return key(skipSpace());
            case COLON: {
                int c = skipSpace();
                if (c != ':') {
                    if (c < 0) throw cut("file ends after a field name");
                    throw bad("unexpected character " + describe(c)
                            + ": was expecting a colon to separate field name and value");
                }
                pos++;
                return value(skipSpace());
            }
            case ARRAY_FIRST: {
                int c = skipSpace();
                if (c == ']') return close(END_ARRAY);
                return value(c);
            }
            default:
                return value(skipSpace());
        }
    }

    /** Passes over the value that {@code token} starts (nothing more to do for a scalar). */
    public void skipValue(int token) throws IOException {
        if (token != START_OBJECT && token != START_ARRAY) return;
        int until = depth - 1;
        while (depth > until) {
            if (next() == EOF) throw cut("file ends inside a value");
        }
    }

    /** The text of the current string or field name, escapes decoded as Jackson decodes them. */
    public String decodeEscaped() throws IOException {
        StringBuilder text = new StringBuilder(end - start);
        int run = start;
        for (int i = start; i < end; i++) {
            if (buf[i] != '\\') continue;
            text.append(utf8(buf, run, i));
            byte e = buf[++i];
            switch (e) {
                case '"' -> text.append('"');
                case '\\' -> text.append('\\');
                case '/' -> text.append('/');
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'n' -> text.append('\n');
                case 'r' -> text.append('\r');
                case 't' -> text.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int k = 1; k <= 4; k++) {
                        int digit = i + k < end ? Character.digit(buf[i + k], 16) : -1;
                        if (digit < 0) throw bad("expected a hex-digit for character escape sequence");
                        code = code * 16 + digit;
                    }
                    text.append((char) code);
                    i += 4;
                }
                default -> throw bad("unrecognized character escape " + describe(e & 0xff));
            }
            run = i + 1;
        }
        return text.append(utf8(buf, run, end)).toString();
    }

    /** Bytes as UTF-8 text, refused (as Jackson refuses them) when they are not UTF-8. */
    public String utf8(byte[] bytes, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            if (bytes[i] < 0) return strictUtf8(bytes, from, to);
        }
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private final java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
            .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);

    private String strictUtf8(byte[] bytes, int from, int to) throws IOException {
        try {
            return decoder.decode(java.nio.ByteBuffer.wrap(bytes, from, to - from))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw bad("Invalid UTF-8 byte sequence in a string");
        }
    }

    private int key(int c) throws IOException {
        if (c != '"') {
            if (c < 0) throw cut("file ends inside an object");
            throw bad("unexpected character " + describe(c) + ": was expecting double-quote to start field name");
        }
        string(LIMITS.getMaxNameLength());
        state = COLON;
        return FIELD;
    }

    private int value(int c) throws IOException {
        switch (c) {
            case '{' -> {
                push((byte) '{');
                state = OBJECT_FIRST;
                return START_OBJECT;
            }
            case '[' -> {
                push((byte) '[');
                state = ARRAY_FIRST;
                return START_ARRAY;
            }
            case '"' -> {
                string(LIMITS.getMaxStringLength());
                valueDone();
                return STRING;
            }
            case 't' -> {
                return word("true", TRUE);
            }
            case 'f' -> {
                return word("false", FALSE);
            }
            case 'n' -> {
                return word("null", NULL);
            }
            case 'N' -> {
                return word("NaN", NON_FINITE);
            }
            case 'I' -> {
                return word("Infinity", NON_FINITE);
            }
            case '+' -> {
                return word("+Infinity", NON_FINITE);
            }
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                if (c < 0) throw cut(depth == 0 ? "file has no JSON value" : "file ends where a value was expected");
                throw bad("unexpected character " + describe(c)
                        + ": expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or"
                        + " 'false')");
            }
        }
    }

    private int close(int token) {
        pos++;
        depth--;
        valueDone();
        return token;
    }

    private void valueDone() {
        state = depth == 0 ? DONE : AFTER_VALUE;
    }

    private void push(byte kind) throws IOException {
        pos++;
        if (depth >= LIMITS.getMaxNestingDepth()) {
            throw new StreamConstraintsException("Document nesting depth (" + (depth + 1)
                    + ") exceeds the maximum allowed (" + LIMITS.getMaxNestingDepth() + ")");
        }
        if (depth == stack.length) stack = Arrays.copyOf(stack, depth * 2);
        stack[depth++] = kind;
    }

    /** A string from the quote at {@code pos}: its content becomes the token. */
    private void string(int maxLength) throws IOException {
        pos++;
        int from = pos;
        escaped = false;
        while (true) {
            byte[] b = buf;
            int p = pos;
            int n = limit;
            while (p < n && !STRING_STOP[b[p] & 0xff]) p++;
            pos = p;
            if (p < n) {
                byte x = b[p];
                if (x == '"') {
                    start = from;
                    end = p;
                    pos = p + 1;
                    return;
                }
                if (x == '\\') {
                    if (p + 1 < n) {
                        escaped = true;
                        if (!isEscapeChar(b[p + 1])) {
                            pos = p + 1;
                            throw bad("unrecognized character escape " + describe(b[p + 1] & 0xff));
                        }
                        pos = p + 2;
                        continue;
                    }
                } else {
                    throw bad("illegal unquoted character (" + describe(x & 0xff)
                            + "): has to be escaped using backslash to be included in string value");
                }
            }
            from -= refill(from);
            if (!filled) throw cut("file ends inside a string");
            if (pos - from > maxLength) {
                throw new StreamConstraintsException(
                        "String value length exceeds the maximum allowed (" + maxLength + ")");
            }
        }
    }

    private static boolean isEscapeChar(byte b) {
        return switch (b) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u' -> true;
            default -> false;
        };
    }

    private int number() throws IOException {
        int from = pos;
        while (true) {
            int p = pos;
            while (p < limit && NUMBER_CHAR[buf[p] & 0xff]) p++;
            pos = p;
            if (p < limit) break;
            from -= refill(from);
            if (!filled) break; // the input ends after the number
            if (pos - from > LIMITS.getMaxNumberLength()) break;
        }
        if (pos - from == 1 && buf[from] == '-' && pos < limit && buf[pos] == 'I') {
            pos = from;
            return word("-Infinity", NON_FINITE);
        }
        start = from;
        end = pos;
        if (end - start > LIMITS.getMaxNumberLength()) {
            throw new StreamConstraintsException("Number value length (" + (end - start)
                    + ") exceeds the maximum allowed (" + LIMITS.getMaxNumberLength() + ")");
        }
        int kind = numberKind();
        delimited();
        valueDone();
        return kind;
    }

    /** INT or FLOAT for the token's bytes, which must be a JSON number. */
    private int numberKind() throws IOException {
        int i = start;
        if (buf[i] == '-') i++;
        int intStart = i;
        while (i < end && isDigit(buf[i])) i++;
        if (i == intStart) throw badNumber("no digit before the end of a number");
        if (buf[intStart] == '0' && i - intStart > 1) throw badNumber("leading zeroes not allowed");
        if (i == end) return INT;
        if (buf[i] == '.') {
            int f = ++i;
            while (i < end && isDigit(buf[i])) i++;
            if (i == f) throw badNumber("decimal point not followed by a digit");
        }
        if (i < end && (buf[i] == 'e' || buf[i] == 'E')) {
            i++;
            if (i < end && (buf[i] == '+' || buf[i] == '-')) i++;
            int x = i;
            while (i < end && isDigit(buf[i])) i++;
            if (i == x) throw badNumber("exponent indicator not followed by a digit");
        }
        if (i != end) throw badNumber("unexpected character " + describe(buf[i] & 0xff) + " in a number");
        return FLOAT;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private int word(String word, int token) throws IOException {
        int n = word.length();
        while (limit - pos < n) {
            refill(pos);
            if (!filled) break;
        }
        int from = pos;
        for (int k = 0; k < n; k++) {
            if (from + k >= limit || buf[from + k] != word.charAt(k)) {
                int to = from + k;
                while (to < limit && to - from < 32 && !DELIMITER[buf[to] & 0xff]) to++;
                pos = from;
                throw bad("unrecognized token '" + new String(buf, from, Math.max(1, to - from), StandardCharsets.UTF_8)
                        + "': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
            }
        }
        start = from;
        end = from + n;
        pos = end;
        delimited();
        valueDone();
        return token;
    }

    /** The byte after a number or word must end it (or the input ends). */
    private void delimited() throws IOException {
        if (pos >= limit) {
            int shift = refill(start);
            start -= shift;
            end -= shift;
        }
        if (pos < limit && !DELIMITER[buf[pos] & 0xff]) {
            throw bad("unexpected character " + describe(buf[pos] & 0xff) + " after a value");
        }
    }

    /** The next byte after whitespace (not consumed), or -1 at the end of the input. */
    private int skipSpace() throws IOException {
        while (true) {
            byte[] b = buf;
            int p = pos;
            int n = limit;
            while (p < n) {
                byte c = b[p];
                if (c == ' ' || c == '\t' || c == '\r') {
                    p++;
                } else if (c == '\n') {
                    p++;
                    line++;
                    lineStart = discarded + p;
                } else {
                    pos = p;
                    return c & 0xff;
                }
            }
            pos = p;
            refill(pos);
            if (!filled) return -1;
        }
    }

    /**
     * Moves the bytes from {@code keep} to the front (growing the buffer when they fill it) and reads more after them:
     * how far they moved; {@link #filled} says whether any byte was added (none: the input has ended).
     */
    private int refill(int keep) throws IOException {
        filled = false;
        if (keep > 0) {
            System.arraycopy(buf, keep, buf, 0, limit - keep);
            limit -= keep;
            pos -= keep;
            discarded += keep;
        }
        if (inputEnded) return keep;
        if (limit == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            inputEnded = true;
        } else {
            limit += n;
            filled = n > 0;
        }
        return keep;
    }

    private static String describe(int c) {
        if (c < 0x20 || c >= 0x7f) return "(code " + c + ")";
        return "('" + (char) c + "' (code " + c + "))";
    }

    JsonSyntaxException bad(String problem) {
        long at = discarded + pos;
        return new JsonSyntaxException(false, problem, line, at - lineStart + 1, at);
    }

    private JsonSyntaxException badNumber(String problem) {
        pos = start;
        return bad("invalid numeric value: " + problem);
    }

    private JsonSyntaxException cut(String problem) {
        long at = discarded + pos;
        return new JsonSyntaxException(true, problem, line, at - lineStart + 1, at);
    }

    /** The characters of a number in the buffer, for conversions that take a CharSequence. */
    private final class NumberView implements CharSequence {
        int from;
        int to;

        @Override
        public int length() {
            return to - from;
        }

        @Override
        public char charAt(int index) {
            return (char) (buf[from + index] & 0xff);
        }

        @Override
        public CharSequence subSequence(int s, int e) {
            return toString().substring(s, e);
        }

        @Override
        public String toString() {
            return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
        }
    }
}
