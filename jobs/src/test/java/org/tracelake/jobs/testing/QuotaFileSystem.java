package org.tracelake.jobs.testing;

import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A disk that fills up, for tests: the local file system under the scheme {@code quotafs:///…} whose files may hold
 * {@code fs.quotafs.quota.bytes} bytes in all (per JVM); the write that goes past it fails as a full disk does, with
 * "No space left on device". Renames, deletes and reads work as on a full disk. Tests run as root here, so a
 * read-only directory would not stop a write; a tiny mounted file system needs privileges the build does not have.
 * Enabled with {@code --conf spark.hadoop.fs.quotafs.impl=org.tracelake.jobs.testing.QuotaFileSystem}.
 */
public final class QuotaFileSystem extends RawLocalFileSystem {
    public static final String SCHEME = "quotafs";
    public static final String QUOTA = "fs.quotafs.quota.bytes";
    private static final AtomicLong WRITTEN = new AtomicLong();

    private long quota = Long.MAX_VALUE;

    @Override
    public void initialize(URI uri, Configuration conf) throws IOException {
        super.initialize(uri, conf);
        quota = conf.getLong(QUOTA, Long.MAX_VALUE);
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public FSDataOutputStream create(
            Path f, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
            throws IOException {
        return counted(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(
            Path f,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        return counted(f, super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream createNonRecursive(
            Path f,
            FsPermission permission,
            EnumSet<CreateFlag> flags,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        return counted(f, super.createNonRecursive(f, permission, flags, bufferSize, replication, blockSize, progress));
    }

    private FSDataOutputStream counted(Path f, FSDataOutputStream out) throws IOException {
        if (quota == Long.MAX_VALUE) return out;
        return new FSDataOutputStream(
                new java.io.FilterOutputStream(out) {
                    @Override
                    public void write(int b) throws IOException {
                        use(1);
                        out.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        use(len);
                        out.write(b, off, len);
                    }

                    private void use(long n) throws IOException {
                        if (WRITTEN.addAndGet(n) > quota) {
                            throw new IOException(
                                    "No space left on device (the " + quota + "-byte test disk is full) writing " + f);
                        }
                    }
                },
                null);
    }
}
