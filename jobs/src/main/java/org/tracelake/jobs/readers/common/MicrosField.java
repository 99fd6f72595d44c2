package org.tracelake.jobs.readers.common;

import java.io.IOException;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.jobs.readers.common.json.ValueText;
import org.tracelake.udfs.Numbers;

/**
 * A time field of a Chrome trace event ({@code ts}, {@code dur}) in µs as the entry wrote it, for the byte-level
 * scans of the Kineto and XLA readers. A number is converted to nanoseconds as it is scanned (no String made
 * of it); anything else ({@code "12.5"}, {@code NaN}, a structure) keeps its text, judged only when asked, so an
 * op whose {@code device_duration_ps} gives its length is not dropped for a {@code dur} nobody reads.
 */
public final class MicrosField {
    private static final int ABSENT = 0;
    private static final int NUMBER = 1;
    private static final int UNREADABLE_NUMBER = 2;
    private static final int TEXT = 3;

    private int state;
    private long nanos;
    private String text;
    private boolean quoted;

    public void clear() {
        state = ABSENT;
        text = null;
    }

    /** Reads the field's value, the scanner on its token {@code v}: a number is converted now, anything else kept. */
    public void read(int v, JsonScanner scanner, ValueText values) throws IOException {
        if (v == JsonScanner.INT || v == JsonScanner.FLOAT) number(scanner.numberText());
        else text(values.text(v), v == JsonScanner.STRING);
    }

    /** A number token, converted now. */
    public void number(CharSequence digits) {
        try {
            nanos = Numbers.microsToNanos(digits);
            state = NUMBER;
        } catch (Numbers.NotANumber bad) {
            state = UNREADABLE_NUMBER; // 1e400: the row's reason is "unreadable"
        }
    }

    /** Any other value: its text (null, for JSON null: the field is absent), and whether it was a string. */
    public void text(String value, boolean isString) {
        text = value;
        quoted = isString;
        state = value == null ? ABSENT : TEXT;
    }

    public boolean present() {
        return state != ABSENT;
    }

    /** The time in nanoseconds; NotANumber when it has none (the first pass learns nothing from the entry). */
    public long nanos() throws Numbers.NotANumber {
        return switch (state) {
            case NUMBER -> nanos;
            case TEXT -> Numbers.microsToNanos(text);
            default -> throw new Numbers.NotANumber("no usable time");
        };
    }

    /**
     * The time in nanoseconds, or null with the entry's drop counted under the reason the rows always gave
     * ({@link ChromeEventParser#nanos}: "non-finite ts (NaN)", "non-numeric dur", "unreadable ts").
     */
    public Long nanosOrDrop(String field, DropCounter drops) {
        return switch (state) {
            case NUMBER -> nanos;
            case UNREADABLE_NUMBER -> {
                drops.drop("unreadable " + field);
                yield null;
            }
            default -> ChromeEventParser.nanos(text, quoted, field, drops);
        };
    }
}
