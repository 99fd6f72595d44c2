package org.tracelake.jobs.spark;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ({@code file:}), checksums and all, that sets a file's or folder's permissions through the
 * JDK instead of a {@code chmod} process. Without Hadoop's native library (not on Maven Central, so the usual case),
 * Hadoop's local file system runs {@code chmod} in a new process for every file it creates, for the file's checksum
 * file and for every folder it makes: about 35 ms each on a 2-core machine. An Iceberg commit to a table on the local
 * disk writes four files (manifest, manifest list, metadata, version hint) and their checksums, so eight processes a
 * commit, a run's commits a few hundred; Spark's own writes are as many again. The permissions set are the same
 * ({@code chmod} of the same mode); a mode with a bit the JDK does not set (sticky, setuid), or a file system without
 * POSIX permissions, still goes to {@code chmod}. {@link SparkSessions#conf} makes it the {@code file:} file system
 * ({@code fs.file.impl}) unless the configuration names another.
 */
public final class NoForkLocalFileSystem extends LocalFileSystem {
    /** The Hadoop setting that names the implementation of {@code file:}. */
    public static final String KEY = "fs.file.impl";

    public NoForkLocalFileSystem() {
        super(new Raw());
    }

    /** The raw local file system under the checksums, with {@link #setPermission} done by the JDK. */
    static final class Raw extends RawLocalFileSystem {
        private static final boolean POSIX =
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

        @Override
        public void setPermission(Path p, FsPermission permission) throws IOException {
            if (!POSIX || permission.getStickyBit() || permission.toShort() > 0777) {
                super.setPermission(p, permission);
                return;
            }
            Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(permission));
        }

        static Set<PosixFilePermission> posix(FsPermission permission) {
            Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
            add(
                    out,
                    permission.getUserAction(),
                    PosixFilePermission.OWNER_READ,
                    PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_EXECUTE);
            add(
                    out,
                    permission.getGroupAction(),
                    PosixFilePermission.GROUP_READ,
                    PosixFilePermission.GROUP_WRITE,
                    PosixFilePermission.GROUP_EXECUTE);
            add(
                    out,
                    permission.getOtherAction(),
                    PosixFilePermission.OTHERS_READ,
                    PosixFilePermission.OTHERS_WRITE,
                    PosixFilePermission.OTHERS_EXECUTE);
            return out;
        }

        private static void add(
                Set<PosixFilePermission> out,
                FsAction action,
                PosixFilePermission read,
                PosixFilePermission write,
                PosixFilePermission execute) {
            if (action.implies(FsAction.READ)) out.add(read);
            if (action.implies(FsAction.WRITE)) out.add(write);
            if (action.implies(FsAction.EXECUTE)) out.add(execute);
        }
    }
}
