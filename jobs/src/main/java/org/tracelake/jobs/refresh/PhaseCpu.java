package org.tracelake.jobs.refresh;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The process's CPU time spent in each phase of a refresh (start-up until the run begins, ingest, metrics, commit:
 * swap, exports and history), for the line a person (and bench/run) reads at the end. With local Spark the process
 * is the whole of Spark, so this is every thread's CPU, the JIT compiler's and the garbage collector's included.
 */
final class PhaseCpu {
    private final Map<String, Double> seconds = new LinkedHashMap<>();
    private double last;

    PhaseCpu() {
        last = now();
        seconds.put("start", last); // the JVM's and Spark's start, before the run began
    }

    /** Ends the current phase, naming it; returns its CPU seconds. */
    double end(String phase) {
        double t = now();
        double spent = t - last;
        seconds.merge(phase, spent, Double::sum);
        last = t;
        return spent;
    }

    /** "CPU by phase: start 8.1 s, ingest 10.0 s, metrics 2.1 s, commit 1.5 s; process 21.7 s". */
    String line() {
        StringBuilder sb = new StringBuilder("CPU by phase:");
        String sep = " ";
        for (Map.Entry<String, Double> e : seconds.entrySet()) {
            sb.append(sep).append(String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue()));
            sep = ", ";
        }
        return sb.append(String.format(Locale.ROOT, "; process %.1f s", last)).toString();
    }

    private static double now() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof OperatingSystemMXBean sun) return sun.getProcessCpuTime() / 1e9;
        return 0;
    }
}
