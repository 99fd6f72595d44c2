package org.tracelake.jobs.readers;

import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/** Spark's Row encoder takes map columns as Scala maps. */
public final class ScalaMaps {
    private ScalaMaps() {}

    // scala.collection.Map stays qualified: Map here is java.util's, the one it converts from.
    public static <K, V> scala.collection.Map<K, V> of(Map<K, V> map) {
        return map == null ? null : CollectionConverters.asScala(map);
    }
}
