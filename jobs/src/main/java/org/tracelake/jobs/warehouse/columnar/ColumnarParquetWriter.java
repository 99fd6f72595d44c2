package org.tracelake.jobs.warehouse.columnar;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetOutputFormat;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.spark.sql.types.StructType;

/**
 * A Parquet file written from {@link ColumnBlock}s a column at a time, with parquet-java's file and page writers
 * ({@link ParquetFileWriter}, {@link ColumnChunkPageWriteStore}: compression, checksums, column and offset indexes,
 * the footer) and this package's own encoding of each column's pages ({@link LeafWriter}): no record is assembled and
 * taken apart again, no value is boxed, and a string column's dictionary is found by the strings' ids instead of
 * hashing each value's bytes. The file is the one parquet-java's row writer makes of the same rows with the same
 * settings, value for value (the test holds it to that).
 */
public final class ColumnarParquetWriter implements AutoCloseable {
    private final ParquetFileWriter file;
    private final MessageType schema;
    private final Map<String, String> footer;
    private final CodecFactory codecs;
    private final CodecFactory.BytesCompressor compressor;
    private final ParquetProperties properties;
    private final long rowGroupSize;
    private final List<LeafWriter> leaves = new ArrayList<>();

    private ColumnChunkPageWriteStore rowGroup;
    private long rowGroupRows;
    private boolean ended;

    /**
     * @param fileSchema the file's Parquet schema (its top-level fields name columns of the blocks' schema)
     * @param footer the key-value metadata of the footer
     * @param blocks the schema of the blocks that will be written
     */
    public ColumnarParquetWriter(
            OutputFile out,
            MessageType fileSchema,
            Map<String, String> footer,
            StructType blocks,
            CompressionCodecName codec,
            List<String> withoutDictionary,
            List<String> withoutStatistics,
            Configuration conf)
            throws IOException {
        this.schema = fileSchema;
        this.footer = footer;
        this.properties = ParquetProperties.builder()
                .withPageSize(conf.getInt(ParquetOutputFormat.PAGE_SIZE, ParquetWriter.DEFAULT_PAGE_SIZE))
                .withDictionaryPageSize(conf.getInt(
                        ParquetOutputFormat.DICTIONARY_PAGE_SIZE, ParquetProperties.DEFAULT_DICTIONARY_PAGE_SIZE))
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .withSizeStatisticsEnabled(false)
                .build();
        this.rowGroupSize = conf.getLong(ParquetOutputFormat.BLOCK_SIZE, ParquetWriter.DEFAULT_BLOCK_SIZE);
        this.codecs = new CodecFactory(conf, properties.getPageSizeThreshold());
        this.compressor = codecs.getCompressor(codec);
        LeafWriter.Settings settings = new LeafWriter.Settings(
                withoutDictionary,
                withoutStatistics,
                properties.getPageSizeThreshold(),
                properties.getDictionaryPageSizeThreshold(),
                properties.getAllocator());
        for (ColumnDescriptor c : fileSchema.getColumns()) leaves.add(leaf(c, blocks, settings));
        this.file = new ParquetFileWriter(
                out, fileSchema, ParquetFileWriter.Mode.OVERWRITE, rowGroupSize, 0, null, properties);
        file.start();
    }

    private static LeafWriter leaf(ColumnDescriptor c, StructType blocks, LeafWriter.Settings settings) {
        String[] path = c.getPath();
        int position = blocks.fieldIndex(path[0]);
        if (path.length == 3 && path[1].equals("key_value")) {
            return new BlockLeaves.MapEntries(c, settings, position, path[2].equals("key"));
        }
        if (path.length != 1) throw new IllegalArgumentException(String.join(".", path) + " is not written by blocks");
        return c.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY
                ? new BlockLeaves.Strings(c, settings, position)
                : new BlockLeaves.Numbers(c, settings, position);
    }

    /** The block's rows, after those written before; a row group ends once its pages reach the row-group size. */
    public void write(ColumnBlock block) throws IOException {
        if (block.size() == 0) return;
        if (rowGroup == null) startRowGroup();
        for (LeafWriter leaf : leaves) leaf.write(block);
        rowGroupRows += block.size();
        long buffered = 0;
        for (ColumnDescriptor c : schema.getColumns())
            buffered += rowGroup.getPageWriter(c).getMemSize();
        if (buffered >= rowGroupSize) endRowGroup();
    }

    private void startRowGroup() {
        rowGroup = new ColumnChunkPageWriteStore(
                compressor,
                schema,
                properties.getAllocator(),
                properties.getColumnIndexTruncateLength(),
                properties.getPageWriteChecksumEnabled());
        for (LeafWriter leaf : leaves) leaf.startRowGroup(rowGroup.getPageWriter(leaf.column));
    }

    private void endRowGroup() throws IOException {
        for (LeafWriter leaf : leaves) leaf.endRowGroup();
        file.startBlock(rowGroupRows);
        rowGroup.flushToFileWriter(file);
        file.endBlock();
        rowGroup.close();
        rowGroup = null;
        rowGroupRows = 0;
    }

    /** Writes the last row group and the footer: the file is whole. */
    public void finish() throws IOException {
        try {
            if (rowGroup != null) endRowGroup();
            file.end(footer);
            ended = true;
        } finally {
            release();
        }
    }

    /** Without {@link #finish}: the stream is closed as it is (the caller drops the file). */
    @Override
    public void close() throws IOException {
        if (ended) return;
        ended = true;
        try {
            file.close();
        } finally {
            release();
        }
    }

    private void release() {
        for (LeafWriter leaf : leaves) leaf.close();
        if (rowGroup != null) rowGroup.close();
        rowGroup = null;
        codecs.release();
    }
}
