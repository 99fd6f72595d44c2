package org.tracelake.jobs.cli;

import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.refresh.PreviousLayout;
import org.tracelake.jobs.refresh.WarehouseLock;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * What a command that writes the warehouse does before anything else: take the warehouse lock, before Spark starts,
 * and hold it until the command ends. A second writer — whatever the pair of commands: refresh, ingest, export or
 * report into the warehouse — stops at once with exit 75 and the owner's name, without starting Spark.
 */
final class LockedSparkCommand {
    /**
     * The command's work, given the lock it holds (null when its output is outside the warehouse) and the warehouse's
     * tables over the session started for it: the command's one {@link Warehouse}, passed down.
     */
    interface Work {
        int run(WarehouseLock lock, WarehouseTables tables) throws Exception;
    }

    private final String command;
    private final SparkOptions options;
    private final SparkConf conf;
    private final Warehouse warehouse;

    LockedSparkCommand(String command, WarehouseOption warehouseOption, SparkOptions options) throws IOException {
        this.command = command;
        this.options = options;
        this.conf = options.conf("tracelake " + command);
        this.warehouse = new Warehouse(warehouseOption.warehouse, SparkSessions.hadoopConf(conf));
        Path root = new Path(warehouse.root());
        if (warehouse.fs().exists(root) && !warehouse.fs().getFileStatus(root).isDirectory()) {
            throw new Usage.Error("--warehouse " + warehouseOption.warehouse
                    + " is a file; it takes a folder (created if" + " missing)");
        }
        // a warehouse of the previous release: only migrate reads it (before the lock and Spark: nothing done yet)
        if (!command.equals("migrate") && PreviousLayout.found(warehouse))
            throw new Usage.Error(PreviousLayout.message(warehouseOption.warehouse));
    }

    /** The warehouse, as the lock sees it (Hadoop configuration without a session). */
    Warehouse warehouse() {
        return warehouse;
    }

    /** Whether a path the command writes lies under the warehouse root (then the command is a writer). */
    boolean inWarehouse(String target) throws IOException {
        Path p = new Path(target);
        String qualified = p.getFileSystem(warehouse.conf()).makeQualified(p).toString();
        return qualified.equals(warehouse.root()) || qualified.startsWith(warehouse.root() + "/");
    }

    /** Runs the work under the lock, for a run of this id; exit 75 when another writer holds it. */
    int locked(String runId, Work work) throws Exception {
        Duration staleAfter = Duration.ofHours(Settings.of(conf).get(Settings.LOCK_STALE_AFTER_HOURS));
        WarehouseLock lock;
        try {
            lock = WarehouseLock.acquire(warehouse, runId, staleAfter, command);
        } catch (WarehouseLock.HeldException e) {
            System.err.println("tracelake " + command + ": " + e.getMessage());
            return ExitCodes.LOCKED;
        }
        try (lock) {
            return withSpark(lock, work);
        }
    }

    /** Runs the work under the lock when {@code writes}, else without it (its output is elsewhere). */
    int lockedIf(boolean writes, Work work) throws Exception {
        return writes ? locked(RunIds.newId(), work) : withSpark(null, work);
    }

    private int withSpark(WarehouseLock lock, Work work) throws Exception {
        // the seconds a JVM takes to start Spark are otherwise silent: say what is running
        org.tracelake.jobs.console.Progress.info(
                "tracelake " + command + ": starting Spark (" + conf.get("spark.master", "local[*]") + ")");
        SparkSession spark = options.session(conf);
        try {
            return work.run(lock, new WarehouseTables(spark, warehouse));
        } finally {
            spark.stop();
        }
    }
}
