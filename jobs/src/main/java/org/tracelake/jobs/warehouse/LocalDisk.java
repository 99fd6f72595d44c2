package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;

/**
 * The file operations of the warehouse's own data files, done by the JDK when the warehouse is on a local disk and by
 * Hadoop's file system otherwise. Without Hadoop's native library (the usual case: it is not on Maven Central), the
 * local Hadoop file system sets the permissions of every file it creates, of its checksum side file and of every
 * folder it makes by running {@code chmod} in a new process: about 35 ms a file on a 2-core machine, more than writing
 * a small Parquet file, and a workload's refresh writes about eleven. The JDK creates them with the process's umask,
 * as {@code chmod} would have left them, and writes no checksum side file (Hadoop reads a file without one as it is).
 */
public final class LocalDisk {
    private LocalDisk() {}

    /** Whether {@code fs} is the local file system, whose files the JDK can write directly. */
    static boolean isLocal(FileSystem fs) {
        return "file".equals(fs.getUri().getScheme()); // not getScheme(): RawLocalFileSystem does not implement it
    }

    /** The local path of a path of the local file system. */
    static java.nio.file.Path local(FileSystem fs, Path p) {
        return java.nio.file.Path.of(fs.makeQualified(p).toUri());
    }

    /** Makes the folder and its parents. */
    public static void mkdirs(FileSystem fs, Path dir) throws IOException {
        if (isLocal(fs)) Files.createDirectories(local(fs, dir));
        else fs.mkdirs(dir);
    }

    /** A new file for a Parquet writer (its folder made). */
    static OutputFile output(FileSystem fs, Path file, Configuration conf) throws IOException {
        if (!isLocal(fs)) return HadoopOutputFile.fromPath(file, conf);
        java.nio.file.Path p = local(fs, file);
        Files.createDirectories(p.getParent());
        return new LocalOutputFile(p);
    }

    /**
     * Moves {@code from} to {@code to} unless {@code to} exists (then {@code from} is deleted); false when neither
     * happened.
     */
    static boolean moveUnlessThere(FileSystem fs, Path from, Path to) throws IOException {
        if (!isLocal(fs)) {
            if (fs.rename(from, to)) return true;
            fs.delete(from, false);
            return fs.exists(to);
        }
        java.nio.file.Path target = local(fs, to);
        try {
            Files.move(local(fs, from), target); // no REPLACE_EXISTING: an existing file stays as it is
            return true;
        } catch (java.nio.file.FileAlreadyExistsException e) {
            Files.deleteIfExists(local(fs, from));
            return true;
        }
    }

    /**
     * A new file for plain bytes, created exclusively: it fails rather than write through anything already at its
     * name (a link planted there). On a local disk no checksum side file is written: its name, {@code .<name>.crc},
     * is ten bytes longer than the file's, and a workload's export named after a workload whose name just fits a
     * folder would not fit (issue 45).
     */
    public static java.io.OutputStream create(FileSystem fs, Path file) throws IOException {
        if (!isLocal(fs)) return fs.create(file, false);
        return Files.newOutputStream(local(fs, file), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** Puts {@code from} in the place of {@code to}, replacing it: atomically on a local disk, where it can be. */
    public static void replace(FileSystem fs, Path from, Path to) throws IOException {
        if (!isLocal(fs)) {
            if (fs.exists(to)) fs.delete(to, false);
            if (!fs.rename(from, to)) throw new IOException("could not rename " + from + " to " + to);
            return;
        }
        java.nio.file.Path target = local(fs, to);
        Files.move(local(fs, from), target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        // a checksum side file an earlier release's write left would no longer match the new content
        try {
            Files.deleteIfExists(target.resolveSibling("." + target.getFileName() + ".crc"));
        } catch (java.nio.file.FileSystemException e) {
            // a name too long to have a side file has none
        }
    }

    /** Deletes a file if it is there. */
    public static void delete(FileSystem fs, Path file) throws IOException {
        if (isLocal(fs)) Files.deleteIfExists(local(fs, file));
        else fs.delete(file, false);
    }
}
