package org.tracelake.jobs.spark;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.tracelake.udfs.UdfRegistry;

/**
 * The one place a SparkSession is made. Under spark-submit the master and configuration come from Spark
 * (--master, --conf, spark-defaults.conf); run by bin/tracelake, the project's conf/spark-defaults.conf is read
 * and the master defaults to local[*]. Explicit --conf values win over both.
 */
public final class SparkSessions {
    private SparkSessions() {}

    public static SparkSession create(String appName, String master, Map<String, String> overrides) {
        return create(conf(appName, master, overrides));
    }

    public static SparkSession create(SparkConf conf) {
        SparkSession spark = SparkSession.builder().config(conf).getOrCreate();
        UdfRegistry.registerAll(spark);
        return spark;
    }

    /** The configuration a session of this job gets, before any session exists. */
    public static SparkConf conf(String appName, String master, Map<String, String> overrides) {
        SparkConf conf = new SparkConf(true); // picks up spark.* system properties set by spark-submit
        String home = System.getProperty("tracelake.home");
        if (home != null && !conf.contains("spark.master")) {
            loadDefaults(conf, Path.of(home, "conf", "spark-defaults.conf"));
        }
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        // tracelake's SQL (report queries, cookbook) treats a division by zero as NULL — a metric that cannot be
        // computed is a null with a reason, never an exception — which is Spark's behaviour without ANSI mode.
        conf.setIfMissing("spark.sql.ansi.enabled", "false");
        // Settings the tables' meaning depends on, so they hold under a bare spark-submit too (which reads the
        // cluster's spark-defaults.conf, not the project's): timestamps are written and shown in UTC, and
        // Hive-style partition values stay strings (a workload named "0042" must not be read back as the int 42).
        conf.setIfMissing("spark.sql.session.timeZone", "UTC");
        conf.setIfMissing("spark.sql.sources.partitionColumnTypeInference.enabled", "false");
        // A read that names more than 32 folders (a refresh reads one partition folder per workload) lists them in a
        // Spark job of its own: four more jobs for every refresh of more than 32 workloads. Listed on the driver,
        // the number of a refresh's jobs stays the same whatever the number of workloads (up to this many folders).
        conf.setIfMissing("spark.sql.sources.parallelPartitionDiscovery.threshold", "4096");
        overrides.forEach(conf::set);
        // the local disk's files and folders get their permissions without a chmod process each
        conf.setIfMissing("spark.hadoop." + NoForkLocalFileSystem.KEY, NoForkLocalFileSystem.class.getName());
        conf.setIfMissing("spark.app.name", appName);
        return conf;
    }

    /**
     * The Hadoop configuration a session of {@code conf} would give its file systems: Hadoop's defaults and site files
     * plus every {@code spark.hadoop.*} key, for the file work done before Spark starts (the warehouse lock).
     */
    public static Configuration hadoopConf(SparkConf conf) {
        Configuration hadoop = new Configuration();
        for (scala.Tuple2<String, String> kv : conf.getAll()) {
            if (kv._1().startsWith("spark.hadoop.")) hadoop.set(kv._1().substring("spark.hadoop.".length()), kv._2());
        }
        return hadoop;
    }

    private static void loadDefaults(SparkConf conf, Path file) {
        if (!Files.isRegularFile(file)) return;
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(r); // spark-defaults.conf is whitespace-separated "key value", which Properties accepts
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (String key : props.stringPropertyNames())
            conf.setIfMissing(key, props.getProperty(key).trim());
    }
}
