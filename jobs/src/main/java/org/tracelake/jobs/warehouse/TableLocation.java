package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A table named by its folder, as a user of the data source names one ({@code option("etNodes", "…/et_nodes")}): an
 * Iceberg table of a warehouse (it has a {@code metadata} folder) or a plain folder of Parquet partitions (the staged
 * tables of a run in progress).
 */
public final class TableLocation {
    private TableLocation() {}

    /**
     * The data files the Iceberg table at this folder holds now, by the workload of their partition, or null when the
     * folder is no Iceberg table. Only the current snapshot's files: a folder also keeps the files of replaced
     * snapshots until they expire, and reading those would give a rank's sizes twice, one of them stale.
     */
    public static Map<String, List<String>> liveDataFiles(String location, Configuration conf) {
        try {
            Path metadata = new Path(location, "metadata");
            FileSystem fs = metadata.getFileSystem(conf);
            if (!fs.isDirectory(metadata)) return null;
            Table table = new HadoopTables(conf).load(location);
            Map<String, List<String>> out = new TreeMap<>();
            if (table.currentSnapshot() == null) return out;
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask t : tasks) {
                    String workload = t.file().partition().get(0, String.class); // the spec is identity(workload)
                    out.computeIfAbsent(workload, w -> new ArrayList<>())
                            .add(t.file().location());
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the table at " + location + ": " + e.getMessage(), e);
        }
    }
}
