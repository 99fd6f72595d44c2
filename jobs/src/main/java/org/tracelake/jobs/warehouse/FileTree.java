package org.tracelake.jobs.warehouse;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Every file under one of the warehouse's own folders, with its size and modification time. On an object store or
 * HDFS one recursive {@code listFiles} (a paged listing of keys); on a local disk a walk of the folder by the JDK: the
 * local Hadoop file system builds each listed file's owner and permissions by running {@code ls} or {@code stat} in a
 * new process when the native library is absent, which was most of maintenance's time on a local warehouse.
 */
public final class FileTree {
    private FileTree() {}

    /** A file of the tree: its qualified path (as Hadoop spells it, {@code file:/…} on a local disk). */
    public record Entry(Path path, long length, long modificationTime) {
        public String name() {
            return path.getName();
        }
    }

    /** The files under {@code dir} (none when it does not exist); links are not followed. */
    public static List<Entry> files(FileSystem fs, Path dir) throws IOException {
        List<Entry> out = new ArrayList<>();
        if ("file".equals(fs.getScheme())) {
            java.nio.file.Path root =
                    java.nio.file.Path.of(fs.makeQualified(dir).toUri());
            if (!Files.isDirectory(root)) return out;
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(java.nio.file.Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        out.add(new Entry(
                                fs.makeQualified(new Path(file.toUri())),
                                attrs.size(),
                                attrs.lastModifiedTime().toMillis()));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(java.nio.file.Path file, IOException e) throws IOException {
                    if (e instanceof NoSuchFileException) return FileVisitResult.CONTINUE; // removed meanwhile
                    throw e;
                }
            });
            return out;
        }
        if (!fs.exists(dir)) return out;
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            out.add(new Entry(f.getPath(), f.getLen(), f.getModificationTime()));
        }
        return out;
    }
}
