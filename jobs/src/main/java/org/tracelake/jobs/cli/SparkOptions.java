package org.tracelake.jobs.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.spark.SparkSessions;
import picocli.CommandLine.Option;

/** Options every Spark job takes. */
public final class SparkOptions {
    @Option(names = "--master", description = "Spark master URL (default: local[*], or what spark-submit set).")
    String master;

    @Option(names = "--conf", paramLabel = "KEY=VALUE", description = "Spark or tracelake configuration; repeatable.")
    Map<String, String> conf = new LinkedHashMap<>();

    public SparkSession session(String appName) {
        conf(appName); // every setting checked before Spark starts
        return SparkSessions.create(appName, master, conf);
    }

    /**
     * The job's configuration before its session starts (a writer takes the warehouse lock first), every
     * {@code spark.tracelake.*} setting checked: a bad value is a usage error before anything is read.
     */
    SparkConf conf(String appName) {
        SparkConf sparkConf = SparkSessions.conf(appName, master, conf);
        Settings.of(sparkConf).validate();
        return sparkConf;
    }

    SparkSession session(SparkConf sparkConf) {
        return SparkSessions.create(sparkConf);
    }

    public Map<String, String> conf() {
        return conf;
    }
}
