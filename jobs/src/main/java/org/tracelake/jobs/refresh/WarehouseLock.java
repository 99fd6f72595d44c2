package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * One writer per warehouse at a time: {@code <warehouse>/_lock} records the owner (command, host, pid, run) and start
 * time; a live run touches the file's modification time (its heartbeat). Every command that writes the warehouse takes it (refresh, ingest, and export or report when their output goes
 * under the warehouse); a second writer, whatever its command, finds it and stops at once. A lock is stale — and taken over, with a warning — when
 * its process is gone (same host) or its last heartbeat is older than {@code spark.tracelake.lockStaleAfterHours} (default 24).
 * Creation is atomic on local disks (create-new), HDFS (create without overwrite) and S3 (a conditional put,
 * {@code If-None-Match: *}, which S3 and S3A since Hadoop 3.4.2 offer; see docs/RELIABILITY.md). On S3, whose objects
 * have no settable modification time, the heartbeat rewrites the lock (same content, a new modification time).
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
     * <p>Taking over a stale lock gives exactly one winner among any number of writers that found it (issue 45 item
     * 6: renaming the stale file aside was exact for two writers only; with three, one writer could move a lock that
     * a second had just taken, and a third create its own before it was put back). On a local disk the takeover is a
     * critical section: a writer holds an OS file lock on {@code _lock.takeover} (released by the kernel if the
     * process dies, so it can never wedge), reads {@code _lock} again, and only if it is still the stale lock it judged
     * deletes it and creates its own; every later taker then finds a live lock. Creating a lock where there is none
     * stays one atomic step outside the section. Other file systems (HDFS) keep the rename-aside takeover, exact for
     * two writers.
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
        for (int attempt = 0; attempt < 5; attempt++) {
            if (tryCreate(fs, path, me, runId)) return started(fs, path, runId, staleAfter);
            Holder holder = Holder.read(fs, path);
            if (holder == null) continue; // gone between the create and the read: try again
            String stale = holder.staleness(staleAfter);
            if (stale == null) throw new HeldException(holder.heldMessage(path));
            if (fs instanceof LocalFileSystem) {
                if (takeOverLocally(fs, path, holder, staleAfter, me, runId)) {
                    LOG.warn("took over a stale lock ({}): {}", stale, holder.who(path));
                    return started(fs, path, runId, staleAfter);
                }
                continue; // another writer took it over first: see what is there now
            }
            Path aside = new Path(path.getParent(), "_lock.takeover." + runId);
            if (!rename(fs, path, aside)) continue; // another writer moved it first: see what is there now
            Holder moved = Holder.read(fs, aside);
            if (moved == null || !moved.sameOwner(holder) || moved.staleness(staleAfter) == null) {
                // not the stale lock we judged: a live writer's, taken in between. Put it back, and stop.
                boolean restored = moved != null && linkBack(fs, aside, path);
                fs.delete(aside, false);
                throw new HeldException("another writer took " + path + " at the same moment"
                        + (moved != null ? ": " + moved.who(path) : "")
                        + (restored ? "" : " (its lock could not be put back)")
                        + ". Try again later.");
            }
            LOG.warn("taking over a stale lock ({}): {}", stale, holder.who(path));
            fs.delete(aside, false);
        }
        throw new HeldException(
                "could not take " + path + ": other writers took it at the same moment. Try again later.");
    }

    private static WarehouseLock started(FileSystem fs, Path path, String runId, Duration staleAfter) {
        WarehouseLock lock = new WarehouseLock(fs, path, runId, staleAfter);
        lock.heartbeat.start();
        return lock;
    }

    /** How long a writer waits for another's takeover of a stale lock before it looks again. */
    private static final long TAKEOVER_WAIT_MS = 30_000;

    /**
     * The local takeover's critical section (see {@link #acquire}): true when this writer replaced the stale lock
     * {@code judged} by its own; false when, by the time it held the section, the lock was no longer that one.
     */
    private static boolean takeOverLocally(
            FileSystem fs, Path path, Holder judged, Duration staleAfter, Properties me, String runId)
            throws IOException {
        java.nio.file.Path guard = local(path).resolveSibling("_lock.takeover");
        try (FileChannel channel = FileChannel.open(
                guard, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock section = enter(channel, guard);
            try {
                Holder now = Holder.read(fs, path);
                if (now != null) {
                    if (!now.sameOwner(judged) || now.staleness(staleAfter) == null) return false;
                    Files.deleteIfExists(local(path));
                }
                return tryCreate(fs, path, me, runId);
            } finally {
                section.release();
            }
        }
    }

    /**
     * Holds the OS lock on the takeover file. Another thread of this JVM inside the section shows as
     * OverlappingFileLockException (Java tracks the JVM's file locks itself): wait for it as for another process.
     */
    private static FileLock enter(FileChannel channel, java.nio.file.Path guard) throws IOException {
        long deadline = System.nanoTime() + TAKEOVER_WAIT_MS * 1_000_000;
        while (true) {
            try {
                FileLock l = channel.tryLock();
                if (l != null) return l;
            } catch (OverlappingFileLockException inThisJvm) {
                // another thread of this process is taking over: wait below
            }
            if (System.nanoTime() > deadline) {
                throw new HeldException("another writer has been taking over the stale lock for over "
                        + TAKEOVER_WAIT_MS / 1000 + " s (" + guard + " is locked). Try again later.");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while waiting for " + guard);
            }
        }
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
        if (objectStore(fs, path)) return tryCreateObject(fs, path, content);
        try (OutputStream out = fs.create(path, false)) {
            content.store(out, "tracelake warehouse lock");
            return true;
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            return false;
        }
    }

    /**
     * Whether the file system is an object store (S3A): its files appear whole when their writer closes them, and a
     * stream can be abandoned ({@link CommonPathCapabilities#ABORTABLE_STREAM}). There, {@code create(path, false)} is
     * a look then a put, two writers can both pass the look; the lock is made by a conditional put instead.
     */
    static boolean objectStore(FileSystem fs, Path path) throws IOException {
        return fs.hasPathCapability(path, CommonPathCapabilities.ABORTABLE_STREAM);
    }

    /**
     * The lock as one conditional put ({@code If-None-Match: *}): the store creates it only if no object has the
     * name, atomically, whichever writer's request comes first; the other's fails at close.
     */
    private static boolean tryCreateObject(FileSystem fs, Path path, Properties content) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        content.store(bytes, "tracelake warehouse lock");
        FSDataOutputStreamBuilder<?, ?> create = fs.createFile(path).overwrite(false);
        create.must(Options.CreateFileOptionKeys.FS_OPTION_CREATE_CONDITIONAL_OVERWRITE, true);
        FSDataOutputStream out = create.build();
        try {
            out.write(bytes.toByteArray());
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
        try {
            out.close(); // the put: refused when the name exists
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

    /**
     * How old a lock whose content is not a tracelake lock (no run id or start time: garbage, or a file some other tool
     * left) must be before it counts as stale. A tracelake lock is never seen half-written on a local disk (it is
     * linked into place whole); on HDFS it is empty for the moment between its create and its write, far less than
     * this.
     */
    static final Duration UNREADABLE_STALE_AFTER = Duration.ofMinutes(1);

    /** A lock file's owner, as read, with the file's modification time (its last heartbeat) and its raw content. */
    private record Holder(Properties props, long modifiedAtMs, String raw) {
        static Holder read(FileSystem fs, Path path) {
            try {
                long modified = fs.getFileStatus(path).getModificationTime();
                String raw = WarehouseLock.raw(fs, path);
                Properties p = new Properties();
                try {
                    p.load(new java.io.StringReader(raw));
                } catch (IllegalArgumentException garbage) {
                    p = new Properties(); // a malformed escape: not a tracelake lock
                }
                return new Holder(p, modified, raw);
            } catch (IOException e) {
                return null; // gone
            }
        }

        /** Whether the content is a tracelake lock: a run id and a start time that parses. */
        boolean readable() {
            String started = props.getProperty("started_at");
            if (props.getProperty("run_id") == null || started == null) return false;
            try {
                Instant.parse(started);
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        }

        String staleness(Duration staleAfter) {
            if (!readable()) {
                return Instant.ofEpochMilli(modifiedAtMs)
                                .plus(UNREADABLE_STALE_AFTER)
                                .isBefore(Instant.now())
                        ? "its content is not a tracelake lock, and it is over " + UNREADABLE_STALE_AFTER.toSeconds()
                                + " s old"
                        : null;
            }
            return WarehouseLock.staleness(props, modifiedAtMs, staleAfter);
        }

        boolean sameOwner(Holder other) {
            return raw.equals(other.raw);
        }

        /** What a writer that finds this lock live is told. */
        String heldMessage(Path path) {
            if (!readable()) {
                return path + " is not a tracelake lock (its content has no run id and start time) and is under "
                        + UNREADABLE_STALE_AFTER.toSeconds() + " s old, so it is left alone for now; it is taken over"
                        + " as stale once older. If no tracelake command is writing this warehouse, delete it.";
            }
            return "another writer holds " + path + ": " + who(path)
                    + ". Wait for it to finish; if it is dead on another host, delete the lock file.";
        }

        String who(Path path) {
            if (!readable()) return "unreadable lock " + path;
            return "tracelake " + props.getProperty("command", "refresh") + ", run " + props.getProperty("run_id", "?")
                    + " on " + props.getProperty("host", "?") + " (pid " + props.getProperty("pid", "?") + "), started "
                    + props.getProperty("started_at", "?");
        }
    }

    /** A lock file's content (at most 64 KiB: a lock is a few lines; a huge file is garbage, read no further). */
    private static String raw(FileSystem fs, Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            return new String(in.readNBytes(64 * 1024), StandardCharsets.ISO_8859_1);
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
                    if (objectStore(fs, path)) {
                        // an object's modification time cannot be set: put the same content again
                        byte[] same = raw(fs, path).getBytes(StandardCharsets.ISO_8859_1);
                        try (OutputStream out = fs.create(path, true)) {
                            out.write(same);
                        }
                    } else {
                        fs.setTimes(path, System.currentTimeMillis(), -1);
                    }
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
