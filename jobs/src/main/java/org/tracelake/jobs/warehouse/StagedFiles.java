package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.AppendFiles;
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
     * Up to this many files, their footers are read on the driver (a few threads, a few milliseconds a file on a local
     * disk or HDFS, tens on an object store); beyond, in one Spark job over the executors. A run's commit usually has a
     * handful per workload: a Spark job for them cost a cold process more than reading them (seconds, most of an
     * ingest's commit).
     */
    static final int DRIVER_FOOTERS = 1024;

    /** Threads that read footers on the driver. */
    private static final int FOOTER_THREADS = 8;

    /**
     * The Iceberg data files of these files, by table, their row counts and column statistics read from their footers
     * (on the driver, or for more than {@link #DRIVER_FOOTERS} files in one Spark job); files without rows are left
     * out. A table that does not exist yet is created.
     */
    public static Map<String, List<DataFile>> dataFiles(
            SparkSession spark, Configuration conf, WarehouseCatalog catalog, List<File> files) throws IOException {
        return dataFiles(spark, conf, catalog, files, DRIVER_FOOTERS);
    }

    static Map<String, List<DataFile>> dataFiles(
            SparkSession spark, Configuration conf, WarehouseCatalog catalog, List<File> files, int driverFooters)
            throws IOException {
        Map<String, List<DataFile>> out = new LinkedHashMap<>();
        if (files.isEmpty()) return out;
        Map<String, Table> tables = new HashMap<>();
        HashMap<String, MetricsConfig> configs = new HashMap<>();
        HashMap<String, NameMapping> mappings = new HashMap<>();
        for (File f : files) {
            if (tables.containsKey(f.table())) continue;
            Table t = catalog.table(f.table()); // created on first use
            tables.put(f.table(), t);
            configs.put(f.table(), MetricsConfig.forTable(t));
            mappings.put(
                    f.table(), NameMappingParser.fromJson(t.properties().get(TableProperties.DEFAULT_NAME_MAPPING)));
        }
        FooterMetrics footers = new FooterMetrics(new SerializableConf(conf), configs, mappings);
        List<Metrics> metrics =
                files.size() <= driverFooters ? onDriver(footers, files) : inSparkJob(spark, footers, files);
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

    /** The footers read by a few threads of the driver, in the files' order. */
    private static List<Metrics> onDriver(FooterMetrics footers, List<File> files) throws IOException {
        if (files.size() == 1) return List.of(footers.call(files.get(0)));
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(FOOTER_THREADS, files.size()), r -> {
            Thread t = new Thread(r, "tracelake-footers");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Metrics>> read = new ArrayList<>(files.size());
            for (File f : files) read.add(pool.submit(() -> footers.call(f)));
            List<Metrics> out = new ArrayList<>(files.size());
            for (Future<Metrics> m : read) out.add(m.get());
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the data files' footers", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException u) throw u.getCause();
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** The footers read by the executors, one Spark job, in the files' order. */
    private static List<Metrics> inSparkJob(SparkSession spark, FooterMetrics footers, List<File> files) {
        spark.sparkContext().setJobDescription("commit: statistics of " + files.size() + " data files");
        try {
            int slices = Math.max(1, Math.min(files.size(), spark.sparkContext().defaultParallelism() * 4));
            return JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(files, slices)
                    .map(footers)
                    .collect();
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
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

    /**
     * One commit: {@code files} appended to the table, the snapshot named by the run and carrying {@code summary} in
     * its summary too.
     */
    public static void append(Table table, String runId, Map<String, String> summary, List<DataFile> files) {
        AppendFiles op = table.newAppend();
        for (DataFile f : files) op.appendFile(f);
        for (Map.Entry<String, String> e : summary.entrySet()) op.set(e.getKey(), e.getValue());
        op.set(WarehouseCatalog.RUN_ID, runId).commit();
    }

    /** Reads a file's footer, on the driver or an executor. */
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
