package org.tracelake.jobs.warehouse;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.jobs.warehouse.columnar.ColumnarParquetWriter;

/**
 * One Parquet file of a table written a block of rows at a time, column by column ({@link ColumnarParquetWriter}):
 * the same file {@link RowFile} writes of the same rows with the same settings, for a reader that holds its rows in
 * columns ({@link ColumnBlock}) and so never makes a row object. Staged and committed as {@link RowFile} is ({@link
 * StagedOutput}); closed without a commit, the file is dropped.
 */
public final class BlockFile implements AutoCloseable {
    private final StagedOutput staged;
    private final ColumnarParquetWriter writer;
    private boolean closed;
    private long rows;

    /**
     * Opens {@code file}'s stand-in in {@code asideDir} for blocks of {@code schema}; {@code skipped} (a partition
     * column) is not written.
     */
    public BlockFile(
            Path file, Path asideDir, StructType schema, String skipped, RowFile.Settings settings, Configuration conf)
            throws IOException {
        this.staged = new StagedOutput(file, asideDir, conf);
        RowWriteSupport layout = new RowWriteSupport(schema, skipped);
        this.writer = new ColumnarParquetWriter(
                staged.output(),
                layout.fileSchema(),
                layout.footer(),
                schema,
                settings.codec(),
                settings.withoutDictionary(),
                settings.withoutStatistics(),
                conf);
    }

    public void write(ColumnBlock block) throws IOException {
        writer.write(block);
        rows += block.size();
    }

    public long rows() {
        return rows;
    }

    /** Finishes the file and puts it in place; an earlier attempt's file already there is kept (same rows). */
    public void commit() throws IOException {
        closed = true;
        staged.commit(writer::finish);
    }

    /** Without a commit: the stand-in is dropped. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        staged.drop(writer::close);
    }
}
