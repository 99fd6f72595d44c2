package org.tracelake.jobs.readers;

import java.io.Closeable;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * Rows of one file in Spark's internal form, produced one at a time while the file streams by. {@link #report()} is
 * complete once {@code hasNext} returned false: a problem that ends the file early is recorded there (status
 * {@code error}, a message a person can act on), never thrown. Readers extend
 * {@link org.tracelake.jobs.readers.common.RowStream}, which keeps that promise.
 */
public interface EventStream extends Iterator<InternalRow>, Closeable {
    FileReport report();
}
