package org.tracelake.jobs.readers.xla;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Device planes of the XLA profiler: {@code /device:TPU:3}, {@code /device:GPU:0}, with or without a host prefix
 * ({@code "myhost /device:TPU:0"} in newer JSON exports, FORMATS.md §6).
 */
public final class DeviceNames {
    private DeviceNames() {}

    private static final Pattern DEVICE = Pattern.compile("/device:(TPU|GPU):(\\d{1,9})(?!\\d)");

    /** The device index a plane or process name carries, or null for host and custom planes. */
    public static Integer index(String planeName) {
        if (planeName == null) return null;
        Matcher m = DEVICE.matcher(planeName);
        return m.find() ? Integer.valueOf(m.group(2)) : null;
    }
}
