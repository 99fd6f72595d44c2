package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.tracelake.schemas.Tables;

/**
 * The warehouse root and its layout: live tables ({@code <root>/<table>/workload=<w>/}), a run's staging area
 * ({@code <root>/_staging/<run>/<table>/workload=<w>/}) and the per-workload swap that makes a refresh atomic
 * per workload. The swap renames directories: atomic per rename on HDFS and local disks; on object stores
 * (S3A) a directory rename is a copy, so a reader there may briefly see a workload missing, never a mix.
 */
public final class Warehouse {
    private final String root;
    private final Configuration conf;
    private final FileSystem fs;

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

    public String livePartition(String table, String workload) {
        return table(table) + "/" + partitionDir(workload);
    }

    /** The folder where a run writes its tables before each workload is swapped in. */
    public String staging(String runId) {
        return root + "/_staging/" + runId;
    }

    /** A table as this run stages it, before its workloads are swapped in. */
    public String stagedTable(String runId, String table) {
        return staging(runId) + "/" + table;
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

    /**
     * A live table as SQL names it for a view: its folder, listed again by every query that reads the view, so a view
     * made once sees every later refresh's files.
     */
    public String sqlSource(String table) {
        return "parquet.`" + table(table).replace("`", "``") + "`";
    }

    /** The partition folders ({@code workload=…}) a live table has: one listing, no Spark job. */
    public Set<String> livePartitions(String table) throws IOException {
        Set<String> out = new TreeSet<>();
        Path dir = new Path(table(table));
        if (!fs.exists(dir)) return out;
        for (FileStatus f : fs.listStatus(dir)) {
            if (f.isDirectory()) out.add(f.getPath().getName());
        }
        return out;
    }

    public static String partitionDir(String workload) {
        return Tables.PARTITION_COLUMN + "=" + ExternalCatalogUtils.escapePathName(workload);
    }

    public boolean exists(String table) {
        try {
            Path p = new Path(table(table));
            if (!fs.exists(p)) return false;
            for (FileStatus s : fs.listStatus(p)) {
                String n = s.getPath().getName();
                if (!n.startsWith("_") && !n.startsWith(".")) return true;
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Replace the live partitions of one workload with the staged ones, table by table: the old partition is
     * moved aside, the new one renamed in, the old one deleted. Tables with nothing staged keep their partition
     * no partition afterwards.
     */
    public void swapIn(String runId, String workload, List<String> tables) throws IOException {
        for (String table : tables) {
            Path staged = new Path(stagingPartition(runId, table, workload));
            Path live = new Path(livePartition(table, workload));
            Path aside = new Path(root + "/_trash/" + runId + "/" + table + "/" + partitionDir(workload));
            if (fs.exists(live)) {
                fs.mkdirs(aside.getParent());
                rename(live, aside);
            }
            if (fs.exists(staged)) {
                fs.mkdirs(live.getParent());
                rename(staged, live);
            }
            fs.delete(aside, true);
        }
    }

    /** Remove a workload from the live tables (its folder is gone from the archive; history keeps it). */
    public void remove(String workload, List<String> tables) throws IOException {
        for (String table : tables) {
            Path live = new Path(livePartition(table, workload));
            if (fs.exists(live)) fs.delete(live, true);
        }
    }

    /**
     * After a crash (call while holding the lock): a swap cut between its two renames left a workload's old
     * partition aside in {@code _trash} with no live one — put it back; then drop every other run's leftovers.
     * The crashed run's workloads were not committed, so the next refresh redoes them.
     */
    public List<String> recoverInterrupted(String currentRunId) throws IOException {
        List<String> restored = new ArrayList<>();
        Path trash = new Path(root + "/_trash");
        if (fs.exists(trash)) {
            for (FileStatus run : fs.listStatus(trash)) {
                if (run.getPath().getName().equals(currentRunId)) continue;
                for (FileStatus table : fs.listStatus(run.getPath())) {
                    for (FileStatus part : fs.listStatus(table.getPath())) {
                        Path live = new Path(table(table.getPath().getName()) + "/"
                                + part.getPath().getName());
                        if (!fs.exists(live)) {
                            fs.mkdirs(live.getParent());
                            rename(part.getPath(), live);
                            restored.add(table.getPath().getName() + "/"
                                    + part.getPath().getName());
                        }
                    }
                }
                fs.delete(run.getPath(), true);
            }
        }
        Path staging = new Path(root + "/_staging");
        if (fs.exists(staging)) {
            for (FileStatus run : fs.listStatus(staging)) {
                if (!run.getPath().getName().equals(currentRunId)) fs.delete(run.getPath(), true);
            }
        }
        return restored;
    }

    public void dropStaging(String runId) throws IOException {
        fs.delete(new Path(staging(runId)), true);
        fs.delete(new Path(root + "/_trash/" + runId), true);
    }

    private void rename(Path from, Path to) throws IOException {
        if (!fs.rename(from, to)) throw new IOException("could not rename " + from + " to " + to);
    }
}
