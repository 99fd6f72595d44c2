package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.spark.NoForkLocalFileSystem;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The commit phase's work without Spark jobs: a table is created with its name mapping in one metadata write, the
 * footers of a run's files are read on the driver with the same statistics a Spark job reads, a few rows the driver
 * made are appended and read back by Spark's Iceberg source, and the local file system without chmod processes gives
 * files and folders the permissions Hadoop's own gives them.
 */
class CommitWithoutSparkTest {
    @Test
    void aNewTableHasItsNameMappingFromItsFirstMetadata(@TempDir Path root) {
        WarehouseCatalog catalog = new WarehouseCatalog(root.toString(), new Configuration());
        Table t = catalog.table(Tables.RUNS);
        assertEquals(
                NameMappingParser.toJson(MappingUtil.create(t.schema())),
                t.properties().get(TableProperties.DEFAULT_NAME_MAPPING));
        // one metadata file: the mapping went in with the table, not in a second commit
        assertTrue(Files.exists(root.resolve("runs/metadata/v1.metadata.json")));
        assertTrue(Files.notExists(root.resolve("runs/metadata/v2.metadata.json")));
    }

    @Test
    void footersReadOnTheDriverAreThoseASparkJobReads(@TempDir Path root) throws Exception {
        SparkSession spark = SharedSpark.get();
        Warehouse warehouse =
                new Warehouse(root.toString(), spark.sparkContext().hadoopConfiguration());
        String run = "20260101T000000Z-0001";
        PartitionFiles out = PartitionFiles.forRun(warehouse, run);
        List<StagedFiles.File> files = new ArrayList<>();
        for (String w : List.of("a", "b", "c")) {
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 3; i++) rows.add(RowFactory.create(run, w, "new file", "f" + i));
            org.apache.hadoop.fs.Path p = out.write(Tables.WORKLOAD_CHANGES, w, rows);
            files.add(new StagedFiles.File(
                    Tables.WORKLOAD_CHANGES,
                    w,
                    p.toString(),
                    warehouse.fs().getFileStatus(p).getLen()));
        }
        Map<String, List<DataFile>> driver =
                StagedFiles.dataFiles(spark, warehouse.conf(), warehouse.catalog(), files, files.size());
        Map<String, List<DataFile>> job = StagedFiles.dataFiles(spark, warehouse.conf(), warehouse.catalog(), files, 0);
        assertEquals(describe(job), describe(driver));
        assertEquals(3, driver.get(Tables.WORKLOAD_CHANGES).size());
    }

    private static List<String> describe(Map<String, List<DataFile>> files) {
        List<String> out = new ArrayList<>();
        for (List<DataFile> l : files.values())
            for (DataFile f : l)
                out.add(f.location() + " " + f.recordCount() + " " + f.fileSizeInBytes() + " "
                        + new TreeMap<>(f.columnSizes()) + " " + new TreeMap<>(f.valueCounts()) + " "
                        + new TreeMap<>(f.nullValueCounts()) + " " + bytes(f.lowerBounds()) + " "
                        + bytes(f.upperBounds()));
        return out;
    }

    /** Bounds by column id, each as the bytes it holds. */
    private static Map<Integer, String> bytes(Map<Integer, ByteBuffer> bounds) {
        Map<Integer, String> out = new TreeMap<>();
        for (Map.Entry<Integer, ByteBuffer> e : bounds.entrySet()) {
            ByteBuffer b = e.getValue().duplicate();
            byte[] a = new byte[b.remaining()];
            b.get(a);
            out.put(e.getKey(), HexFormat.of().formatHex(a));
        }
        return out;
    }

    @Test
    void rowsTheDriverAppendsReadBackThroughSpark(@TempDir Path root) throws Exception {
        SparkSession spark = SharedSpark.get();
        WarehouseTables tables = new WarehouseTables(
                spark, new Warehouse(root.toString(), spark.sparkContext().hadoopConfiguration()));
        String run = "20260101T000000Z-0002";
        Timestamp t = Timestamp.valueOf("2026-01-01 00:00:00");
        Row row = RowFactory.create(
                run,
                t,
                t,
                "ok",
                "/archive",
                false,
                1L,
                0L,
                0L,
                0L,
                2L,
                0L,
                100L,
                10L,
                CollectionConverters.asScala(List.of("w/x: bad")).toSeq(),
                CollectionConverters.asScala(Map.of("events", 42L)));
        tables.appendSmall(Tables.RUNS, List.of(row), run, Map.of(WarehouseCatalog.ARCHIVE, "/archive"));
        Table runs = tables.warehouse().catalog().loadOrNull(Tables.RUNS);
        assertTrue(WarehouseCatalog.committedBy(runs, run));
        assertEquals("/archive", runs.currentSnapshot().summary().get(WarehouseCatalog.ARCHIVE));
        List<Row> back = tables.live(Tables.RUNS).collectAsList();
        assertEquals(1, back.size());
        Row r = back.get(0);
        assertEquals(run, r.getString(0));
        assertEquals(t, r.getTimestamp(1));
        assertEquals(List.of("w/x: bad"), r.getList(r.fieldIndex("errors")));
        assertEquals(Map.of("events", 42L), r.getJavaMap(r.fieldIndex("table_snapshots")));

        // a replay of the same run writes its file again, and the rows stay one
        tables.appendSmall(
                Tables.WORKLOAD_CHANGES, List.of(RowFactory.create(run, "w", "new workload", null)), run, Map.of());
        assertEquals(1L, tables.live(Tables.WORKLOAD_CHANGES).count());
    }

    @Test
    void theLocalFileSystemWithoutChmodGivesHadoopsPermissions(@TempDir Path root) throws Exception {
        Configuration plain = new Configuration();
        plain.setBoolean("fs.file.impl.disable.cache", true);
        Configuration noFork = new Configuration(plain);
        noFork.set(NoForkLocalFileSystem.KEY, NoForkLocalFileSystem.class.getName());
        FileSystem hadoops = FileSystem.get(root.toUri(), plain);
        FileSystem ours = FileSystem.get(root.toUri(), noFork);
        assertTrue(ours instanceof NoForkLocalFileSystem && ours instanceof LocalFileSystem);
        for (String mode : Arrays.asList(null, "750", "600", "777")) {
            for (FileSystem fs : List.of(hadoops, ours)) {
                String name = (fs == ours ? "ours-" : "hadoops-") + mode;
                org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(root.toString(), name);
                if (mode == null) fs.mkdirs(dir);
                else fs.mkdirs(dir, new FsPermission(mode));
                try (FSDataOutputStream o = fs.create(new org.apache.hadoop.fs.Path(dir, "f"))) {
                    o.write(1);
                }
                if (mode != null) fs.setPermission(new org.apache.hadoop.fs.Path(dir, "f"), new FsPermission(mode));
            }
            for (String f : List.of("", "/f", "/.f.crc")) {
                assertEquals(
                        modeOf(root.resolve("hadoops-" + mode + f)),
                        modeOf(root.resolve("ours-" + mode + f)),
                        mode + f);
            }
        }
    }

    private static String modeOf(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
