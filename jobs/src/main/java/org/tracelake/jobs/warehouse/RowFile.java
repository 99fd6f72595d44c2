package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.tracelake.schemas.EventSchema;

/**
 * One Parquet file of a table, written row by row from an executor or the driver without a Spark job: the rows
 * (Spark's internal form) go straight to parquet-hadoop's writer ({@link RowWriteSupport}), into a file of a name of
 * its own (beside the target, or in a folder of unfinished files), which {@link #commit} renames into place. Until
 * then nothing is visible to a reader of the folder (the name starts with a dot), and a task that fails or is run twice (a retry, a speculative copy) leaves
 * one whole file, never a half or a second one: every attempt writes the same rows to the same target name, and the
 * first to commit wins. Closed without a commit, the file is deleted.
 *
 * <p>On an object store (S3A: a file system whose output streams can be aborted, {@link
 * CommonPathCapabilities#ABORTABLE_STREAM}) the file is written under its own name at once: an object appears whole
 * when its upload completes and not before, so nothing half-written is ever seen, and a rename there would be a copy of
 * the whole file. A file closed without a commit is aborted (its upload discarded), never completed; a second attempt
 * replaces the first's object with the same rows.
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

    private final Path target;
    /** Where the file is written until its commit: beside the target, or the target itself on an object store. */
    private final Path aside;

    private final FileSystem fs;
    /** The object store's stream, written in place (null elsewhere): aborted rather than closed without a commit. */
    private final InPlace inPlace;

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
        this.target = file;
        this.fs = file.getFileSystem(conf);
        OutputFile out;
        if (fs.hasPathCapability(file, CommonPathCapabilities.ABORTABLE_STREAM)) {
            this.aside = file;
            this.inPlace = new InPlace(fs, file);
            out = inPlace;
        } else {
            this.aside = new Path(asideDir, "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
            this.inPlace = null;
            LocalDisk.mkdirs(fs, file.getParent());
            out = LocalDisk.output(fs, aside, conf);
        }
        Builder b = new Builder(out, new RowWriteSupport(schema, skipped))
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
        if (inPlace != null) {
            try {
                writer.close(); // the upload completes: the object appears whole
            } catch (IOException | RuntimeException e) {
                inPlace.abort();
                throw e;
            }
            return;
        }
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            LocalDisk.delete(fs, aside);
            throw e;
        }
        if (!LocalDisk.moveUnlessThere(fs, aside, target))
            throw new IOException("could not move " + aside + " to " + target);
    }

    /** Without a commit: the stand-in is dropped. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        if (inPlace != null) {
            inPlace.abort(); // not writer.close(), which would complete the upload of a partial file
            return;
        }
        try {
            writer.close();
        } finally {
            LocalDisk.delete(fs, aside);
        }
    }

    /** The target file of an object store, written in place; its stream is kept so that it can be aborted. */
    private static final class InPlace implements OutputFile {
        private final FileSystem fs;
        private final Path path;
        private FSDataOutputStream stream;

        InPlace(FileSystem fs, Path path) {
            this.fs = fs;
            this.path = path;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            return createOrOverwrite(blockSizeHint);
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            stream = fs.create(path, true);
            return HadoopStreams.wrap(stream);
        }

        @Override
        public boolean supportsBlockSize() {
            return false;
        }

        @Override
        public long defaultBlockSize() {
            return 0;
        }

        @Override
        public String getPath() {
            return path.toString();
        }

        void abort() {
            if (stream != null) stream.abort();
        }
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
