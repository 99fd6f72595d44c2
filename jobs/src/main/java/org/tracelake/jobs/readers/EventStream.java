package org.tracelake.jobs.readers;

import java.io.Closeable;
import java.util.Iterator;
import org.apache.spark.sql.Row;

/**
 * Rows of one file, produced one at a time while the file streams by. {@link #report()} is complete once the
 * iterator is exhausted; a reader that hits a fatal problem throws from {@code hasNext}/{@code next}.
 */
public interface EventStream extends Iterator<Row>, Closeable {
    FileReport report();
}
