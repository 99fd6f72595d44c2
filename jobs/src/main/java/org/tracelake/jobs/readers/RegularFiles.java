package org.tracelake.jobs.readers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Opens an input file only when it is a regular file at the moment it is opened, not merely when the archive was
 * listed (issue 45 item 2): a trace replaced by a FIFO after the scan blocked the driver forever in its first read,
 * and the lock's heartbeat kept every later run out. On a local or mounted disk the file's type is read just before
 * the open (a FIFO, socket or device is refused without being opened) and its identity (device and inode) again
 * just after, so a file swapped in between is closed unread. Other file systems (HDFS, S3) hold only files and
 * folders, and are opened as they are.
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
        InputStream in = fs.open(p, bufferSize);
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

    /** Why a path that is no regular file any more is not opened. */
    static String notRegular(Path p) {
        return "not a regular file (a FIFO, socket or device took the place of " + p.getName()
                + " after the archive was scanned): not opened, since reading it could wait forever; replace it"
                + " with the file itself";
    }
}
