package org.tracelake.jobs.warehouse.columnar;

import java.nio.charset.StandardCharsets;

/** The decimal text of a whole number as UTF-8 bytes: how a number kept as a long is written into a string column. */
final class Digits {
    private Digits() {}

    static byte[] of(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }
}
