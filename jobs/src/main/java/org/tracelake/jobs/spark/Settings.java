package org.tracelake.jobs.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * tracelake's own settings, the {@code spark.tracelake.*} keys given with {@code --conf} or in
 * {@code spark-defaults.conf}: each key once, with its default, its meaning and its check. A value that does not
 * parse or is out of range fails the run with a message that names the key and says what it takes.
 */
public final class Settings {
    /** One setting: key, default (as text), one line for people, and how its value is read and checked. */
    public record Key<T>(String name, String defaultValue, String doc, Function<String, T> parse) {}

    /** A lock older than 100 years is never stale by age (and a Duration of more hours would overflow). */
    static final long MAX_LOCK_STALE_AFTER_HOURS = 876_000;

    public static final Key<Double> GZIP_MAX_EXPANSION_RATIO = new Key<>(
            "spark.tracelake.gzip.maxExpansionRatio",
            "200",
            "refuse gzip input that expands more than this × its size (gzip bombs) …",
            v -> positive(finite(Double.parseDouble(v))));
    public static final Key<Long> GZIP_MIN_EXPANDED_BYTES = new Key<>(
            "spark.tracelake.gzip.minExpandedBytes",
            Long.toString(256L << 20),
            "… unless it stays under this many bytes",
            v -> positive(Long.parseLong(v)));
    public static final Key<Double> REGRESSION_THRESHOLD = new Key<>(
            "spark.tracelake.regressionThreshold",
            "0.05",
            "a workload-scope metric that moved more than this fraction since the workload's previous run is reported "
                    + "in regressions",
            v -> positive(finite(Double.parseDouble(v))));
    public static final Key<Long> LOCK_STALE_AFTER_HOURS = new Key<>(
            "spark.tracelake.lockStaleAfterHours",
            "24",
            "a warehouse lock this old (or whose process is gone, same host) is taken over",
            v -> atMost(positive(Long.parseLong(v)), MAX_LOCK_STALE_AFTER_HOURS, "hours (100 years)"));
    public static final Key<String> DEVICE_PEAK_FLOPS = new Key<>(
            "spark.tracelake.devicePeakFlops",
            "",
            "peak FLOPS per device model, for mfu (default: the bundled conf/device_peak_flops.csv)",
            DevicePeakFile::check);
    public static final Key<String> DEVICE_INTERCONNECT_BW = new Key<>(
            "spark.tracelake.deviceInterconnectBw",
            "",
            "GPU-to-GPU link bandwidth per device model and direction, the bound of the Hockney fit (default: the "
                    + "bundled conf/device_interconnect_bw.csv)",
            v -> DevicePeakFile.check(v, "bw_gbps_per_direction"));
    public static final Key<String> DEVICE_MEMORY = new Key<>(
            "spark.tracelake.deviceMemory",
            "",
            "device memory per GPU model (GiB), for the memory_pressure finding (default: the bundled"
                    + " conf/device_memory.csv)",
            v -> DevicePeakFile.check(v, "memory_gib"));

    public static final Key<String> FINDINGS = new Key<>(
            "spark.tracelake.findings",
            "",
            "thresholds of the findings rules: a CSV like the bundled conf/findings.csv (default: that file)",
            Settings::regularFile);

    public static final Key<Boolean> METRICS_CODEGEN = new Key<>(
            "spark.tracelake.metrics.codegen",
            "false",
            "let Spark generate and compile Java code for the metrics phase's one job (its projections and encoders); "
                    + "the metric families are plain Java, so off saves compiling a plan that runs once",
            Settings::bool);

    public static final Key<Boolean> RANK_PASS_AT_INGEST = new Key<>(
            "spark.tracelake.metrics.rankPassAtIngest",
            "true",
            "run the per-rank metric pass over each file's events as ingest reads it; off, the metrics phase reads the "
                    + "events back and sorts them per rank (slower; the figures are the same)",
            Settings::bool);

    public static final Key<String> CATALOG = new Key<>(
            "spark.tracelake.catalog",
            "",
            "the Spark catalog (an Iceberg SparkCatalog set up by spark.sql.catalog.NAME.*) that holds the warehouse's"
                    + " tables (default: an Iceberg Hadoop catalog in the warehouse folder, nothing to install)",
            v -> {
                if (!v.isEmpty() && !v.matches("[A-Za-z_][A-Za-z0-9_]*"))
                    throw new IllegalArgumentException("takes a catalog name (letters, digits, _)");
                return v;
            });

    public static final Key<String> NAMESPACE = new Key<>(
            "spark.tracelake.namespace",
            "tracelake",
            "the namespace of the tables in the catalog spark.tracelake.catalog names",
            v -> {
                if (!v.matches("[A-Za-z_][A-Za-z0-9_]*"))
                    throw new IllegalArgumentException("takes a namespace name (letters, digits, _)");
                return v;
            });

