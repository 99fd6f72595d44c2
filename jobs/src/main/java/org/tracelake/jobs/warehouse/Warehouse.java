package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.tracelake.schemas.Tables;

/**
 * The warehouse root and its layout. Every table is an Iceberg table ({@link WarehouseCatalog}), by default in the
 * folder of its name ({@code <root>/<table>/}: {@code metadata/} and {@code data/}). A run's executors write its data
 * files where they stay, {@code <root>/<table>/data/<run>/workload=<w>/}, and the run's commits add them to the tables
 * (no file is moved); what a run keeps aside meanwhile (file reports, rank summaries, unfinished files) is under {@code
 * <root>/_staging/<run>/}, dropped at its end.
 */
public final class Warehouse {
    /** The folder of a table that holds its data files, one folder per run under it. */
    public static final String DATA = "data";

    private final String root;
    private final Configuration conf;
    private final FileSystem fs;
    private WarehouseCatalog catalog;

    public Warehouse(String root, Configuration conf) throws IOException {
        this.conf = conf;
        Path p = new Path(root);
        this.fs = p.getFileSystem(conf);
        this.root = fs.makeQualified(p).toString();
    }

    public String root() {
        return root;
    }

    public FileSystem fs() {
        return fs;
    }

    public Configuration conf() {
        return conf;
    }

    public String table(String table) {
        return root + "/" + table;
    }

    /** The tables' catalog: the default one at the root unless {@link #useCatalog} gave another. */
    public synchronized WarehouseCatalog catalog() {
        if (catalog == null) catalog = new WarehouseCatalog(root, conf);
        return catalog;
    }

    /** Uses a catalog configured elsewhere ({@code spark.tracelake.catalog}) for the tables. */
    public synchronized void useCatalog(WarehouseCatalog other) {
        this.catalog = other;
    }

    /** The folder a run's executors write its aside files to (not table data: {@link #stagedTable}). */
    public String staging(String runId) {
        return root + "/_staging/" + runId;
    }

    /** The folder of a table's data files a run writes: they stay there once committed. */
    public String stagedTable(String runId, String table) {
        return table(table) + "/" + DATA + "/" + runId;
    }

    public String stagingPartition(String runId, String table, String workload) {
        return stagedTable(runId, table) + "/" + partitionDir(workload);
    }

    /**
     * A folder of the run's staging area that holds no table: what ingest leaves for the phases after it (the files'
     * reports, the rank summaries). Its name starts with {@code _}, which no table's does.
     */
    public String stagedAside(String runId, String folder) {
        if (!folder.startsWith("_")) throw new IllegalArgumentException("not a staging folder name: " + folder);
        return staging(runId) + "/" + folder;
    }

    public static String partitionDir(String workload) {
        return Tables.PARTITION_COLUMN + "=" + ExternalCatalogUtils.escapePathName(workload);
    }

    /** Whether the table exists and has been committed to. */
    public boolean exists(String table) {
        return catalog().exists(table);
    }

    /**
     * After a crash (call while holding the lock): a run that died before its journal ({@code keep} holds the runs
     * with one, which are finished from it) committed nothing, so its data files are dropped with its staging; every
     * other run's staging is dropped. Returns the runs whose files were dropped.
     */
    public List<String> recoverInterrupted(String currentRunId, Set<String> keep) throws IOException {
        List<String> dropped = new ArrayList<>();
        Path staging = new Path(root + "/_staging");
        if (!fs.exists(staging)) return dropped;
        for (FileStatus run : fs.listStatus(staging)) {
            String id = run.getPath().getName();
            if (id.equals(currentRunId) || keep.contains(id)) continue;
            for (String table : Tables.PER_WORKLOAD) fs.delete(new Path(stagedTable(id, table)), true);
            fs.delete(run.getPath(), true);
            dropped.add(id);
        }
        return dropped;
    }

    /** Drops what a run kept aside (its data files stay: they are the tables'). */
    public void dropStaging(String runId) throws IOException {
        fs.delete(new Path(staging(runId)), true);
    }
}
