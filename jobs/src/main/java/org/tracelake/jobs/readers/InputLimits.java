package org.tracelake.jobs.readers;

import java.io.Serializable;
import org.tracelake.jobs.spark.Settings;

/**
 * Limits that protect a reader from hostile or broken input. A gzip stream may expand to at most
 * {@code max(minExpandedBytes, maxExpansionRatio x compressed size)} bytes: real traces compress 10-30x,
 * a gzip bomb a thousandfold.
 */
public record InputLimits(double maxExpansionRatio, long minExpandedBytes) implements Serializable {
    /** The limits when no setting is given ({@link Settings}). */
    public static InputLimits defaults() {
        return new InputLimits(
                Settings.GZIP_MAX_EXPANSION_RATIO.parse().apply(Settings.GZIP_MAX_EXPANSION_RATIO.defaultValue()),
                Settings.GZIP_MIN_EXPANDED_BYTES.parse().apply(Settings.GZIP_MIN_EXPANDED_BYTES.defaultValue()));
    }

    /** The limits a session's settings give ({@code --conf spark.tracelake.gzip.*}), defaults otherwise. */
    public static InputLimits from(Settings settings) {
        return new InputLimits(
                settings.get(Settings.GZIP_MAX_EXPANSION_RATIO), settings.get(Settings.GZIP_MIN_EXPANDED_BYTES));
    }

    public long maxExpandedBytes(long compressedBytes) {
        double byRatio = maxExpansionRatio * (double) compressedBytes;
        return (long) Math.max((double) minExpandedBytes, Math.min(byRatio, (double) Long.MAX_VALUE / 2));
    }
}
