package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * One writer per warehouse at a time: {@code <warehouse>/_lock} records the owner (command, host, pid, run) and start
 * time. Every command that writes the warehouse takes it (refresh, ingest, and export or report when their output goes
 * under the warehouse); a second writer, whatever its command, finds it and stops at once. A lock is stale — and taken over, with a warning — when
 * its process is gone (same host) or it is older than {@code spark.tracelake.lockStaleAfterHours} (default 24).
 * Creation is atomic on local disks (create-new) and HDFS (create without overwrite); on S3A it is best effort.
 */
public final class WarehouseLock implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger("tracelake.progress");

    /** Another live refresh holds the warehouse. */
    public static final class HeldException extends IOException {
        HeldException(String message) {
            super(message);
        }
    }

    private final FileSystem fs;
    private final Path path;
    private final String runId;

    private WarehouseLock(FileSystem fs, Path path, String runId) {
        this.fs = fs;
        this.path = path;
        this.runId = runId;
    }

    /** The run that holds this lock (a refresh's run id). */
    public String runId() {
        return runId;
    }

    /**
     * Takes the lock for {@code command} (the name a second writer is told: refresh, ingest, export, report), or
     * throws {@link HeldException} naming the live owner.
     */
    public static WarehouseLock acquire(Warehouse warehouse, String runId, Duration staleAfter, String command)
            throws IOException {
        FileSystem fs = warehouse.fs();
        Path path = new Path(warehouse.root() + "/_lock");
        fs.mkdirs(path.getParent());
        Properties me = new Properties();
        me.setProperty("command", command);
        me.setProperty("run_id", runId);
        me.setProperty("host", host());
        me.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
        me.setProperty("started_at", Instant.now().toString());
        for (int attempt = 0; attempt < 2; attempt++) {
            if (tryCreate(fs, path, me)) return new WarehouseLock(fs, path, runId);
            Properties holder = read(fs, path);
            String stale = staleness(holder, staleAfter);
            String who = "tracelake " + holder.getProperty("command", "refresh") + ", run " + holder.getProperty("run_id", "?") + " on " + holder.getProperty("host", "?")
                    + " (pid " + holder.getProperty("pid", "?") + "), started " + holder.getProperty("started_at", "?");
            if (stale == null) {
                throw new HeldException("another writer holds " + path + ": " + who
                        + ". Wait for it to finish; if it is dead on another host, delete the lock file.");
            }
            LOG.warn("taking over a stale lock ({}): {}", stale, who);
            fs.delete(path, false);
        }
        throw new HeldException("could not take " + path + ": another writer took it at the same moment");
    }

    private static boolean tryCreate(FileSystem fs, Path path, Properties content) throws IOException {
        if (fs instanceof LocalFileSystem) {
            try {
                Files.createFile(Paths.get(path.toUri().getPath()));
            } catch (FileAlreadyExistsException e) {
                return false;
            }
            try (OutputStream out = Files.newOutputStream(Paths.get(path.toUri().getPath()))) {
                content.store(out, "tracelake warehouse lock");
            }
            return true;
        }
        try (OutputStream out = fs.create(path, false)) {
            content.store(out, "tracelake warehouse lock");
            return true;
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            return false;
        }
    }

    private static Properties read(FileSystem fs, Path path) {
        Properties p = new Properties();
        try (InputStream in = fs.open(path)) {
            p.load(new java.io.InputStreamReader(in, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            // a lock being written or just deleted: treat as held by an unknown owner
        }
        return p;
    }

    /** Why the holder is stale, or null when it may be alive. */
    static String staleness(Properties holder, Duration staleAfter) {
        String started = holder.getProperty("started_at");
        if (started != null) {
            try {
                if (Instant.parse(started).plus(staleAfter).isBefore(Instant.now())) return "older than " + staleAfter.toHours() + " h";
            } catch (RuntimeException ignored) {
                // unreadable time: judge by the process alone
            }
        }
        String pid = holder.getProperty("pid");
        if (pid != null && host().equals(holder.getProperty("host"))) {
            try {
                if (ProcessHandle.of(Long.parseLong(pid)).isEmpty()) return "its process " + pid + " is gone";
            } catch (NumberFormatException ignored) {
                return "unreadable pid";
            }
        }
        return null;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }

    @Override
    public void close() throws IOException {
        Properties holder = read(fs, path);
        if (runId.equals(holder.getProperty("run_id"))) fs.delete(path, false);
    }
}
