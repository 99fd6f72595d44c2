package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.List;
import java.util.regex.Pattern;

/** Peak FLOPS per device model (conf/device_peak_flops.csv): the first pattern, by priority, the model matches. */
public record DevicePeakTable(List<Entry> entries) implements Serializable {
    public record Entry(String pattern, double peakFlops) implements Serializable {}

    /** The peak of a device model, matched case-insensitively anywhere in the name; null when none matches. */
    public Double peakFor(String model) {
        if (model == null) return null;
        for (Entry e : entries) {
            if (Pattern.compile("(?i)" + e.pattern()).matcher(model).find()) return e.peakFlops();
        }
        return null;
    }
}
