package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.schemas.TableCatalog;

/**
 * The warehouse's own Parquet writer ({@link RowFile}, {@link RowWriteSupport}) writes what Spark reads back as it was
 * written: every column type of the catalog, nulls, empty and nested arrays, maps with null values, timestamps to the
 * microsecond, the partition column left out; and a Spark read that infers the schema from the files (as the
 * warehouse's SQL views do) finds the catalog's types.
 */
class RowFileTest {
    @TempDir
    Path tmp;

    private static final StructType EVERY_TYPE = new StructType()
            .add("workload", DataTypes.StringType, false)
            .add("s", DataTypes.StringType, true)
            .add("i", DataTypes.IntegerType, true)
            .add("l", DataTypes.LongType, false)
            .add("d", DataTypes.DoubleType, true)
            .add("b", DataTypes.BooleanType, true)
            .add("bin", DataTypes.BinaryType, true)
            .add("t", DataTypes.TimestampType, true)
            .add("strings", DataTypes.createArrayType(DataTypes.StringType, true), true)
            .add("sizes", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.LongType, true), true), true)
            .add("args", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType, true), true)
            .add("ms", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType, true), true);

    @Test
    void sparkReadsBackEveryTypeAsWritten() throws IOException {
        SparkSession spark = SharedSpark.get();
        Map<String, String> args = new LinkedHashMap<>();
        args.put("Collective name", "allreduce");
        args.put("no value", null);
        Map<String, Double> ms = new LinkedHashMap<>();
        ms.put("stream 7", 1.5);
        List<Row> rows = List.of(
                RowFactory.create(
                        "w",
                        "héllo ✓",
                        -7,
                        Long.MAX_VALUE,
                        0.1,
                        true,
                        new byte[] {0, 1, -1},
                        Timestamp.valueOf("2026-11-27 14:05:06.123456"),
                        scalaSeq("a", null, ""),
                        scalaSeq(scalaSeq(1L, 2L), scalaSeq(), null, scalaSeq((Long) null)),
                        scala(args),
                        scala(ms)),
                RowFactory.create(
                        "w", null, null, 0L, null, null, null, null, scalaSeq(), scalaSeq(), scala(Map.of()), null),
                RowFactory.create("w", "", 0, -1L, Double.NaN, false, new byte[0], null, null, null, null, null));
        Path file = tmp.resolve("t/part-1.parquet");
        PartitionFiles.writeFile(
                new org.apache.hadoop.fs.Path(file.toUri()), EVERY_TYPE, "workload", rows, new Configuration());

        List<Row> back = spark.read()
                .schema(dropFirst(EVERY_TYPE))
                .parquet(file.toString())
                .collectAsList();
        assertEquals(rows.size(), back.size());
        for (int r = 0; r < rows.size(); r++) {
            Row want = rows.get(r);
            Row got = back.get(r);
            for (int c = 1; c < EVERY_TYPE.size(); c++) {
                Object w = want.get(c);
                Object g = got.get(c - 1);
                String where = "row " + r + " column " + EVERY_TYPE.fields()[c].name();
                if (w instanceof byte[] wb) assertTrue(Arrays.equals(wb, (byte[]) g), where);
                else assertEquals(w, g, where);
            }
        }
        // what the views see: a read that takes its schema from the file finds the catalog's types
        assertEquals(
                dropFirst(EVERY_TYPE).asNullable(),
                spark.read().parquet(file.toString()).schema().asNullable());
    }

    @Test
    void everyCatalogTableSchemaIsWritable() throws IOException {
        for (TableCatalog.Table t : TableCatalog.TABLES) {
            Path file = tmp.resolve(t.name() + "/part.parquet");
            PartitionFiles.writeFile(
                    new org.apache.hadoop.fs.Path(file.toUri()),
                    t.schema(),
                    "workload",
                    List.of(),
                    new Configuration());
            assertTrue(Files.isRegularFile(file), t.name());
        }
        assertEquals(
                FlightRecorderSchema.ENTRIES.size() - 1,
                SharedSpark.get()
                        .read()
                        .parquet(tmp.resolve("flight_recorder").toString())
                        .schema()
                        .size());
    }

    @Test
    void aFileIsInvisibleUntilCommittedAndGoneWhenAbandoned() throws IOException {
        Path dir = tmp.resolve("p");
        org.apache.hadoop.fs.Path target =
                new org.apache.hadoop.fs.Path(dir.resolve("part-x.parquet").toUri());
        StructType schema =
                new StructType().add("workload", DataTypes.StringType).add("n", DataTypes.LongType);
        try (RowFile f = new RowFile(
                target, schema, "workload", RowFile.Settings.of(CompressionCodecName.ZSTD), new Configuration())) {
            f.write(org.apache.spark.sql.catalyst.InternalRow.fromSeq(
                    scalaSeq(org.apache.spark.unsafe.types.UTF8String.fromString("w"), 3L)));
            assertEquals(List.of(), visible(dir), "nothing visible before the commit");
        }
        assertEquals(List.of(), listed(dir), "an abandoned file leaves nothing behind");

        try (RowFile f = new RowFile(
                target, schema, "workload", RowFile.Settings.of(CompressionCodecName.ZSTD), new Configuration())) {
            f.write(org.apache.spark.sql.catalyst.InternalRow.fromSeq(
                    scalaSeq(org.apache.spark.unsafe.types.UTF8String.fromString("w"), 3L)));
            f.commit();
        }
        assertEquals(List.of("part-x.parquet"), visible(dir));

        // written in a folder of unfinished files (ingest's), it is renamed from there; an abandoned one is dropped
        Path unfinished = tmp.resolve("unfinished");
        org.apache.hadoop.fs.Path other =
                new org.apache.hadoop.fs.Path(dir.resolve("part-y.parquet").toUri());
        try (RowFile f = new RowFile(
                other,
                new org.apache.hadoop.fs.Path(unfinished.toUri()),
                schema,
                "workload",
                RowFile.Settings.of(CompressionCodecName.ZSTD),
                new Configuration())) {
            f.write(org.apache.spark.sql.catalyst.InternalRow.fromSeq(
                    scalaSeq(org.apache.spark.unsafe.types.UTF8String.fromString("w"), 4L)));
            assertEquals(1, listed(unfinished).size(), "written aside");
        }
        assertEquals(List.of(), listed(unfinished));
        assertEquals(List.of("part-x.parquet"), visible(dir));
        assertEquals(
                3L, SharedSpark.get().read().parquet(dir.toString()).first().getLong(0));
        assertThrows(
                IllegalArgumentException.class,
                () -> new RowWriteSupport(new StructType().add("v", DataTypes.createStructType(List.of())), null));
    }

    private static List<String> visible(Path dir) throws IOException {
        return listed(dir).stream().filter(n -> !n.startsWith(".")).toList();
    }

    private static List<String> listed(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.endsWith(".crc"))
                    .sorted()
                    .toList();
        }
    }

    private static StructType dropFirst(StructType s) {
        return new StructType(Arrays.copyOfRange(s.fields(), 1, s.size()));
    }

    @SafeVarargs
    private static <T> scala.collection.immutable.Seq<T> scalaSeq(T... values) {
        return scala.jdk.javaapi.CollectionConverters.asScala(new ArrayList<>(Arrays.asList(values)))
                .toList();
    }

    private static <K, V> scala.collection.Map<K, V> scala(Map<K, V> m) {
        return scala.jdk.javaapi.CollectionConverters.asScala(m);
    }
}
