package org.tracelake.jobs.readers.common;

/**
 * {@code trace_files.time_base} values for clocks that are neither epoch nor Kineto's base key (they belong next to
 * the others in {@code TraceFileSchema}; kept here until they move).
 */
public final class TimeBases {
    private TimeBases() {}

    /** rocprofv3: nanoseconds of the host's monotonic clock (about the uptime), not the epoch. */
    public static final String MONOTONIC = "monotonic";
    /** XLA profiler JSON (and XSpace without a Task Environment plane): nanoseconds since the profile started. */
    public static final String PROFILE_START = "profile_start";
}
