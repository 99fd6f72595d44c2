package org.tracelake.jobs.cli;

import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.InputLimits;

/** Input limits from the Spark configuration ({@code --conf tracelake.gzip.*}), defaults otherwise. */
final class Limits {
    private Limits() {}

    static InputLimits from(SparkSession spark) {
        InputLimits d = InputLimits.defaults();
        double ratio = Double.parseDouble(spark.conf().get(InputLimits.CONF_RATIO, Double.toString(d.maxExpansionRatio())));
        long min = Long.parseLong(spark.conf().get(InputLimits.CONF_MIN_BYTES, Long.toString(d.minExpandedBytes())));
        return new InputLimits(ratio, min);
    }
}
