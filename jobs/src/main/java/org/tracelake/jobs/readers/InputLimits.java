package org.tracelake.jobs.readers;

import java.io.Serializable;

/**
 * Limits that protect a reader from hostile or broken input. A gzip stream may expand to at most
 * {@code max(minExpandedBytes, maxExpansionRatio x compressed size)} bytes: real traces compress 10-30x,
 * a gzip bomb a thousandfold.
 */
public record InputLimits(double maxExpansionRatio, long minExpandedBytes) implements Serializable {
    public static final String CONF_RATIO = "spark.tracelake.gzip.maxExpansionRatio";
    public static final String CONF_MIN_BYTES = "spark.tracelake.gzip.minExpandedBytes";

    public static InputLimits defaults() {
        return new InputLimits(200.0, 256L << 20);
    }

    public long maxExpandedBytes(long compressedBytes) {
        double byRatio = maxExpansionRatio * (double) compressedBytes;
        return (long) Math.max(minExpandedBytes, Math.min(byRatio, (double) Long.MAX_VALUE / 2));
    }
}
