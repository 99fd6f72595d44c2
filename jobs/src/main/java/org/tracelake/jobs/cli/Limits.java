package org.tracelake.jobs.cli;

import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.spark.Settings;

/** Input limits from the Spark configuration ({@code --conf spark.tracelake.gzip.*}, see {@link Settings}), defaults otherwise. */
final class Limits {
    private Limits() {}

    static InputLimits from(SparkSession spark) {
        return Settings.of(spark).inputLimits();
    }
}
