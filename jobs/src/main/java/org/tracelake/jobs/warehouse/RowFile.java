package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.tracelake.schemas.EventSchema;

/**
 * One Parquet file of a table, written row by row from an executor or the driver without a Spark job: the rows
 * (Spark's internal form) go straight to parquet-hadoop's writer ({@link RowWriteSupport}); the file is staged until
 * its {@link #commit} ({@link StagedOutput}: nothing half-written is ever seen, a retried task leaves one whole file).
 * Closed without a commit, the file is dropped.
 */
public final class RowFile implements AutoCloseable {
    /**
     * How the file is encoded: its codec; the columns written without a dictionary (values nearly all distinct,
     * where a dictionary costs a hash per value and saves nothing); the columns written without min/max statistics
     * (strings no query prunes by: every value is compared byte by byte with the current min and max, which for the
     * events table's strings was a fifth of the write). Row-group and page sizes are the Hadoop configuration's
     * ({@code parquet.block.size}, {@code parquet.page.size}), as for Spark's own writes.
     */
    public record Settings(CompressionCodecName codec, List<String> withoutDictionary, List<String> withoutStatistics)
            implements Serializable {
        public static Settings of(CompressionCodecName codec) {
            return new Settings(codec, List.of(), List.of());
        }

        /**
         * The events table's: the columns whose values are nearly all distinct gain nothing from a dictionary, and
         * min/max statistics of its strings (names, paths, args) prune nothing ({@link EventSchema#UNPRUNED_COLUMNS}).
         */
        public static Settings forEvents(CompressionCodecName codec) {
            return new Settings(codec, EventSchema.NEAR_UNIQUE_COLUMNS, EventSchema.UNPRUNED_COLUMNS);
        }

        /** The codec as Spark's {@code spark.sql.parquet.compression.codec} names it ({@code zstd}, {@code snappy}). */
        public static CompressionCodecName codecNamed(String sparkName) {
            return sparkName == null || sparkName.equalsIgnoreCase("none")
                    ? CompressionCodecName.UNCOMPRESSED
                    : CompressionCodecName.fromConf(sparkName.toUpperCase(Locale.ROOT));
        }
    }

    private final StagedOutput staged;
    private final ParquetWriter<InternalRow> writer;
    private boolean closed;
    private long rows;

    /** Opens {@code file}'s stand-in, beside it, for rows of {@code schema} ({@code skipped}: a column not written). */
    public RowFile(Path file, StructType schema, String skipped, Settings settings, Configuration conf)
            throws IOException {
        this(file, file.getParent(), schema, skipped, settings, conf);
    }

    /**
     * Opens {@code file}'s stand-in in {@code asideDir}, a folder of the same file system that nothing reads as a
     * table: what a task killed mid-write leaves there is dropped with it, never swapped in with the partition.
     */
    public RowFile(Path file, Path asideDir, StructType schema, String skipped, Settings settings, Configuration conf)
            throws IOException {
        this.staged = new StagedOutput(file, asideDir, conf);
        Builder b = new Builder(staged.output(), new RowWriteSupport(schema, skipped))
                .withConf(conf)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withCompressionCodec(settings.codec())
                .withRowGroupSize(conf.getLong(ParquetOutputFormat.BLOCK_SIZE, ParquetWriter.DEFAULT_BLOCK_SIZE))
                .withPageSize(conf.getInt(ParquetOutputFormat.PAGE_SIZE, ParquetWriter.DEFAULT_PAGE_SIZE))
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0) // what Spark writes
                // Parquet 1.15's size statistics (unencoded bytes, level histograms per page): nothing that reads the
                // warehouse uses them, and they cost ~10 % of the events write
                .withSizeStatisticsEnabled(false);
        for (String c : settings.withoutDictionary()) b = b.withDictionaryEncoding(c, false);
        for (String c : settings.withoutStatistics()) b = b.withStatisticsEnabled(c, false);
        this.writer = b.build();
    }

    public void write(InternalRow row) throws IOException {
        writer.write(row);
        rows++;
    }

    public long rows() {
        return rows;
    }

    /** Finishes the file and puts it in place; an earlier attempt's file already there is kept (same rows). */
    public void commit() throws IOException {
        closed = true;
        staged.commit(writer::close);
    }

    /** Without a commit: the stand-in is dropped. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        staged.drop(writer::close);
    }

    private static final class Builder extends ParquetWriter.Builder<InternalRow, Builder> {
        private final RowWriteSupport support;

        Builder(OutputFile file, RowWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<InternalRow> getWriteSupport(Configuration configuration) {
            return support;
        }
    }
}
