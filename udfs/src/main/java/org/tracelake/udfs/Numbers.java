package org.tracelake.udfs;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The one reading of numbers found in traces and in SQL arguments, used by every reader and udf. Traces write the
 * same quantity as a JSON integer, a float ({@code 12.0}), a string ({@code "12"}), in exponent form
 * ({@code 1.2e3}) or not at all; pickles hand over Integer, Long, BigInteger or Double. A whole number is read from
 * any of these, exactly (never through a double when digits would be lost); anything else — a fraction, text,
 * NaN, infinity, a value beyond a long — is "no value" (null), and the caller decides whether that is a drop.
 */
public final class Numbers {
    private Numbers() {}

    /** Thrown by {@link #microsToNanos} for text that is not a finite decimal number. */
    public static final class NotANumber extends Exception {
        public NotANumber(String message) {
            super(message, null, false, false);
        }
    }

    /** A whole number written as text, or null. */
    public static Long wholeNumber(String text) {
        if (text == null) return null;
        String t = text.strip();
        if (t.isEmpty()) return null;
        if (isPlainInteger(t) && t.length() <= 18) return Long.parseLong(t); // fast path: no exception, no BigDecimal
        try {
            BigDecimal d = new BigDecimal(t);
            if (d.signum() == 0) return 0L;
            if (d.stripTrailingZeros().scale() > 0) return null; // a fraction
            return d.longValueExact();
        } catch (NumberFormatException | ArithmeticException notWhole) {
            return null;
        }
    }

    /** A whole number held by any value a reader or udf is handed (a Number, a BigInteger, text), or null. */
    public static Long wholeNumber(Object value) {
        if (value == null) return null;
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger b) return b.bitLength() < 64 ? b.longValue() : null;
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p63 ? (long) d : null;
        }
        if (value instanceof BigDecimal b) return wholeNumber(b.toPlainString());
        return wholeNumber(value.toString());
    }

    /** An int-sized whole number, or null (also when it does not fit an int). */
    public static Integer wholeInt(Object value) {
        Long l = wholeNumber(value);
        return l == null || l < Integer.MIN_VALUE || l > Integer.MAX_VALUE ? null : l.intValue();
    }

    /** A number as a double (NaN kept, as losses are written), from a Number or numeric text; null otherwise. */
    public static Double decimal(Object value) {
        if (value == null) return null;
        if (value instanceof Number n) return n.doubleValue();
        try {
            return Double.parseDouble(value.toString().strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** True for the spellings of NaN and infinity that trace writers use ({@code NaN}, {@code Infinity}, {@code inf}). */
    public static boolean isNonFinite(String text) {
        String t = text.strip();
        return t.equals("NaN") || t.equals("nan") || t.endsWith("Infinity") || t.endsWith("inf");
    }

    /**
     * Exact conversion of a decimal microsecond count, as written in a trace ({@code 4458676522690.655}), to integer
     * nanoseconds with half-up rounding. Parsing through a double would lose the last nanosecond of such values.
     * Any character sequence: a reader can hand the bytes of its input through a view, without a String per value.
     */
    public static long microsToNanos(CharSequence text) throws NotANumber {
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
            if (++digits > 15) return microsToNanosExact(text);
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
            if (c == 'e' || c == 'E') return microsToNanosExact(text);
            throw new NotANumber("'" + text + "' is not a number");
        }
        if (digits == 0 && fracDigits == 0) throw new NotANumber("'" + text + "' is not a number");
        for (int k = fracDigits; k < 3; k++) frac *= 10;
        long nanos = whole * 1000 + frac + (roundUp ? 1 : 0);
        return negative ? -nanos : nanos;
    }

    /**
     * The exponent form, exactly. Its magnitude is judged before any rounding: movePointRight or setScale on
     * {@code 1e10000000} builds a power of ten with ten million digits (seconds of work for a tiny input), and no
     * value beyond 19 integer digits fits the long it must end in anyway. scaleByPowerOfTen only
     * moves the scale.
     */
    private static long microsToNanosExact(CharSequence text) throws NotANumber {
        try {
            BigDecimal nanos = new BigDecimal(text.toString()).scaleByPowerOfTen(3);
            if (nanos.signum() == 0) return 0L;
            long integerDigits = (long) nanos.precision() - nanos.scale();
            if (integerDigits > 19) throw new ArithmeticException("beyond a long");
            if (integerDigits < 0) return 0L; // below 0.1 ns: rounds to zero
            return nanos.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new NotANumber("'" + text + "' is not a finite number of microseconds");
        }
    }

    private static boolean isPlainInteger(String t) {
        int start = t.charAt(0) == '-' || t.charAt(0) == '+' ? 1 : 0;
        if (start == t.length()) return false;
        for (int i = start; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }
}
