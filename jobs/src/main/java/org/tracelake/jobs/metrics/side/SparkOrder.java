package org.tracelake.jobs.metrics.side;

import java.util.Comparator;
import java.util.List;

/**
 * Spark SQL's orderings ({@code array_sort}, {@code ORDER BY}, {@code min}), for the side families' sorts, so a row
 * they pick is the one a query of the table picks:
 * strings by code point (UTF-8 byte order; Java's {@code compareTo} orders UTF-16 units, which differs above U+FFFF),
 * and nulls first where an ascending sort or a minimum meets them.
 */
final class SparkOrder {
    private SparkOrder() {}

    /** Strings as Spark compares them: by Unicode code point. */
    static final Comparator<String> STRING = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    };

    static final Comparator<String> STRING_NULLS_FIRST = Comparator.nullsFirst(STRING);
    static final Comparator<Integer> INT_NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());
    static final Comparator<Long> LONG_NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());

    /** {@code array_sort} of strings: ascending, nulls last. */
    static List<String> sortedStrings(List<String> values) {
        return values.stream().sorted(Comparator.nullsLast(STRING)).toList();
    }
}
