package org.tracelake.jobs.readers.xla;

/** XLA profiles count in picoseconds; the events table in nanoseconds, rounded half up. */
public final class Picoseconds {
    private Picoseconds() {}

    public static long toNanos(long ps) {
        return Math.floorDiv(ps + 500, 1000);
    }

    /** Whether rounding to nanoseconds loses something, so the exact picoseconds are worth keeping in args. */
    public static boolean hasSubNanos(long ps) {
        return ps % 1000 != 0;
    }
}
