package org.tracelake.jobs.warehouse;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * Every Spark read and write of a warehouse table, live or staged, by the table's name and with the catalog's schema:
 * the schema is given, never inferred (inferring it reads the files' footers in a Spark job of its own). Nothing
 * outside this package hands Spark a table's path. A command makes one, over its {@link Warehouse} and session, and
 * passes it down.
 */
public final class WarehouseTables {
    private final SparkSession spark;
    private final Warehouse warehouse;

    public WarehouseTables(SparkSession spark, Warehouse warehouse) {
        this.spark = spark;
        this.warehouse = warehouse;
        String configured = SparkCatalogs.configuredCatalog(spark);
        if (configured != null) warehouse.useCatalog(SparkCatalogs.icebergCatalog(spark, configured));
        else SparkCatalogs.forPaths(spark, warehouse);
    }

    public SparkSession spark() {
        return spark;
    }

    public Warehouse warehouse() {
        return warehouse;
    }

    /**
     * A live table, as its current snapshot has it (planned from its metadata, no listing); empty, with its schema,
     * when nothing has been committed to it yet.
     */
    public Dataset<Row> live(String table) {
        StructType schema = schema(table);
        if (!warehouse.exists(table)) return spark.createDataFrame(new ArrayList<Row>(), schema);
        return spark.read().format("iceberg").load(sparkName(table));
    }

    /** Some workloads' rows of a live table (a filter on the partition column: only their files are read). */
    public Dataset<Row> live(String table, Collection<String> workloads) {
        return live(table).where(col(Tables.PARTITION_COLUMN).isin(workloads.toArray()));
    }

    /**
     * How Spark's Iceberg source names a table: its location for the default catalog (read by path, whatever the
     * session's catalogs), else {@code <spark catalog>.<namespace>.<table>}.
     */
    public String sparkName(String table) {
        WarehouseCatalog c = warehouse.catalog();
        // a Hadoop catalog's table lives in the folder of its name; a reader never creates or changes one
        if (c.isDefault()) return warehouse.table(table);
        return SparkCatalogs.configuredCatalog(spark) + "." + c.id(table);
    }

    /** Some workloads' partitions of a table this run staged; each must exist. */
    public Dataset<Row> staged(String runId, String table, Collection<String> workloads) {
        return partitions(warehouse.stagedTable(runId, table), table, workloads);
    }

    /** Of these workloads, those that have a partition of a table this run staged (one listing each, no job). */
    public List<String> stagedWith(String runId, String table, Collection<String> workloads) {
        List<String> out = new ArrayList<>();
        try {
            for (String w : workloads) {
                if (warehouse.fs().exists(new Path(warehouse.stagingPartition(runId, table, w)))) out.add(w);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * Files the run left aside in its staging area that are no table ({@link Warehouse#stagedAside}), in the schema
     * their writer gives; null when there are none.
     */
    public Dataset<Row> stagedAside(String runId, String folder, StructType schema) {
        // its files by name: Spark takes a folder whose name starts with '_' for hidden and warns that it ignored
        // it (then reads it anyway), a warning no user could act on
        List<String> files = new ArrayList<>();
        try {
            Path dir = new Path(warehouse.stagedAside(runId, folder));
            if (!warehouse.fs().exists(dir)) return null;
            for (FileStatus f : warehouse.fs().listStatus(dir)) {
                if (f.getPath().getName().endsWith(".parquet"))
                    files.add(f.getPath().toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (files.isEmpty()) return null;
        return spark.read().schema(schema).parquet(files.toArray(String[]::new));
    }

    /**
     * Stages a few rows the driver made (a row per file or per workload), replacing what the run staged before: the
     * driver writes each workload's partition itself, one small file, where a Spark write would be a job for a few rows.
     */
    public void stageSmall(String runId, String table, List<Row> rows) throws IOException {
        warehouse.fs().delete(new Path(warehouse.stagedTable(runId, table)), true);
        int workload = schema(table).fieldIndex(Tables.PARTITION_COLUMN);
        Map<String, List<Row>> byWorkload = new LinkedHashMap<>();
        for (Row r : rows)
            byWorkload
                    .computeIfAbsent(r.getString(workload), k -> new ArrayList<>())
                    .add(r);
        PartitionFiles files = PartitionFiles.forRun(warehouse, runId);
        for (Map.Entry<String, List<Row>> w : byWorkload.entrySet()) files.write(table, w.getKey(), w.getValue());
    }

    /**
     * Gives every one of these workloads a partition of a staged table, also a workload without rows (the phases
     * after ingest read one for every workload): those the write left without one get a copy of one empty Parquet
     * file, written once — file copies, not a Spark job each.
     */
    public void stageEmptyPartitions(String runId, String table, Iterable<String> workloads) throws IOException {
        FileSystem fs = warehouse.fs();
        Path empty = null;
        for (String w : workloads) {
            Path partition = new Path(warehouse.stagingPartition(runId, table, w));
            if (fs.exists(partition)) continue;
            if (empty == null) empty = emptyFile(runId, table);
            fs.mkdirs(partition);
            FileUtil.copy(fs, empty, fs, new Path(partition, empty.getName()), false, warehouse.conf());
        }
    }

    /** A Parquet file of the table's columns and no rows, as a Spark write of no rows leaves one. */
    private Path emptyFile(String runId, String table) throws IOException {
        Path file = new Path(warehouse.stagedAside(runId, "_empty/" + table), PartitionFiles.FILE_NAME);
        PartitionFiles.writeFile(file, schema(table), Tables.PARTITION_COLUMN, List.of(), warehouse.conf());
        return file;
    }

    /**
     * Appends rows to a table kept across runs, as one Iceberg commit that names the run ({@link
     * WarehouseCatalog#RUN_ID}) and one file (per workload, for a table partitioned by it): they are a few per run.
     */
    public void append(String table, Dataset<Row> rows, String runId) {
        append(table, rows, runId, Map.of());
    }

    /** {@link #append(String, Dataset, String)}, with more properties in the commit's snapshot summary. */
    public void append(String table, Dataset<Row> rows, String runId, Map<String, String> summary) {
        warehouse.catalog().table(table); // created on first use
        StructType schema = schema(table);
        org.apache.spark.sql.DataFrameWriter<Row> writer = rows.select(java.util.Arrays.stream(schema.fieldNames())
                        .map(f -> col(f))
                        .toArray(Column[]::new))
                .coalesce(1)
                .write();
        for (Map.Entry<String, String> e : summary.entrySet())
            writer = writer.option("snapshot-property." + e.getKey(), e.getValue());
        writer.format("iceberg")
                .option("snapshot-property." + WarehouseCatalog.RUN_ID, runId)
                // the rows are in the table's schema; a column Spark derived says nullable where the table does not
                .option("check-nullability", "false")
                .mode(SaveMode.Append)
                .save(sparkName(table));
    }

    /**
     * Appends a few rows the driver made (a run's row, its change rows) to a table kept across runs, as {@link #append}
     * does, without a Spark job: the driver writes them as one Parquet file (one per workload, for a table partitioned by
     * it) in the run's folder of the table, {@code <table>/data/<run>/}, as the executors write the per-workload
     * tables' files, and commits them with one Iceberg commit that names the run. A Spark write of a few rows cost a
     * cold process a second or more of planning and code generation. What an earlier attempt of the run left there (a
     * run killed before this commit, replayed) is written again.
     */
    public void appendSmall(String table, List<Row> rows, String runId, Map<String, String> summary)
            throws IOException {
        Table t = warehouse.catalog().table(table); // created on first use
        Path dir = new Path(warehouse.stagedTable(runId, table));
        FileSystem fs = warehouse.fs();
        fs.delete(dir, true);
        List<StagedFiles.File> files = new ArrayList<>();
        if (t.spec().isPartitioned()) {
            int workload = schema(table).fieldIndex(Tables.PARTITION_COLUMN);
            Map<String, List<Row>> byWorkload = new LinkedHashMap<>();
            for (Row r : rows)
                byWorkload
                        .computeIfAbsent(r.getString(workload), k -> new ArrayList<>())
                        .add(r);
            PartitionFiles out = PartitionFiles.forRun(warehouse, runId);
            for (Map.Entry<String, List<Row>> w : byWorkload.entrySet()) {
                Path file = out.write(table, w.getKey(), w.getValue());
                files.add(new StagedFiles.File(
                        table,
                        w.getKey(),
                        file.toString(),
                        fs.getFileStatus(file).getLen()));
            }
        } else if (!rows.isEmpty()) {
            Path file = new Path(dir, PartitionFiles.FILE_NAME);
            PartitionFiles.writeFile(file, schema(table), null, rows, warehouse.conf());
            files.add(new StagedFiles.File(
                    table, null, file.toString(), fs.getFileStatus(file).getLen()));
        }
        List<DataFile> added = StagedFiles.dataFiles(spark, warehouse.conf(), warehouse.catalog(), files)
                .getOrDefault(table, List.of());
        StagedFiles.append(t, runId, summary, added);
    }

    /**
     * Appends the files this run wrote to its folder of a table kept across runs ({@code <table>/data/<run>/}, as the
     * executors write the per-workload tables' files) with one Iceberg commit that names the run: no Spark job, their
     * statistics read from their footers ({@link StagedFiles#dataFiles}). No file: the commit adds none.
     */
    public void appendStaged(String table, String runId) throws IOException {
        Table t = warehouse.catalog().table(table); // created on first use
        List<StagedFiles.File> files = StagedFiles.list(warehouse, runId, List.of(table));
        List<DataFile> added = StagedFiles.dataFiles(spark, warehouse.conf(), warehouse.catalog(), files)
                .getOrDefault(table, List.of());
        StagedFiles.append(t, runId, Map.of(), added);
    }

    /**
     * A table as the previous release wrote it (plain Parquet files and {@code workload=} folders under the table's
     * folder), in the catalog's schema: a column its files lack reads as null. For {@code tracelake migrate} only.
     */
    public Dataset<Row> previousLayout(String table, List<String> paths) {
        return spark.read()
                .schema(schema(table))
                .option("basePath", warehouse.table(table))
                .parquet(paths.toArray(String[]::new));
    }

    private Dataset<Row> partitions(String tableRoot, String table, Collection<String> workloads) {
        String[] paths = workloads.stream()
                .map(w -> tableRoot + "/" + Warehouse.partitionDir(w))
                .toArray(String[]::new);
        return spark.read().schema(schema(table)).option("basePath", tableRoot).parquet(paths);
    }

    private static StructType schema(String table) {
        TableCatalog.Table t = TableCatalog.of(table);
        if (t == null) throw new IllegalArgumentException("no table " + table + " in the catalog");
        return t.schema();
    }
}
