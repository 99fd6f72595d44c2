package org.tracelake.jobs.readers.xla;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.udfs.Numbers;

/**
 * One {@code traceEvents} entry as {@link XlaScan} read it, reused from entry to entry: its strings (taken from the
 * pass's string table, so a value the file repeats is one String), {@code ts} and {@code dur} as {@link Micros}, and
 * its args with their text in the file's order, a key written twice keeping its first place and its last value. Top
 * level fields other than the eight the reader knows ({@code id}, {@code bind_id}, {@code s}, a counter's
 * {@code entries} …) are in the args too, unless an arg of that name came first.
 */
final class XlaEvent {
    String ph;
    String cat;
    String name;
    String pid;
    String tid;
    final Micros ts = new Micros();
    final Micros dur = new Micros();
    final Map<String, String> args = new LinkedHashMap<>();

    void clear() {
        ph = cat = name = pid = tid = null;
        ts.clear();
        dur.clear();
        args.clear();
    }

    /**
     * An empty object in the event list: JAX ends its trace JSON with one ({@code …, {}]}), a terminator rather than
     * an event (METRICS.md §1), so the reader passes over it without counting it as a dropped event.
     */
    boolean isEmpty() {
        return ph == null
                && cat == null
                && name == null
                && pid == null
                && tid == null
                && !ts.present()
                && !dur.present()
                && args.isEmpty();
    }

    boolean isMetadata() {
        return "M".equals(ph);
    }

    /**
     * A time field in µs as the entry wrote it. A number is converted to nanoseconds as it is scanned (no String made
     * of it); anything else ({@code "12.5"}, {@code NaN}, a structure) keeps its text, judged only when asked, so an
     * op whose {@code device_duration_ps} gives its length is not dropped for a {@code dur} nobody reads.
     */
    static final class Micros {
        private static final int ABSENT = 0;
        private static final int NUMBER = 1;
        private static final int UNREADABLE_NUMBER = 2;
        private static final int TEXT = 3;

        private int state;
        private long nanos;
        private String text;
        private boolean quoted;

        void clear() {
            state = ABSENT;
            text = null;
        }

        /** A number token, converted now. */
        void number(CharSequence digits) {
            try {
                nanos = Numbers.microsToNanos(digits);
                state = NUMBER;
            } catch (Numbers.NotANumber bad) {
                state = UNREADABLE_NUMBER; // 1e400: the row's reason is "unreadable"
            }
        }

        /** Any other value: its text (null, for JSON null: the field is absent), and whether it was a string. */
        void text(String value, boolean isString) {
            text = value;
            quoted = isString;
            state = value == null ? ABSENT : TEXT;
        }

        boolean present() {
            return state != ABSENT;
        }

        /** The time in nanoseconds; NotANumber when it has none (the first pass learns nothing from the entry). */
        long nanos() throws Numbers.NotANumber {
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
        Long nanosOrDrop(String field, DropCounter drops) {
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
}