    public static final Key<Long> MAINTENANCE_RETENTION_DAYS = new Key<>(
            "spark.tracelake.maintenance.retentionDays",
            "7",
            "maintenance expires table snapshots older than this many days (sql --as-of reaches back as far); the "
                    + "latest run's are always kept",
            v -> atMost(nonNegative(Long.parseLong(v)), 36_500, "days"));
    public static final Key<Long> MAINTENANCE_EVERY_DAYS = new Key<>(
            "spark.tracelake.maintenance.everyDays",
            "1",
            "a refresh runs maintenance (compaction, snapshot expiry, orphan files) when the last was this many days "
                    + "ago (0: every refresh)",
            v -> atMost(nonNegative(Long.parseLong(v)), 36_500, "days"));

    public static final Key<Long> SERVE_WARMUP_QUERIES = new Key<>(
            "spark.tracelake.serve.warmupQueries",
            "48",
            "serve asks itself this many queries of the kinds users ask once it listens, so that its first answers come"
                    + " as fast as a long-running serve's (0: no warm-up)",
            v -> atMost(nonNegative(Long.parseLong(v)), 10_000, "queries"));

    /** Every setting, for help and documentation. */
    public static final List<Key<?>> ALL = List.of(
            GZIP_MAX_EXPANSION_RATIO,
            GZIP_MIN_EXPANDED_BYTES,
            REGRESSION_THRESHOLD,
            LOCK_STALE_AFTER_HOURS,
            DEVICE_PEAK_FLOPS,
            DEVICE_INTERCONNECT_BW,
            DEVICE_MEMORY,
            FINDINGS,
            METRICS_CODEGEN,
            RANK_PASS_AT_INGEST,
            CATALOG,
            NAMESPACE,
            MAINTENANCE_RETENTION_DAYS,
            MAINTENANCE_EVERY_DAYS,
            SERVE_WARMUP_QUERIES);

    /** A setting given a value it does not take: a usage error (exit 2), named by its key. */
    public static final class InvalidValueException extends IllegalArgumentException {
        InvalidValueException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Checks every setting this configuration gives, before the command reads anything: a bad value ends the command
     * with a usage error naming the key, not after an ingest (or, for regressionThreshold, after tables changed).
     */
    public void validate() {
        for (String key : given) {
            if (key.startsWith(PREFIX) && ALL.stream().noneMatch(k -> k.name().equals(key))) {
                throw new InvalidValueException(
                        "--conf " + key + ": no such tracelake setting (a typo?); the settings are "
                                + String.join(", ", ALL.stream().map(Key::name).toList()),
                        null);
            }
        }
        for (Key<?> key : ALL) get(key);
    }

    /** The prefix of every tracelake setting: a key under it that is none of {@link #ALL} is a typo. */
    static final String PREFIX = "spark.tracelake.";

    /** The configuration's value of a key, or the given default. */
    private final BinaryOperator<String> lookup;
    /** The keys the configuration sets (empty when not known: a running session's settings are checked already). */
    private final List<String> given;

    private Settings(BinaryOperator<String> lookup, List<String> given) {
        this.lookup = lookup;
        this.given = given;
    }

    public static Settings of(SparkSession spark) {
        return new Settings(spark.conf()::get, List.of());
    }

    /** The settings of a configuration no session runs yet (a command takes the warehouse lock before Spark starts). */
    public static Settings of(SparkConf conf) {
        List<String> keys = new ArrayList<>();
        for (scala.Tuple2<String, String> kv : conf.getAll()) keys.add(kv._1());
        return new Settings(conf::get, keys);
    }

    /** The value of a setting in this session (its default when unset). */
    public <T> T get(Key<T> key) {
        String text = lookup.apply(key.name(), key.defaultValue()).strip();
        try {
            return key.parse().apply(text);
        } catch (RuntimeException e) {
            throw new InvalidValueException(
                    "--conf " + key.name() + "=" + text + ": not a valid value ("
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + "); "
                            + key.doc()
                            + "; default " + key.defaultValue(),
                    e);
        }
    }

    private static Boolean bool(String v) {
        if (v.equalsIgnoreCase("true")) return true;
        if (v.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException("takes true or false");
    }

    private static double finite(double d) {
        if (Double.isInfinite(d)) throw new IllegalArgumentException("must be a finite number");
        return d;
    }

    private static long atMost(long n, long max, String unit) {
        if (n > max) throw new IllegalArgumentException("must be at most " + max + " " + unit);
        return n;
    }

    private static long nonNegative(long n) {
        if (n < 0) throw new IllegalArgumentException("must be 0 or more");
        return n;
    }

    private static <N extends Number> N positive(N n) {
        if (n.doubleValue() <= 0 || Double.isNaN(n.doubleValue()))
            throw new IllegalArgumentException("must be above 0");
        return n;
    }

    /** A path that is empty (the bundled file) or names a regular file of at most 1 MiB (never a FIFO). */
    static String regularFile(String path) {
        if (path.isEmpty()) return path;
        java.nio.file.Path p = java.nio.file.Path.of(path);
        if (!java.nio.file.Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(path + " is not a regular file");
        }
        try {
            if (java.nio.file.Files.size(p) > DevicePeakFile.MAX_BYTES) {
                throw new IllegalArgumentException(path + " is larger than 1 MiB");
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read " + path);
        }
        return path;
    }
}
