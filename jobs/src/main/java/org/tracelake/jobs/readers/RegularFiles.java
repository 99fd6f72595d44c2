package org.tracelake.jobs.readers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Opens an input file only when it is a regular file at the moment it is opened, not merely when the archive was
 * listed (issue 45 item 2): a trace replaced by a FIFO after the scan blocked the driver forever in its first read,
 * and the lock's heartbeat kept every later run out. On a local or mounted disk the file's type is read just before
 * the open (a FIFO, socket or device is refused without being opened) and its identity (device and inode) again
 * just after, so a file swapped in between is closed unread. Between the type check and the open a FIFO swapped in
 * would still block the open itself (Java has no non-blocking open), so the open runs on a helper thread that the
 * caller watches: while it has not returned, the path's type is read again every {@link #WATCH_MILLIS} ms, and once
 * the path is no regular file the caller gives up with the same refusal, leaving the helper thread (a daemon) blocked
 * in an open that no longer holds anything up. A slow open of a regular file is waited for, however long. Other file
 * systems (HDFS, S3) hold only files and folders, and are opened as they are.
 */
public final class RegularFiles {
    private RegularFiles() {}

    public static InputStream open(FileSystem fs, Path p) throws IOException {
        return open(fs, p, fs.getConf().getInt("io.file.buffer.size", 4096));
    }

    public static InputStream open(FileSystem fs, Path p, int bufferSize) throws IOException {
        if (!"file".equals(fs.getUri().getScheme())) return fs.open(p, bufferSize);
        java.nio.file.Path local = Paths.get(fs.makeQualified(p).toUri());
        BasicFileAttributes before = Files.readAttributes(local, BasicFileAttributes.class); // through links
        if (!before.isRegularFile()) throw new InputRefusedException(notRegular(p));
        InputStream in = watchedOpen(fs, p, local, bufferSize);
        BasicFileAttributes after;
        try {
            after = Files.readAttributes(local, BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        if (!after.isRegularFile() || !Objects.equals(before.fileKey(), after.fileKey())) {
            in.close();
            throw new InputRefusedException("replaced by another file while it was being opened: not read; the"
                    + " next run reads it again (" + p.getName() + ")");
        }
        return in;
    }

    /** How often a pending open looks at the path's type again. */
    static final long WATCH_MILLIS = 200;

    /** Daemon threads for opens: one blocked by a FIFO never keeps the JVM from exiting. */
    private static final ExecutorService OPENS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tracelake-open");
        t.setDaemon(true);
        return t;
    });

    /**
     * {@code fs.open} on a helper thread, given up when the path stops being a regular file while the open is pending
     * (a FIFO's open waits for a writer that may never come). Package-private for the test that opens a FIFO here.
     */
    static InputStream watchedOpen(FileSystem fs, Path p, java.nio.file.Path local, int bufferSize) throws IOException {
        AtomicBoolean abandoned = new AtomicBoolean();
        Future<InputStream> pending = OPENS.submit(() -> {
            InputStream in = fs.open(p, bufferSize);
            if (abandoned.get()) { // given up on (a writer came to the FIFO at last): nothing reads it
                in.close();
                return null;
            }
            return in;
        });
        while (true) {
            try {
                return pending.get(WATCH_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (!Files.isRegularFile(local)) {
                    abandoned.set(true);
                    if (pending.isDone()) closeQuietly(pending); // it returned between the wait and the flag
                    throw new InputRefusedException(notRegular(p));
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) throw io;
                if (e.getCause() instanceof RuntimeException r) throw r;
                throw new IOException(e.getCause());
            } catch (InterruptedException e) {
                abandoned.set(true);
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while opening " + p.getName());
            }
        }
    }

    private static void closeQuietly(Future<InputStream> done) {
        try {
            InputStream in = done.get();
            if (in != null) in.close();
        } catch (Exception ignored) { // nothing was read from it, and nobody waits for it any more
        }
    }

    /** Why a path that is no regular file any more is not opened. */
    static String notRegular(Path p) {
        return "not a regular file (a FIFO, socket or device took the place of " + p.getName()
                + " after the archive was scanned): not opened, since reading it could wait forever; replace it"
                + " with the file itself";
    }
}
