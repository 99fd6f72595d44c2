package org.tracelake.jobs.readers;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Exact conversion of a decimal microsecond count, as written in a trace ("4458676522690.655"), to integer
 * nanoseconds with half-up rounding. Parsing through a double would lose the last nanosecond of such values.
 */
public final class MicrosText {
    private MicrosText() {}

    /** Thrown for text that is not a finite decimal number. */
    public static final class NotANumber extends Exception {
        public NotANumber(String message) {
            super(message, null, false, false);
        }
    }

    public static long toNanos(String text) throws NotANumber {
        int n = text.length();
        if (n == 0) throw new NotANumber("empty");
        int i = 0;
        boolean negative = false;
        if (text.charAt(0) == '-' || text.charAt(0) == '+') {
            negative = text.charAt(0) == '-';
            i = 1;
        }
        long whole = 0;
        int digits = 0;
        for (; i < n; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') break;
            if (++digits > 15) return slowPath(text);
            whole = whole * 10 + (c - '0');
        }
        long frac = 0;
        int fracDigits = 0;
        boolean roundUp = false;
        if (i < n && text.charAt(i) == '.') {
            i++;
            for (; i < n; i++) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') break;
                if (fracDigits < 3) {
                    frac = frac * 10 + (c - '0');
                } else if (fracDigits == 3) {
                    roundUp = c >= '5';
                }
                fracDigits++;
            }
        }
        if (i < n) {
            char c = text.charAt(i);
            if (c == 'e' || c == 'E') return slowPath(text);
            throw new NotANumber("'" + text + "' is not a number");
        }
        if (digits == 0 && fracDigits == 0) throw new NotANumber("'" + text + "' is not a number");
        for (int k = fracDigits; k < 3; k++) frac *= 10;
        long nanos = whole * 1000 + frac + (roundUp ? 1 : 0);
        return negative ? -nanos : nanos;
    }

    private static long slowPath(String text) throws NotANumber {
        try {
            return new BigDecimal(text).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new NotANumber("'" + text + "' is not a finite number of microseconds");
        }
    }
}
