package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.spark.SerializableConf;

/**
 * Compaction of small data files for every table at once, in one Spark job: each partition (a workload, or the whole
 * table when it has no partitions) with two or more small files gets one file holding their row groups, copied as
 * they are ({@link ParquetFileWriter#appendFile}: no row is decoded or re-encoded, the rows keep their order), and each
 * table then commits one Iceberg rewrite (the same rows, a {@code replace} snapshot). Iceberg's own rewrite action runs
 * one Spark job per partition; a night that changed a hundred workloads would run hundreds.
 *
 * <p>The files of a partition whose schemas differ (a table whose columns changed between releases) cannot be
 * concatenated: that partition is left as it is and returned, for a rewrite that reads and writes rows.
 */
public final class FileCompaction {
    private FileCompaction() {}

    /** A file smaller than this is small: a partition with two or more of them is compacted. */
    public static final long SMALL_FILE_BYTES = 32L << 20;

    /** One partition's small files, to become one file at {@code target}. */
    record Group(String table, List<String> inputs, String target) implements Serializable {}

    /** The merged file of a group, with its statistics; {@code merged} false when the inputs' schemas differ. */
    record Merged(boolean merged, long sizeBytes, Metrics metrics) implements Serializable {}

    /**
     * Compacts the tables' small files: one Spark job for all of them, then one commit per table that had any. Returns
     * the partitions it could not merge, by table (none when every schema agreed).
     *
     * @param tables by name
     * @param folder the data folder the merged files go to, under each table's {@code data/} (never a run's own
     *     folder, which a run's commit lists)
     * @param snapshotProperties set on each table's rewrite snapshot
     */
    public static Map<String, List<Object>> run(
            SparkSession spark, Map<String, Table> tables, String folder, Map<String, String> snapshotProperties)
            throws IOException {
        Map<String, MetricsConfig> configs = new HashMap<>();
        Map<String, NameMapping> mappings = new HashMap<>();
        List<Group> groups = new ArrayList<>();
        List<List<DataFile>> inputs = new ArrayList<>();
        for (Map.Entry<String, Table> named : tables.entrySet()) {
            String name = named.getKey();
            Table t = named.getValue();
            Map<Object, List<DataFile>> small = smallFiles(t);
            for (Map.Entry<Object, List<DataFile>> e : small.entrySet()) {
                if (e.getValue().size() < 2) continue;
                List<String> paths = new ArrayList<>();
                for (DataFile f : e.getValue()) paths.add(f.location());
                String partition = t.spec().isPartitioned() ? Warehouse.partitionDir((String) e.getKey()) + "/" : "";
                String target = t.location() + "/" + Warehouse.DATA + "/" + folder + "/" + partition + UUID.randomUUID()
                        + ".parquet";
                groups.add(new Group(name, paths, target));
                inputs.add(e.getValue());
                if (!configs.containsKey(name)) {
                    configs.put(name, MetricsConfig.forTable(t));
                    mappings.put(
                            name, NameMappingParser.fromJson(t.properties().get(TableProperties.DEFAULT_NAME_MAPPING)));
                }
            }
        }
        Map<String, List<Object>> unmerged = new LinkedHashMap<>();
        if (groups.isEmpty()) return unmerged;

        spark.sparkContext().setJobDescription("maintain: compact " + groups.size() + " partitions");
        List<Merged> merged;
        try {
            merged = JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(
                            groups,
                            Math.max(
                                    1,
                                    Math.min(groups.size(), spark.sparkContext().defaultParallelism())))
                    .map(new Merge(
                            new SerializableConf(spark.sparkContext().hadoopConfiguration()),
                            new HashMap<>(configs),
                            new HashMap<>(mappings)))
                    .collect();
        } finally {
            spark.sparkContext().setJobDescription(null);
        }

        Map<String, RewriteFiles> rewrites = new LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.get(i);
            Merged m = merged.get(i);
            Table t = tables.get(g.table());
            DataFile first = inputs.get(i).get(0);
            if (!m.merged()) {
                unmerged.computeIfAbsent(g.table(), k -> new ArrayList<>())
                        .add(t.spec().isPartitioned() ? first.partition().get(0, String.class) : "");
                continue;
            }
            RewriteFiles op = rewrites.computeIfAbsent(g.table(), k -> t.newRewrite()
                    .validateFromSnapshot(t.currentSnapshot().snapshotId()));
            for (DataFile f : inputs.get(i)) op.deleteFile(f);
            DataFiles.Builder b = DataFiles.builder(t.spec())
                    .withPath(g.target())
                    .withFormat(FileFormat.PARQUET)
                    .withFileSizeInBytes(m.sizeBytes())
                    .withMetrics(m.metrics());
            if (t.spec().isPartitioned()) b = b.withPartition(first.partition());
            op.addFile(b.build());
        }
        for (RewriteFiles op : rewrites.values()) {
            snapshotProperties.forEach(op::set);
            op.commit();
        }
        return unmerged;
    }

    /** The table's small data files by partition (its workload, or "" for a table without partitions). */
    private static Map<Object, List<DataFile>> smallFiles(Table table) throws IOException {
        Map<Object, List<DataFile>> out = new LinkedHashMap<>();
        if (table.currentSnapshot() == null) return out;
        boolean partitioned = table.spec().isPartitioned();
        try (CloseableIterable<FileScanTask> files = table.newScan().planFiles()) {
            for (FileScanTask f : files) {
                if (f.file().fileSizeInBytes() >= SMALL_FILE_BYTES
                        || !f.deletes().isEmpty()) continue;
                Object key = partitioned ? f.file().partition().get(0, String.class) : "";
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(f.file().copyWithoutStats());
            }
        }
        return out;
    }

    /** Concatenates a group's files on an executor and reads the new file's statistics. */
    private record Merge(
            SerializableConf conf, HashMap<String, MetricsConfig> configs, HashMap<String, NameMapping> mappings)
            implements Function<Group, Merged> {
        @Override
        public Merged call(Group g) throws IOException {
            Configuration c = conf.get();
            ParquetReadOptions options = FooterReads.options(c);
            MessageType schema = null;
            Map<String, String> keyValues = null;
            for (String in : g.inputs()) {
                try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(in), c), options)) {
                    FileMetaData meta = r.getFooter().getFileMetaData();
                    if (schema == null) {
                        schema = meta.getSchema();
                        keyValues = meta.getKeyValueMetaData();
                    } else if (!schema.equals(meta.getSchema())) {
                        return new Merged(false, 0, null);
                    }
                }
            }
            Path target = new Path(g.target());
            org.apache.hadoop.fs.FileSystem fs = target.getFileSystem(c);
            ParquetFileWriter w = new ParquetFileWriter(
                    LocalDisk.output(fs, target, c),
                    schema,
                    ParquetFileWriter.Mode.CREATE,
                    org.apache.parquet.hadoop.ParquetWriter.DEFAULT_BLOCK_SIZE,
                    0);
            try {
                w.start();
                for (String in : g.inputs()) {
                    // appendFile(InputFile) would open it with default options: a new Configuration for every file
                    try (ParquetFileReader r =
                            ParquetFileReader.open(HadoopInputFile.fromPath(new Path(in), c), options)) {
                        r.appendTo(w);
                    }
                }
                w.end(keyValues);
            } catch (IOException | RuntimeException e) {
                LocalDisk.delete(fs, target);
                throw e;
            }
            long size = fs.getFileStatus(target).getLen();
            try {
                Metrics m = ParquetUtil.fileMetrics(
                        org.apache.iceberg.hadoop.HadoopInputFile.fromLocation(g.target(), c),
                        configs.get(g.table()),
                        mappings.get(g.table()));
                return new Merged(true, size, m);
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
