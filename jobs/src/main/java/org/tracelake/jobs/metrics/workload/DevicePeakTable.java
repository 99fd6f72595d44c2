package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Per device model: peak FLOPS (conf/device_peak_flops.csv), GPU-to-GPU link bandwidth per direction in bytes/s
 * (conf/device_interconnect_bw.csv) and memory in bytes (conf/device_memory.csv); in each, the first pattern, by
 * priority, the model matches.
 */
public record DevicePeakTable(List<Entry> entries, List<Entry> interconnect, List<Entry> memory)
        implements Serializable {
    /** A pattern and its value: FLOPS in the peak table, bytes/s in the interconnect one, bytes in the memory one. */
    public record Entry(String pattern, double value) implements Serializable {}

    /** Peak FLOPS only: no device has a known interconnect bound or memory size. */
    public DevicePeakTable(List<Entry> entries) {
        this(entries, List.of(), List.of());
    }

    /** Peak FLOPS and interconnect bounds: no device has a known memory size. */
    public DevicePeakTable(List<Entry> entries, List<Entry> interconnect) {
        this(entries, interconnect, List.of());
    }

    /** The device's memory in bytes; null when no pattern matches the model (or it names no single size). */
    public Double memoryBytesFor(String model) {
        return lookup(memory, model);
    }

    /** The peak of a device model, matched case-insensitively anywhere in the name; null when none matches. */
    public Double peakFor(String model) {
        return lookup(entries, model);
    }

    /** The device's interconnect bandwidth per direction, bytes/s; null when no pattern matches the model. */
    public Double interconnectBpsFor(String model) {
        return lookup(interconnect, model);
    }

    private static Double lookup(List<Entry> table, String model) {
        if (model == null) return null;
        for (Entry e : table) {
            if (Pattern.compile("(?i)" + e.pattern()).matcher(model).find()) return e.value();
        }
        return null;
    }
}
