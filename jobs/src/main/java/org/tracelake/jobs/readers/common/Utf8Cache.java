package org.tracelake.jobs.readers.common;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * UTF-8 forms of strings a reader writes into row after row (a trace names a few thousand distinct kernels, ops and
 * categories across millions of events), each encoded once. Bounded: a file of ever-new values (ids in names) empties
 * it and starts again, so it never holds more than {@link #MAX_ENTRIES}.
 */
final class Utf8Cache {
    static final int MAX_ENTRIES = 16_384;
    private final Map<String, UTF8String> encoded = new HashMap<>();

    UTF8String utf8(String s) {
        if (s == null) return null;
        UTF8String u = encoded.get(s);
        if (u == null) {
            if (encoded.size() >= MAX_ENTRIES) encoded.clear();
            u = UTF8String.fromString(s);
            encoded.put(s, u);
        }
        return u;
    }
}
