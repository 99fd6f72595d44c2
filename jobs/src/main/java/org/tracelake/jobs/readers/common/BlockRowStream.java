package org.tracelake.jobs.readers.common;

import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;

/**
 * A stream whose reader makes its rows a block of columns at a time ({@link #fill}): ingest writes the blocks as they
 * are ({@link #nextBlock}, column by column), and whatever reads rows (a Spark scan, tests) gets them out of the
 * same blocks one at a time, so both see the same values from one piece of code. A reader that fails part way through
 * a block keeps the rows it had made: they come first, then the failure, as from a row-at-a-time reader.
 */
public abstract class BlockRowStream extends RowStream {
    private final ColumnBlock block;
    private int served;
    /** A failure met while the block was being filled, after some of its rows: raised once they are out. */
    private Exception pending;

    protected BlockRowStream(FileTask task, FileReport report, ColumnBlock block) {
        super(task, report);
        this.block = block;
    }

    /**
     * Adds the file's next rows to the (cleared) block, as many as it takes (until it {@link ColumnBlock#isFull}) or
     * to the end of the file; adds none at the end.
     */
    protected abstract void fill(ColumnBlock block) throws Exception;

    @Override
    protected final InternalRow advance() throws Exception {
        if (served == block.size() && !refill()) return null;
        return block.row(served++);
    }

    @Override
    protected final ColumnBlock advanceBlock() throws Exception {
        refill();
        served = block.size();
        return block;
    }

    private boolean refill() throws Exception {
        if (pending != null) {
            Exception e = pending;
            pending = null;
            throw e;
        }
        block.clear();
        served = 0;
        try {
            fill(block);
        } catch (Exception e) {
            if (block.size() == 0) throw e;
            pending = e;
        }
        return block.size() > 0;
    }
}
