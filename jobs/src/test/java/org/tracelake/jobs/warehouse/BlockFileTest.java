package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.jobs.warehouse.columnar.StringMapColumn;
import org.tracelake.jobs.warehouse.columnar.Utf8Strings;
import org.tracelake.schemas.EventSchema;

/**
 * The column-wise writer ({@link BlockFile}) against the row writer ({@link RowFile}) on the same rows of the events
 * table: Spark reads both files back to the same rows, in order, and each column chunk's statistics (min, max, nulls)
 * and value count are the same; with parquet-java's settings, then with tiny pages, a tiny dictionary limit and
 * tiny row groups, so that page cuts, the dictionary's fall-back to PLAIN and several row groups are all exercised.
 */
class BlockFileTest {
    @TempDir
    Path tmp;

    private static final StructType SCHEMA = EventSchema.SCHEMA;

    /** Strings by id: a few repeated ones, many distinct ones, one that is not ASCII; negative ids for "loose" ones. */
    private static final class Strings implements Utf8Strings {
        final List<String> byId = new ArrayList<>();
        final List<String> loose = new ArrayList<>();

        int id(String s) {
            int i = byId.indexOf(s);
            if (i >= 0) return i;
            byId.add(s);
            return byId.size() - 1;
        }

        int looseId(String s) {
            loose.add(s);
            return -1 - loose.size();
        }

        @Override
        public byte[] utf8(int id) {
            return text(id).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String text(int id) {
            return id == NULL ? null : id >= 0 ? byId.get(id) : loose.get(-2 - id);
        }
    }

    /** Blocks of pseudo-random events rows (a fixed seed): every column kind, nulls, repeats, long-tail values. */
    private static List<ColumnBlock> blocks(int rows, int perBlock) {
        Random r = new Random(43);
        Strings strings = new Strings();
        int workload = strings.id("w");
        int file = strings.id("/archive/w/rank0_trace.json.gz");
        int format = strings.id("kineto");
        String[] names = {"ncclKernel_AllReduce_RING_LL", "void gemm<float>", "aten::mm", "ProfilerStep#1", "ünïcode ✓"
        };
        List<ColumnBlock> out = new ArrayList<>();
        ColumnBlock b = null;
        for (int i = 0; i < rows; i++) {
            if (b == null || b.isFull()) {
                b = new ColumnBlock(SCHEMA, strings, perBlock);
                out.add(b);
            }
            int row = b.newRow();
            b.strings(EventSchema.index(EventSchema.WORKLOAD)).set(row, workload);
            b.strings(EventSchema.index(EventSchema.SOURCE_FILE)).set(row, file);
            b.strings(EventSchema.index(EventSchema.FORMAT)).set(row, format);
            b.longs(EventSchema.index(EventSchema.ORDINAL)).set(row, i);
            if (r.nextInt(10) > 0) b.longs(EventSchema.index(EventSchema.RANK)).set(row, r.nextInt(4));
            b.strings(EventSchema.index(EventSchema.NAME))
                    .set(
                            row,
                            r.nextInt(50) == 0
                                    ? strings.looseId("unique-" + i)
                                    : strings.id(names[r.nextInt(names.length)]));
            if (r.nextBoolean())
                b.strings(EventSchema.index(EventSchema.PH)).set(row, strings.id(r.nextBoolean() ? "X" : "i"));
            if (r.nextInt(3) == 0)
                b.strings(EventSchema.index(EventSchema.TID)).set(row, strings.id("t" + r.nextInt(2000)));
            b.longs(EventSchema.index(EventSchema.TS_NS)).set(row, 1_700_000_000_000_000_000L + r.nextInt(1 << 30));
            if (r.nextInt(4) > 0) b.longs(EventSchema.index(EventSchema.DUR_NS)).set(row, r.nextInt(100_000) - 5);
            if (r.nextInt(5) == 0) b.longs(EventSchema.index(EventSchema.STEP)).set(row, r.nextInt(3));
            if (r.nextInt(7) == 0)
                b.longs(EventSchema.index(EventSchema.IN_BYTES)).set(row, (long) r.nextInt(1 << 20) << 10);
            if (r.nextInt(7) == 0)
                b.longs(EventSchema.index(EventSchema.DEVICE)).set(row, r.nextInt(8) - 1);
            if (r.nextInt(11) == 0)
                b.strings(EventSchema.index(EventSchema.ACTIVITY_CLASS)).set(row, strings.id("comm"));
            StringMapColumn args = b.map(EventSchema.index(EventSchema.ARGS));
            int n = r.nextInt(5) == 0 ? 0 : r.nextInt(6);
            for (int a = 0; a < n; a++) {
                int key = strings.id("key" + a);
                switch (r.nextInt(4)) {
                    case 0 -> args.add(key, strings.id("v" + r.nextInt(30)));
                    case 1 -> args.addLong(key, r.nextLong() >> r.nextInt(63));
                    case 2 -> args.add(key, Utf8Strings.NULL);
                    default -> args.add(key, strings.id("value " + r.nextInt(5000) + " " + "x".repeat(r.nextInt(40))));
                }
            }
            args.endRow(row);
        }
        return out;
    }

