package org.tracelake.jobs.rank;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The strings of one file's events, each distinct value held once: a rank's kernel, op and category names repeat
 * hundreds of thousands of times, and the per-rank pass at ingest keeps a file's events until it has them all.
 */
public final class StringTable {
    private final Map<UTF8String, String> strings = new HashMap<>();

    /** The string at {@code ordinal} of {@code row}, or null. */
    String get(InternalRow row, int ordinal) {
        return row.isNullAt(ordinal) ? null : get(row.getUTF8String(ordinal));
    }

    String get(UTF8String value) {
        String s = strings.get(value);
        if (s == null) {
            s = value.toString();
            strings.put(value.clone(), s); // the row's bytes may be a buffer the reader reuses
        }
        return s;
    }
}
