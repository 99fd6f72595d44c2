package org.tracelake.jobs.warehouse;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.FileIO;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.spark.SerializableConf;

/**
 * Whether the data files the tables' current snapshots name are still there and readable: each exists, has the size
 * its manifest recorded, and has a Parquet footer that parses. One Spark job for every table, a task per manifest: a
 * remote file system's many requests run in parallel, and the driver never lists the files. A file truncated, replaced
 * or deleted under the warehouse (a partition folder removed by hand, a disk that lost a block) is found here rather
 * than by the first query that reads it.
 */
public final class DataFileCheck {
    private DataFileCheck() {}

    /**
     * A damaged data file.
     *
     * @param workload the partition's workload, or null for a table without partitions
     * @param reason what is wrong with it, in words a person can act on
     */
    public record Damage(String table, String workload, String path, String reason) implements Serializable {}

    /** One manifest of a table's current snapshot, read on an executor. */
    record ManifestTask(String table, ManifestFile manifest, FileIO io, Map<Integer, PartitionSpec> specs)
            implements Serializable {}

    /**
     * The damaged data files of the tables' current snapshots: one Spark job whose tasks each read a manifest and open
     * the files it lists, so the driver holds only the list of manifests (a few per table), never one entry per file.
     */
    public static List<Damage> run(SparkSession spark, Map<String, Table> tables) {
        List<ManifestTask> manifests = new ArrayList<>();
        for (Map.Entry<String, Table> e : tables.entrySet()) {
            Table t = e.getValue();
            if (t.currentSnapshot() == null) continue;
            for (ManifestFile m : t.currentSnapshot().dataManifests(t.io()))
                manifests.add(new ManifestTask(e.getKey(), m, t.io(), new HashMap<>(t.specs())));
        }
        if (manifests.isEmpty()) return List.of();
        spark.sparkContext().setJobDescription("check the data files of " + tables.size() + " tables");
        try {
            return JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(manifests, manifests.size())
                    .flatMap(new Inspect(
                            new SerializableConf(spark.sparkContext().hadoopConfiguration())))
                    .collect();
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
    }

    /** Reads a manifest on an executor and opens each live data file it lists; yields only the damaged ones. */
    private record Inspect(SerializableConf conf) implements FlatMapFunction<ManifestTask, Damage> {
        @Override
        public Iterator<Damage> call(ManifestTask task) throws IOException {
            Configuration c = conf.get();
            ParquetReadOptions options = FooterReads.options(c);
            List<Damage> out = new ArrayList<>();
            try (ManifestReader<DataFile> files = ManifestFiles.read(task.manifest(), task.io(), task.specs())) {
                for (DataFile f : files) { // the live entries: added or existing, not deleted
                    String workload = task.specs().get(f.specId()).isPartitioned()
                            ? f.partition().get(0, String.class)
                            : null;
                    String reason = reason(f.location(), f.fileSizeInBytes(), c, options);
                    if (reason != null) out.add(new Damage(task.table(), workload, f.location(), reason));
                }
            }
            return out.iterator();
        }
    }

    /**
     * What is wrong with the file, or null when it has the size its manifest recorded ({@code sizeBytes}) and its footer
     * parses.
     */
    static String reason(String location, long sizeBytes, Configuration conf) {
        return reason(location, sizeBytes, conf, FooterReads.options(conf));
    }

    private static String reason(String location, long sizeBytes, Configuration conf, ParquetReadOptions options) {
        Path path = new Path(location);
        try {
            FileSystem fs = path.getFileSystem(conf);
            FileStatus status = fs.getFileStatus(path);
            if (!status.isFile()) return "is not a file";
            if (status.getLen() != sizeBytes)
                return "is " + status.getLen() + " bytes, the table recorded " + sizeBytes
                        + " (truncated or overwritten)";
            try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromStatus(status, conf), options)) {
                r.getFooter();
            }
            return null;
        } catch (FileNotFoundException e) {
            return "is missing (deleted from the warehouse's folder)";
        } catch (IOException | RuntimeException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return "cannot be read as Parquet: " + message.lines().findFirst().orElse(message);
        }
    }
}