    private Path[] writeBoth(List<ColumnBlock> blocks, Configuration conf, String name) throws IOException {
        RowFile.Settings settings = RowFile.Settings.forEvents(CompressionCodecName.ZSTD);
        Path columns = tmp.resolve(name + "-columns.parquet");
        Path rows = tmp.resolve(name + "-rows.parquet");
        try (BlockFile f = new BlockFile(hadoop(columns), hadoop(tmp), SCHEMA, EventSchema.WORKLOAD, settings, conf)) {
            for (ColumnBlock b : blocks) f.write(b);
            f.commit();
        }
        try (RowFile f = new RowFile(hadoop(rows), hadoop(tmp), SCHEMA, EventSchema.WORKLOAD, settings, conf)) {
            for (ColumnBlock b : blocks) for (int i = 0; i < b.size(); i++) f.write(b.row(i));
            f.commit();
        }
        return new Path[] {columns, rows};
    }

    private static org.apache.hadoop.fs.Path hadoop(Path p) {
        return new org.apache.hadoop.fs.Path(p.toUri());
    }

    private void assertSameFiles(Path[] files, int expectedRows) throws IOException {
        SparkSession spark = SharedSpark.get();
        List<Row> columns = spark.read().parquet(files[0].toString()).collectAsList();
        List<Row> rows = spark.read().parquet(files[1].toString()).collectAsList();
        assertEquals(expectedRows, columns.size());
        assertEquals(rows.size(), columns.size());
        for (int i = 0; i < rows.size(); i++) assertEquals(rows.get(i), columns.get(i), "row " + i);

        ParquetMetadata a = footer(files[0]);
        ParquetMetadata b = footer(files[1]);
        assertEquals(b.getFileMetaData().getSchema(), a.getFileMetaData().getSchema());
        assertEquals(
                b.getFileMetaData().getKeyValueMetaData(), a.getFileMetaData().getKeyValueMetaData());
        assertEquals(chunkFigures(b), chunkFigures(a), "per column: values, nulls, min, max over the file");
    }

    private static ParquetMetadata footer(Path p) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(hadoop(p), new Configuration()))) {
            return r.getFooter();
        }
    }

    /** Each column's value count, null count, min and max over all row groups (row groups may be cut elsewhere). */
    private static List<String> chunkFigures(ParquetMetadata m) {
        List<String> out = new ArrayList<>();
        int columns = m.getBlocks().get(0).getColumns().size();
        for (int c = 0; c < columns; c++) {
            long values = 0;
            org.apache.parquet.column.statistics.Statistics<?> merged = null;
            String path = null;
            for (BlockMetaData block : m.getBlocks()) {
                ColumnChunkMetaData chunk = block.getColumns().get(c);
                path = chunk.getPath().toDotString();
                values += chunk.getValueCount();
                if (merged == null) merged = chunk.getStatistics().copy();
                else merged.mergeStatistics(chunk.getStatistics());
            }
            out.add(path + " values=" + values + " " + merged);
        }
        return out;
    }

    private static Set<Encoding> encodings(Path p, String column) throws IOException {
        Set<Encoding> out = new TreeSet<>();
        for (BlockMetaData block : footer(p).getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (chunk.getPath().toDotString().equals(column)) out.addAll(chunk.getEncodings());
            }
        }
        return out;
    }

    @Test
    void theSameFileAsTheRowWriterWithIngestsSettings() throws IOException {
        List<ColumnBlock> blocks = blocks(50_000, 16_384);
        Path[] files = writeBoth(blocks, new Configuration(), "default");
        assertSameFiles(files, 50_000);
        assertEquals(1, footer(files[0]).getBlocks().size());
        // a repeated string by its dictionary; a near-unique number PLAIN, as ingest's settings ask
        assertTrue(encodings(files[0], EventSchema.NAME).contains(Encoding.PLAIN_DICTIONARY));
        assertFalse(encodings(files[0], EventSchema.TS_NS).contains(Encoding.PLAIN_DICTIONARY));
        assertTrue(encodings(files[0], "args.key_value.key").contains(Encoding.PLAIN_DICTIONARY));
    }

    @Test
    void smallPagesAFallingBackDictionaryAndManyRowGroups() throws IOException {
        Configuration conf = new Configuration();
        conf.setInt("parquet.page.size", 4096);
        conf.setInt("parquet.dictionary.page.size", 2048);
        conf.setLong("parquet.block.size", 64 * 1024);
        List<ColumnBlock> blocks = blocks(30_000, 1000);
        Path[] files = writeBoth(blocks, conf, "small");
        assertSameFiles(files, 30_000);
        assertTrue(footer(files[0]).getBlocks().size() > 1, "several row groups");
        // the long-tail args values outgrow 2 KiB of dictionary: dictionary pages first, PLAIN after
        Set<Encoding> values = encodings(files[0], "args.key_value.value");
        assertTrue(values.contains(Encoding.PLAIN_DICTIONARY) && values.contains(Encoding.PLAIN), values.toString());
    }

    @Test
    void aNullInARequiredColumnIsRefusedAndNothingIsLeft() throws IOException {
        List<ColumnBlock> blocks = blocks(10, 16);
        blocks.get(0).strings(EventSchema.index(EventSchema.SOURCE_FILE)).set(3, Utf8Strings.NULL);
        Path target = tmp.resolve("refused.parquet");
        Path aside = Files.createDirectories(tmp.resolve("aside"));
        try (BlockFile f = new BlockFile(
                hadoop(target),
                hadoop(aside),
                SCHEMA,
                EventSchema.WORKLOAD,
                RowFile.Settings.forEvents(CompressionCodecName.ZSTD),
                new Configuration())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.write(blocks.get(0)));
            assertTrue(e.getMessage().contains("source_file"), e.getMessage());
        }
        assertFalse(Files.exists(target));
        try (Stream<Path> left = Files.list(aside)) {
            assertEquals(List.of(), left.toList(), "the stand-in is dropped");
        }
    }
}
