package org.tracelake.jobs.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.testing.SharedSpark;

/** The spark.tracelake.* settings: defaults, values given with --conf, and errors that name the key. */
class SettingsTest {
    private final SparkSession spark = SharedSpark.get();

    @Test
    void defaultsAndGivenValues() {
        Settings s = Settings.of(spark);
        assertEquals(InputLimits.defaults(), InputLimits.from(s));
        assertEquals(24L, s.get(Settings.LOCK_STALE_AFTER_HOURS));
        spark.conf().set(Settings.REGRESSION_THRESHOLD.name(), "0.2");
        try {
            assertEquals(0.2, s.get(Settings.REGRESSION_THRESHOLD));
        } finally {
            spark.conf().unset(Settings.REGRESSION_THRESHOLD.name());
        }
    }

    @Test
    void aBadValueNamesItsKey() {
        for (String bad : new String[] {"two", "0", "-3"}) {
            spark.conf().set(Settings.LOCK_STALE_AFTER_HOURS.name(), bad);
            try {
                IllegalArgumentException e = assertThrows(
                        IllegalArgumentException.class, () -> Settings.of(spark).get(Settings.LOCK_STALE_AFTER_HOURS));
                assertTrue(
                        e.getMessage()
                                .startsWith(
                                        "--conf spark.tracelake.lockStaleAfterHours=" + bad + ": not a valid value"),
                        e.getMessage());
            } finally {
                spark.conf().unset(Settings.LOCK_STALE_AFTER_HOURS.name());
            }
        }
    }

    @Test
    void serveWarmupQueriesTakesZeroToTenThousand() {
        for (String[] given :
                new String[][] {{"0", "0"}, {"10000", "10000"}, {"10001", null}, {"-1", null}, {"x", null}}) {
            spark.conf().set(Settings.SERVE_WARMUP_QUERIES.name(), given[0]);
            try {
                if (given[1] != null) {
                    assertEquals(Long.parseLong(given[1]), Settings.of(spark).get(Settings.SERVE_WARMUP_QUERIES));
                } else {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.of(spark)
                            .get(Settings.SERVE_WARMUP_QUERIES));
                    assertTrue(
                            e.getMessage()
                                    .startsWith("--conf spark.tracelake.serve.warmupQueries=" + given[0]
                                            + ": not a valid value"),
                            e.getMessage());
                }
            } finally {
                spark.conf().unset(Settings.SERVE_WARMUP_QUERIES.name());
            }
        }
    }

    @Test
    void aSwitchTakesTrueOrFalseOnly() {
        assertEquals(false, Settings.of(spark).get(Settings.METRICS_CODEGEN));
        for (String[] given : new String[][] {{"TRUE", "true"}, {" false ", "false"}, {"yes", null}, {"1", null}}) {
            spark.conf().set(Settings.METRICS_CODEGEN.name(), given[0]);
            try {
                if (given[1] != null) {
                    assertEquals(Boolean.valueOf(given[1]), Settings.of(spark).get(Settings.METRICS_CODEGEN));
                } else {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.of(spark)
                            .get(Settings.METRICS_CODEGEN));
                    assertTrue(
                            e.getMessage().contains("spark.tracelake.metrics.codegen=" + given[0].strip())
                                    && e.getMessage().contains("takes true or false"),
                            e.getMessage());
                }
            } finally {
                spark.conf().unset(Settings.METRICS_CODEGEN.name());
            }
        }
    }

    /** Issue 45 item 9: a misspelt key was accepted silently (and its setting kept its default). */
    @Test
    void aTypoedKeyIsAUsageErrorNamingTheKeysThatExist() {
        SparkConf conf = new SparkConf(false).set("spark.tracelake.regresionThreshold", "0.1");
        Settings.InvalidValueException e = assertThrows(
                Settings.InvalidValueException.class, () -> Settings.of(conf).validate());
        assertTrue(
                e.getMessage().startsWith("--conf spark.tracelake.regresionThreshold: no such tracelake setting"),
                e.getMessage());
        for (Settings.Key<?> key : Settings.ALL) assertTrue(e.getMessage().contains(key.name()), e.getMessage());
        // every key that exists passes, and keys outside tracelake's are Spark's business
        SparkConf good = new SparkConf(false)
                .set(Settings.REGRESSION_THRESHOLD.name(), "0.1")
                .set("spark.foo", "x");
        Settings.of(good).validate();
    }
}
