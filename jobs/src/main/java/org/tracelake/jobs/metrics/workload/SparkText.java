package org.tracelake.jobs.metrics.workload;

/** A double as Spark SQL's {@code CAST(double AS STRING)} writes it, for reasons that quote a value. */
final class SparkText {
    private SparkText() {}

    static String of(double v) {
        return Double.toString(v);
    }
}
