package org.tracelake.jobs.testing;

import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.spark.SparkSessions;

/** One local SparkSession for every test class in the JVM: starting Spark costs seconds, a query milliseconds. */
public final class SharedSpark {
    private static SparkSession spark;

    private SharedSpark() {}

    public static synchronized SparkSession get() {
        if (spark == null) {
            // local[2,2]: two cores, and a failed task is tried once more, as on a cluster (SourceReportsOnceTest
            // relies on it)
            spark = SparkSessions.create(
                    "tracelake tests",
                    "local[2,2]",
                    Map.of(
                            "spark.ui.enabled", "false",
                            "spark.sql.shuffle.partitions", "4",
                            "spark.sql.session.timeZone", "UTC",
                            "spark.sql.sources.partitionColumnTypeInference.enabled", "false"));
        }
        return spark;
    }
}
