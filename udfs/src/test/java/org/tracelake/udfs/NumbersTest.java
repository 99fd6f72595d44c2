package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * The one number reader, on the spellings real files use (FORMATS.md, where each is noted): each row is the value as
 * a file writes it and what it must read as.
 */
class NumbersTest {
    private record Case(Object written, Long whole, String whereFrom) {}

    private static final Case[] WHOLE = {
        new Case("12", 12L, "Kineto args: \"External id\": 12 read as text"),
        new Case(" 8 ", 8L, "rocprof handles written as padded strings"),
        new Case("25136", 25136L, "Kineto \"In msg nelems\":25136 (FORMATS.md §1)"),
        new Case("2.0", 2L, "XLA args written as %.17g floats"),
        new Case("1e3", 1000L, "exponent form of a whole number"),
        new Case("-1", -1L, "ET seq_id -1 (Chakra)"),
        new Case("9223372036854775807", Long.MAX_VALUE, "XSpace integers > 2^53 are quoted strings (§6)"),
        new Case("9223372036854775808", null, "beyond a long"),
        new Case("12.5", null, "a fraction is not a count"),
        new Case("NaN", null, "XLA NaN as a string (§6)"),
        new Case("inf", null, "XLA infinity as a string (§6)"),
        new Case("abc", null, "text"),
        new Case("", null, "empty arg"),
        new Case(null, null, "absent"),
        new Case(7, 7L, "pickle BININT1"),
        new Case(new BigInteger("140737488355328"), 140737488355328L, "pickle LONG1 address (§8)"),
        new Case(new BigInteger("36893488147419103232"), null, "pickle LONG1 beyond a long"),
        new Case(3.0, 3L, "pickle BINFLOAT of a whole number"),
        new Case(3.5, null, "pickle BINFLOAT fraction"),
        new Case(Double.NaN, null, "AORTA loss NaN (§4)"),
        new Case(new BigDecimal("16.000"), 16L, "Spark decimal literal in SQL"),
    };

    @Test
    void wholeNumbers() {
        for (Case c : WHOLE)
            assertEquals(c.whole(), Numbers.wholeNumber(c.written()), c.whereFrom() + ": " + c.written());
    }

    @Test
    void intsMustFit() {
        assertEquals(8, Numbers.wholeInt("8"));
        assertEquals(null, Numbers.wholeInt("4294967296"));
    }

    @Test
    void decimals() {
        assertEquals(2.5, Numbers.decimal("2.5"));
        assertTrue(Numbers.decimal(Double.NaN).isNaN(), "AORTA keeps a NaN loss as NaN");
        assertEquals(null, Numbers.decimal("abc"));
    }

    @Test
    void nonFiniteSpellings() {
        for (String s : new String[] {"NaN", "Infinity", "-Infinity", "inf", "-inf"})
            assertTrue(Numbers.isNonFinite(s), s);
        assertFalse(Numbers.isNonFinite("12.5"));
    }

    @Test
    void microsecondsToNanosecondsExactly() throws Exception {
        // Kineto with baseTimeNanoseconds writes "{us}.{ns:03}" (FORMATS.md §1): every nanosecond is kept
        assertEquals(4458676522690655L, Numbers.microsToNanos("4458676522690.655"));
        assertEquals(1_700_000_000_000_000_001L, Numbers.microsToNanos("1700000000000000.001"), "epoch µs, 16 digits");
        assertEquals(1500L, Numbers.microsToNanos("1.4995"), "half-up at the 4th decimal");
        assertEquals(-2000L, Numbers.microsToNanos("-2"));
        assertEquals(1000000L, Numbers.microsToNanos("1e3"));
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos("abc"));
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos(""));
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos("1e400"));
    }

    /**
     * Exponents of any size (found by fuzzing: "ts":0.001e10000000 took 16 s to round through a ten-million-digit
     * power of ten). The magnitude decides before any rounding; the values here are worked out by hand.
     */
    @Test
    void hugeAndTinyExponents() throws Exception {
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos("0.001e10000000"));
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos("-1e10000000"));
        assertThrows(Numbers.NotANumber.class, () -> Numbers.microsToNanos("9.3e15"), "9.3e18 ns is past a long");
        assertEquals(9_200_000_000_000_000_000L, Numbers.microsToNanos("9.2e15"), "19 digits, inside a long");
        assertEquals(0L, Numbers.microsToNanos("1e-10000000"));
        assertEquals(0L, Numbers.microsToNanos("-1e-10000000"));
        assertEquals(0L, Numbers.microsToNanos("0e10000000"), "zero with any exponent is zero");
        assertEquals(0L, Numbers.microsToNanos("4.9e-4"), "0.49 ns rounds down");
        assertEquals(1L, Numbers.microsToNanos("5e-4"), "0.5 ns rounds half up");
        assertEquals(1L, Numbers.microsToNanos("0.95e-3"), "0.95 ns");
        assertEquals(12L, Numbers.microsToNanos("1.2e-2"));
    }
}
