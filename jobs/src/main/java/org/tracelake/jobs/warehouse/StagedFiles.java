package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.schemas.Tables;

/**
 * A run's data files, as its executors wrote them ({@code <table>/data/<run>/workload=<w>/…}), and their commit: one
 * Iceberg commit per table that replaces the changed workloads' partitions with the run's files of them, whatever the
 * number of workloads. The files stay where they are; Iceberg reads them by the tables' name mapping.
 */
public final class StagedFiles {
    private StagedFiles() {}

    /** One data file of a run. */
    public record File(String table, String workload, String path, long sizeBytes) implements Serializable {}

    /** The run's data files of these tables: one recursive listing per table (a paged listing on object stores). */
    public static List<File> list(Warehouse warehouse, String runId, Collection<String> tables) throws IOException {
        List<File> out = new ArrayList<>();
        for (String table : tables) {
            Path dir = new Path(warehouse.stagedTable(runId, table));
            for (FileTree.Entry f : FileTree.files(warehouse.fs(), dir)) {
                String name = f.name();
                String parent = f.path().getParent().getName();
                String prefix = Tables.PARTITION_COLUMN + "=";
                // a writer's unfinished file starts with '.', and is no data yet
                if (name.startsWith(".") || name.startsWith("_") || !parent.startsWith(prefix)) continue;
                String workload = ExternalCatalogUtils.unescapePathName(parent.substring(prefix.length()));
                out.add(new File(table, workload, f.path().toString(), f.length()));
            }
        }
        return out;
    }

    /**
     * The Iceberg data files of these files, by table, their row counts and column statistics read from their footers
     * in one Spark job (none when there are no files); files without rows are left out.
     */
    public static Map<String, List<DataFile>> dataFiles(
            SparkSession spark, WarehouseCatalog catalog, List<File> files) {
        Map<String, List<DataFile>> out = new LinkedHashMap<>();
        if (files.isEmpty()) return out;
        Map<String, Table> tables = new HashMap<>();
        HashMap<String, MetricsConfig> configs = new HashMap<>();
        HashMap<String, NameMapping> mappings = new HashMap<>();
        for (File f : files) {
            if (tables.containsKey(f.table())) continue;
            Table t = catalog.table(f.table());
            tables.put(f.table(), t);
            configs.put(f.table(), MetricsConfig.forTable(t));
            mappings.put(
                    f.table(), NameMappingParser.fromJson(t.properties().get(TableProperties.DEFAULT_NAME_MAPPING)));
        }
        spark.sparkContext().setJobDescription("commit: statistics of " + files.size() + " data files");
        List<Metrics> metrics;
        try {
            int slices = Math.max(1, Math.min(files.size(), spark.sparkContext().defaultParallelism() * 4));
            metrics = JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(files, slices)
                    .map(new FooterMetrics(
                            new SerializableConf(spark.sparkContext().hadoopConfiguration()), configs, mappings))
                    .collect();
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
        for (int i = 0; i < files.size(); i++) {
            File f = files.get(i);
            Metrics m = metrics.get(i);
            if (m.recordCount() == null || m.recordCount() == 0) continue;
            PartitionSpec spec = tables.get(f.table()).spec();
            DataFiles.Builder b = DataFiles.builder(spec)
                    .withPath(f.path())
                    .withFormat(FileFormat.PARQUET)
                    .withFileSizeInBytes(f.sizeBytes())
                    .withMetrics(m);
            if (spec.isPartitioned()) b = b.withPartition(new Workload(f.workload()));
            out.computeIfAbsent(f.table(), k -> new ArrayList<>()).add(b.build());
        }
        return out;
    }

    /**
     * One commit: the table's rows of {@code workloads} replaced by {@code files} (a workload without files ends with
     * none), the snapshot named by the run.
     */
    public static void replace(Table table, String runId, Collection<String> workloads, List<DataFile> files) {
        OverwriteFiles op =
                table.newOverwrite().overwriteByRowFilter(Expressions.in(Tables.PARTITION_COLUMN, workloads.toArray()));
        for (DataFile f : files) op.addFile(f);
        op.set(WarehouseCatalog.RUN_ID, runId).commit();
    }

    /** Reads a file's footer on an executor. */
    private record FooterMetrics(
            SerializableConf conf, HashMap<String, MetricsConfig> configs, HashMap<String, NameMapping> mappings)
            implements Function<File, Metrics> {
        @Override
        public Metrics call(File f) {
            return ParquetUtil.fileMetrics(
                    HadoopInputFile.fromLocation(f.path(), conf.get()),
                    configs.get(f.table()),
                    mappings.get(f.table()));
        }
    }

    /** The partition of a per-workload table: its workload. */
    private record Workload(String name) implements StructLike {
        @Override
        public int size() {
            return 1;
        }

        @Override
        public <T> T get(int pos, Class<T> javaClass) {
            return javaClass.cast(name);
        }

        @Override
        public <T> void set(int pos, T value) {
            throw new UnsupportedOperationException("a workload partition is read-only");
        }
    }
}
