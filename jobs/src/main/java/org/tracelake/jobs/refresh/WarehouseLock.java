package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Properties;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * One writer per warehouse at a time: {@code <warehouse>/_lock} records the owner (command, host, pid, run) and start
 * time; a live run touches the file's modification time (its heartbeat). Every command that writes the warehouse takes it (refresh, ingest, and export or report when their output goes
 * under the warehouse); a second writer, whatever its command, finds it and stops at once. A lock is stale — and taken over, with a warning — when
 * its process is gone (same host) or its last heartbeat is older than {@code spark.tracelake.lockStaleAfterHours} (default 24).
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
    private final Heartbeat heartbeat;

    private WarehouseLock(FileSystem fs, Path path, String runId, Duration staleAfter) {
        this.fs = fs;
        this.path = path;
        this.runId = runId;
        this.heartbeat = new Heartbeat(staleAfter);
    }

    /** The run that holds this lock (a refresh's run id). */
    public String runId() {
        return runId;
    }

    /**
     * Takes the lock for {@code command} (the name a second writer is told: refresh, ingest, export, report), or
     * throws {@link HeldException} naming the live owner.
     *
     * <p>Taking over a stale lock is one atomic step for exactly one of any number of writers that found it (issue 29
     * item 4; two threads both took it over in 247 of 300 trials when it was read, delete, create): the stale file is
     * first renamed to a name of this run's own ({@code _lock.takeover.<run>}); only one rename of it succeeds. The
     * winner checks that what it moved is the lock it judged stale (the same owner, still stale); if a faster writer
     * had already replaced it with a live lock, that lock is linked back in place and this writer stops as held.
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
        for (int attempt = 0; attempt < 3; attempt++) {
            if (tryCreate(fs, path, me, runId)) {
                WarehouseLock lock = new WarehouseLock(fs, path, runId, staleAfter);
                lock.heartbeat.start();
                return lock;
            }
            Holder holder = Holder.read(fs, path);
            if (holder == null) continue; // gone between the create and the read: try again
            String stale = holder.staleness(staleAfter);
            String who = holder.who();
            if (stale == null) {
                throw new HeldException("another writer holds " + path + ": " + who
                        + ". Wait for it to finish; if it is dead on another host, delete the lock file.");
            }
            Path aside = new Path(path.getParent(), "_lock.takeover." + runId);
            if (!rename(fs, path, aside)) continue; // another writer moved it first: see what is there now
            Holder moved = Holder.read(fs, aside);
            if (moved == null || !moved.sameOwner(holder) || moved.staleness(staleAfter) == null) {
                // not the stale lock we judged: a live writer's, taken in between. Put it back, and stop.
                boolean restored = moved != null && linkBack(fs, aside, path);
                fs.delete(aside, false);
                throw new HeldException("another writer took " + path + " at the same moment"
                        + (moved != null ? ": " + moved.who() : "")
                        + (restored ? "" : " (its lock could not be put back)")
                        + ". Try again later.");
            }
            LOG.warn("taking over a stale lock ({}): {}", stale, who);
            fs.delete(aside, false);
        }
        throw new HeldException(
                "could not take " + path + ": other writers took it at the same moment. Try again later.");
    }

    /** Whether this run still holds its lock (not taken over as stale, not deleted by hand). */
    public boolean held() {
        Holder holder = Holder.read(fs, path);
        return holder != null && runId.equals(holder.props.getProperty("run_id"));
    }

    /**
     * Stops with an IOException when this run lost its lock: called before the run changes live tables, so that a
     * run whose lock was taken over (its heartbeat could not keep it fresh) never swaps beside another writer.
     */
    public void checkHeld() throws IOException {
        if (!held()) {
            throw new IOException(
                    "lost the warehouse lock " + path + " (taken over or deleted): nothing more is changed;"
                            + " the next run redoes this one's workloads");
        }
    }

    /**
     * Exclusive creation with the whole content in place: the content is written to a file of this run's own, then
     * hard-linked to the lock's name (link(2) fails atomically if the name exists), so no reader ever sees a
     * half-written lock. Other file systems: create without overwrite (atomic on HDFS; best effort on S3A).
     */
    private static boolean tryCreate(FileSystem fs, Path path, Properties content, String runId) throws IOException {
        if (fs instanceof LocalFileSystem) {
            // java.nio's Path and (below) Hadoop's FileAlreadyExistsException stay qualified: the imported ones are the
            // other two.
            java.nio.file.Path lock = local(path);
            java.nio.file.Path mine = lock.resolveSibling("_lock.new." + runId);
            try (OutputStream out = Files.newOutputStream(mine)) {
                content.store(out, "tracelake warehouse lock");
            }
            try {
                Files.createLink(lock, mine);
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            } finally {
                Files.deleteIfExists(mine);
            }
        }
        try (OutputStream out = fs.create(path, false)) {
            content.store(out, "tracelake warehouse lock");
            return true;
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            return false;
        }
    }

    /** Renames {@code from} to {@code to}; false when {@code from} is gone (another writer moved it first). */
    private static boolean rename(FileSystem fs, Path from, Path to) throws IOException {
        if (fs instanceof LocalFileSystem) {
            try {
                Files.move(local(from), local(to), StandardCopyOption.ATOMIC_MOVE);
                return true;
            } catch (NoSuchFileException e) {
                return false;
            }
        }
        return fs.rename(from, to);
    }

    /** Puts a lock moved aside back under its name, unless a new one is there already. */
    private static boolean linkBack(FileSystem fs, Path aside, Path path) throws IOException {
        if (fs instanceof LocalFileSystem) {
            try {
                Files.createLink(local(path), local(aside));
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        }
        return !fs.exists(path) && fs.rename(aside, path);
    }

    private static java.nio.file.Path local(Path p) {
        return Paths.get(p.toUri().getPath());
    }

    /** A lock file's owner, as read, with the file's modification time (its last heartbeat). */
    private record Holder(Properties props, long modifiedAtMs) {
        static Holder read(FileSystem fs, Path path) {
            try {
                long modified = fs.getFileStatus(path).getModificationTime();
                return new Holder(WarehouseLock.read(fs, path), modified);
            } catch (IOException e) {
                return null; // gone
            }
        }

        String staleness(Duration staleAfter) {
            return WarehouseLock.staleness(props, modifiedAtMs, staleAfter);
        }

        boolean sameOwner(Holder other) {
            return Objects.equals(props.getProperty("run_id"), other.props.getProperty("run_id"))
                    && Objects.equals(props.getProperty("started_at"), other.props.getProperty("started_at"));
        }

        String who() {
            return "tracelake " + props.getProperty("command", "refresh") + ", run " + props.getProperty("run_id", "?")
                    + " on " + props.getProperty("host", "?") + " (pid " + props.getProperty("pid", "?") + "), started "
                    + props.getProperty("started_at", "?");
        }
    }

    /**
     * Keeps a live run's lock fresh (issue 29 item 4: a refresh longer than {@code lockStaleAfterHours} lost its lock
     * by age alone): a daemon thread touches the lock file's modification time every quarter of the stale age (at
     * most every minute), and age is judged from that time. A run that finds its lock gone stops beating;
     * {@link #checkHeld} then stops it before it changes tables.
     */
    private final class Heartbeat {
        private final long intervalMs;
        private final Thread thread;

        Heartbeat(Duration staleAfter) {
            this.intervalMs = Math.max(50, Math.min(60_000, staleAfter.toMillis() / 4));
            this.thread = new Thread(this::beat, "tracelake-lock-heartbeat");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private void beat() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(intervalMs);
                    if (!held()) {
                        LOG.error(
                                "the warehouse lock {} is no longer this run's ({}): this run will stop before it"
                                        + " changes any table",
                                path,
                                runId);
                        return;
                    }
                    fs.setTimes(path, System.currentTimeMillis(), -1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                LOG.warn("could not refresh the warehouse lock {}: {}", path, e.toString());
            }
        }

        void stop() {
            thread.interrupt();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Properties read(FileSystem fs, Path path) {
        Properties p = new Properties();
        try (InputStream in = fs.open(path)) {
            p.load(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            // a lock being written or just deleted: treat as held by an unknown owner
        }
        return p;
    }

    /** Why the holder is stale, or null when it may be alive. */
    static String staleness(Properties holder, long lastBeatMs, Duration staleAfter) {
        long last = lastBeatMs;
        String started = holder.getProperty("started_at");
        if (started != null) {
            try {
                last = Math.max(last, Instant.parse(started).toEpochMilli());
            } catch (RuntimeException ignored) {
                // unreadable time: judge by the heartbeat and the process
            }
        }
        if (last > 0 && Instant.ofEpochMilli(last).plus(staleAfter).isBefore(Instant.now())) {
            return "no sign of life for over " + staleAfter.toHours() + " h";
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
        heartbeat.stop();
        Properties holder = read(fs, path);
        if (runId.equals(holder.getProperty("run_id"))) fs.delete(path, false);
    }
}
