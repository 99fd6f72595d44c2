package org.tracelake.jobs.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.RuntimeConfig;
import org.apache.spark.sql.SparkSession;

/**
 * Runs some work with a few Spark SQL settings changed, then puts the session's own values back (or unsets them), so
 * that a setting the metrics phase needs does not leak into the rest of a refresh or into a caller's session. The
 * settings are also the thread's local properties meanwhile: the metrics phase runs its plan as an RDD action, not a
 * SQL execution, and SQL settings reach the tasks (an interpreted projection there, say) only as local properties.
 */
final class SessionSettings {
    private SessionSettings() {}

    static <T> T with(SparkSession spark, Map<String, String> settings, Supplier<T> work) {
        RuntimeConfig conf = spark.conf();
        SparkContext context = spark.sparkContext();
        Map<String, String> before = new LinkedHashMap<>();
        Map<String, String> localBefore = new LinkedHashMap<>();
        for (String key : settings.keySet()) {
            before.put(key, conf.getOption(key).isDefined() ? conf.get(key) : null);
            localBefore.put(key, context.getLocalProperty(key));
        }
        settings.forEach(conf::set);
        settings.forEach(context::setLocalProperty);
        try {
            return work.get();
        } finally {
            before.forEach((key, value) -> {
                if (value == null) conf.unset(key);
                else conf.set(key, value);
            });
            localBefore.forEach(context::setLocalProperty); // null removes it
        }
    }
}
