package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;
import scala.Function1;

/**
 * Writes a workload's partition of a staged table from an executor, {@code <root>/<table>/workload=<w>/}, in the
 * table's catalog schema less the partition column, as Spark would write it ({@link RowFile}): ingest streams each
 * input file's rows into a file of their own there ({@link #open}); the metric engine's workload step, which holds all
 * of a workload's rows of its five tables in one task, writes each as one file, {@code part-00000.snappy.parquet}
 * ({@link #write}). Writing them there costs one task's I/O, where a Spark write per table costs a job and a plan
 * each. A retried (or speculative) task leaves one whole file, never a half or a second one: every attempt writes the
 * same rows to the same name.
 */
public final class PartitionFiles implements Serializable {
    /** The name of the one file a partition written whole has. */
    public static final String FILE_NAME = "part-00000.snappy.parquet";

    /**
     * The folder of the staging area where files are written before they are renamed into their partition: an
     * executor lost mid-write leaves its half there, and the run's staging area goes with it at the end.
     */
    public static final String UNFINISHED = "_unfinished";

    private final String root;
    /** The folder of a run's files inside each table ({@code data/<run>}), or null: {@code <root>/<table>/}. */
    private final String runFolder;
    /** Where unfinished files are written. */
    private final String unfinished;

    private final SerializableConf conf;

    /** Files under {@code root} ({@code <root>/<table>/workload=<w>/}). */
    public PartitionFiles(String root, Configuration conf) {
        this(root, null, root + "/" + UNFINISHED, conf);
    }

    private PartitionFiles(String root, String runFolder, String unfinished, Configuration conf) {
        this.root = root;
        this.runFolder = runFolder;
        this.unfinished = unfinished;
        this.conf = new SerializableConf(conf);
    }

    /**
     * A run's data files, where they stay once committed: in each table's folder, {@code
     * <warehouse>/<table>/data/<run>/workload=<w>/} ({@link Warehouse#stagedTable}); the run's Iceberg commits add
     * them to the tables as they are, without moving them.
     */
    public static PartitionFiles forRun(Warehouse warehouse, String runId) {
        return new PartitionFiles(
                warehouse.root(),
                Warehouse.DATA + "/" + runId,
                warehouse.stagedAside(runId, UNFINISHED),
                warehouse.conf());
    }

    private Path partition(String table, String workload) {
        String tableDir = root + "/" + table + (runFolder == null ? "" : "/" + runFolder);
        return new Path(tableDir + "/" + Warehouse.partitionDir(workload));
    }

    public Configuration conf() {
        return conf.get();
    }

    /** The same files, written with another Hadoop configuration (one that tells the readers more). */
    public PartitionFiles withConf(Configuration other) {
        return new PartitionFiles(root, runFolder, unfinished, other);
    }

    /**
     * Opens a file named {@code name} in the workload's partition of {@code table}, for rows in the table's catalog
     * schema (the workload column included, and left out of the file), written as they come; until its commit it
     * is written under {@link #UNFINISHED}.
     */
    public RowFile open(String table, String workload, String name, RowFile.Settings settings) throws IOException {
        Path dir = partition(table, workload);
        return new RowFile(
                new Path(dir, name),
                new Path(unfinished + "/" + table),
                TableCatalog.of(table).schema(),
                Tables.PARTITION_COLUMN,
                settings,
                conf.get());
    }

    /** As {@link #open}, for rows that come in column blocks (the catalog schema, the workload column included). */
    public BlockFile openBlocks(String table, String workload, String name, RowFile.Settings settings)
            throws IOException {
        return new BlockFile(
                new Path(partition(table, workload), name),
                new Path(unfinished + "/" + table),
                TableCatalog.of(table).schema(),
                Tables.PARTITION_COLUMN,
                settings,
                conf.get());
    }

    /**
     * {@link #open}, its unfinished file beside the target (a hidden name, which no listing of the run's files takes)
     * rather than in the run's staging area: for a writer after that area is gone (the commit's), which must not make
     * it again (the next run would take the run for one killed before its journal, and drop its files).
     */
    public RowFile openBeside(String table, String workload, String name, RowFile.Settings settings)
            throws IOException {
        return new RowFile(
                new Path(partition(table, workload), name),
                TableCatalog.of(table).schema(),
                Tables.PARTITION_COLUMN,
                settings,
                conf.get());
    }

    /**
     * Writes {@code rows} (in the catalog schema of {@code table}, the workload column included) as the workload's
     * partition of the table; writes nothing when there are no rows, as a Spark write of no rows leaves no partition.
     * Returns the file, or null when there were no rows.
     */
    public Path write(String table, String workload, List<Row> rows) throws IOException {
        if (rows.isEmpty()) return null;
        Path file = new Path(partition(table, workload), FILE_NAME);
        writeFile(file, TableCatalog.of(table).schema(), Tables.PARTITION_COLUMN, rows, conf.get());
        return file;
    }

    /**
     * Writes {@code rows} (in {@code schema}; {@code skipped}, a partition column, left out, or null) as one Parquet
     * file, aside and then renamed into place: an earlier attempt's file of the same name is kept.
     */
    public static void writeFile(Path file, StructType schema, String skipped, List<Row> rows, Configuration conf)
            throws IOException {
        Function1<Object, Object> toInternal = CatalystTypeConverters.createToCatalystConverter(schema);
        try (RowFile out = new RowFile(file, schema, skipped, RowFile.Settings.of(CompressionCodecName.SNAPPY), conf)) {
            for (Row r : rows) out.write((InternalRow) toInternal.apply(r));
            out.commit();
        }
    }
}
