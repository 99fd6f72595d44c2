package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * Writes a workload's partition of a staged table from an executor: one Parquet file,
 * {@code <root>/<table>/workload=<w>/part-00000.snappy.parquet}, in the table's catalog schema less the partition
 * column, as Spark would write it. The metric engine's workload step holds all of a workload's rows of its five
 * tables in one task; writing them there costs one task's I/O, where a Spark write per table of a cached result costs a
 * job and a plan each, and a columnar cache. The file goes to a name of its own and is then renamed into place, so a
 * retried (or speculative) task leaves one whole file, never a half or a second one: every attempt writes the same rows.
 */
public final class PartitionFiles implements Serializable {
    static final String FILE_NAME = "part-00000.snappy.parquet";

    private final String root;
    private final SerializableConf conf;

    /** Files under {@code root} (a staging area: {@code <root>/<table>/workload=<w>/}). */
    public PartitionFiles(String root, Configuration conf) {
        this.root = root;
        this.conf = new SerializableConf(conf);
    }

    /**
     * Writes {@code rows} (in the catalog schema of {@code table}, the workload column included) as the workload's
     * partition of the table; writes nothing when there are no rows, as a Spark write of no rows leaves no partition.
     */
    public void write(String table, String workload, List<Row> rows) throws IOException {
        if (rows.isEmpty()) return;
        Path dir = new Path(root + "/" + table + "/" + Warehouse.partitionDir(workload));
        writeFile(new Path(dir, FILE_NAME), TableCatalog.of(table).schema(), Tables.PARTITION_COLUMN, rows, conf.get());
    }

    /**
     * Writes {@code rows} (flat, in {@code schema}; {@code skipped}, a partition column, left out, or null) as one
     * Parquet file, aside and then renamed into place: an earlier attempt's file of the same name is kept.
     */
    public static void writeFile(Path file, StructType schema, String skipped, List<Row> rows, Configuration conf)
            throws IOException {
        Path dir = file.getParent();
        Path aside = new Path(dir, "." + file.getName() + "." + UUID.randomUUID() + ".tmp");
        FileSystem fs = dir.getFileSystem(conf);
        fs.mkdirs(dir);
        RowWriteSupport support = new RowWriteSupport(schema, skipped);
        try (ParquetWriter<Row> writer = new Builder(HadoopOutputFile.fromPath(aside, conf), support)
                .withConf(conf)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .build()) {
            for (Row r : rows) writer.write(r);
        } catch (IOException | RuntimeException e) {
            fs.delete(aside, false);
            throw e;
        }
        // another attempt of this task may have put its (identical) file in place first: keep that one
        if (!fs.rename(aside, file)) {
            fs.delete(aside, false);
            if (!fs.exists(file)) throw new IOException("could not move " + aside + " to " + file);
        }
    }

    private static final class Builder extends ParquetWriter.Builder<Row, Builder> {
        private final RowWriteSupport support;

        Builder(HadoopOutputFile file, RowWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Row> getWriteSupport(Configuration configuration) {
            return support;
        }
    }
}
