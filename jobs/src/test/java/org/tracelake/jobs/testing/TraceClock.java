package org.tracelake.jobs.testing;

/**
 * Times of hand-written traces: T0 is 2023-11-14T22:13:20Z in ns (Kineto without a base writes epoch
 * microseconds), and tests name events in µs or ms after it.
 */
public final class TraceClock {
    public static final long T0 = 1_700_000_000_000_000_000L;

    private TraceClock() {}

    /** Absolute ns of a time in µs after T0. */
    public static long t(long us) {
        return T0 + us(us);
    }

    /** ns of a duration in µs. */
    public static long us(long us) {
        return us * 1_000L;
    }

    /** ns of a duration in ms. */
    public static long ms(long ms) {
        return ms * 1_000_000L;
    }
}
