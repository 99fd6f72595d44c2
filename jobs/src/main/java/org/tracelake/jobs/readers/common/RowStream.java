package org.tracelake.jobs.readers.common;

import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.ReadErrors;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;

/**
 * The plumbing every format's stream shares: one row of look-ahead, the count of rows read, the end of the file
 * (what the reader learns last, then its resources released exactly once), and error capture — whatever a reader
 * throws while streaming becomes the file's {@code error} with a sentence from {@link ReadErrors}, and the rows
 * already produced stay. A format only says how to produce its next row ({@link #advance}) and what it holds open
 * ({@link #release}).
 */
public abstract class RowStream implements EventStream {
    protected final FileTask task;
    protected final FileReport report;
    private InternalRow next;
    private boolean ended;
    private boolean released;

    protected RowStream(FileTask task, FileReport report) {
        this.task = task;
        this.report = report;
    }

    /**
     * The file's next row, or null when it has no more. Events that cannot be kept are counted in
     * {@code report.drops} with their reason and skipped here, not returned.
     */
    protected abstract InternalRow advance() throws Exception;

    /** Called once when the file was read to its end without error: trailing metadata, the content hash. */
    protected void finish() throws Exception {}

    /** Closes what the stream holds open (parser, input stream, database connection); called exactly once. */
    protected void release() throws IOException {}

    @Override
    public final FileReport report() {
        return report;
    }

    @Override
    public final boolean hasNext() {
        if (next != null) return true;
        if (ended) return false;
        try {
            next = advance();
            if (next == null) {
                finish();
                end();
            }
        } catch (Exception | StackOverflowError e) {
            next = null;
            report.fail(e);
            end();
        }
        return next != null;
    }

    @Override
    public final InternalRow next() {
        if (!hasNext()) throw new NoSuchElementException();
        InternalRow row = next;
        next = null;
        report.eventsRead++;
        return row;
    }

    /**
     * The file's next rows as a block of columns, for a stream that makes them so ({@link BlockRowStream}); null
     * after the last, with the report complete, exactly as {@link #hasNext} ends. A consumer reads either rows or
     * blocks of one stream, not both.
     */
    public final ColumnBlock nextBlock() {
        if (ended) return null;
        try {
            ColumnBlock block = advanceBlock();
            if (block != null && block.size() > 0) {
                report.eventsRead += block.size();
                return block;
            }
            finish();
            end();
        } catch (Exception | StackOverflowError e) {
            report.fail(e);
            end();
        }
        return null;
    }

    /** The next block of rows, or null (or an empty block) at the end: for streams that make blocks. */
    protected ColumnBlock advanceBlock() throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " makes rows, not blocks");
    }

    /** True once the file ended, well or not; the report is then complete. */
    public final boolean ended() {
        return ended;
    }

    @Override
    public final void close() {
        if (released) return;
        released = true;
        try {
            release();
        } catch (IOException | RuntimeException ignored) {
            // the report already says what matters; a failed close loses nothing that was read
        }
    }

    private void end() {
        ended = true;
        close();
        report.flagDroppedEvents();
    }
}
