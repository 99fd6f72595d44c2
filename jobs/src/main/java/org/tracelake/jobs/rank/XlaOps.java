package org.tracelake.jobs.rank;

import java.util.Set;

/**
 * XLA device ops (METRICS.md §4 "TPU / XLA"): GPU activity that the XLA trace JSON and XSpace readers put on a
 * device, timed by {@code device_duration_ps} when present, else the op's own duration.
 */
public final class XlaOps {
    private XlaOps() {}

    public static final Set<String> FORMATS = Set.of("xla_trace_json", "xplane_pb");

    public static boolean isXlaFormat(RankEvent e) {
        return e.format != null && FORMATS.contains(e.format);
    }

    public static boolean isXlaOp(RankEvent e) {
        return isXlaFormat(e) && e.device != null && e.activityClass != null && e.ts != null;
    }

    /** T in s: device_duration_ps when ≥ 0, else duration_ps (XSpace), else the event's duration. */
    public static double seconds(RankEvent e) {
        Double deviceDuration = SparkCasts.toDouble(e.argDeviceDurationPs);
        if (deviceDuration != null && deviceDuration >= 0) return deviceDuration / 1e12;
        Double duration = SparkCasts.toDouble(e.argDurationPs);
        if (duration != null) return duration / 1e12;
        return e.dur / 1e9;
    }
}
