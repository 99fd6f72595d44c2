package org.tracelake.jobs.readers.nsys;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.RegularFiles;
import org.tracelake.jobs.readers.TraceInput;

/**
 * A local SQLite file for an input, on the executor that reads it: SQLite reads only local files. A plain file on
 * the local file system is used where it is; a file on HDFS/S3 is copied into a temporary directory with
 * {@link FileSystem#copyToLocalFile}; a gzipped export is decompressed there (within the expansion limit); an
 * {@code .nsys-rep} report is converted there by {@link NsysExport}. {@link #close()} deletes the directory.
 */
final class SqliteSource implements Closeable {
    final File database;
    final String contentHash;
    private final Path tempDir;

    private SqliteSource(File database, String contentHash, Path tempDir) {
        this.database = database;
        this.contentHash = contentHash;
        this.tempDir = tempDir;
    }

    static SqliteSource obtain(FileTask task, Configuration conf, NsysExport exporter) throws IOException {
        // Hadoop's Path stays qualified here: Path in this class is java.nio's (the local temporary files).
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(task.path());
        FileSystem fs = path.getFileSystem(conf);
        File localFile = localFile(fs, path);
        boolean report = isReport(task.fileName());
        Path tempDir = null;
        try {
            File file;
            String hash;
            if (startsWithGzipMagic(fs, path)) {
                tempDir = Files.createTempDirectory("tracelake-nsys-");
                file = tempDir.resolve(report ? "input.nsys-rep" : "input.sqlite")
                        .toFile();
                try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true)) {
                    Files.copy(in, file.toPath(), StandardCopyOption.REPLACE_EXISTING);
                    hash = in.drainAndHash();
                }
            } else if (localFile != null) {
                file = localFile;
                hash = hash(task.path(), conf, task);
            } else {
                tempDir = Files.createTempDirectory("tracelake-nsys-");
                file = tempDir.resolve(report ? "input.nsys-rep" : "input.sqlite")
                        .toFile();
                // useRawLocalFileSystem: no .crc side file next to the copy.
                fs.copyToLocalFile(false, path, new org.apache.hadoop.fs.Path(file.toURI()), true);
                hash = hash(file.toURI().toString(), conf, task);
            }
            if (report) {
                if (tempDir == null) tempDir = Files.createTempDirectory("tracelake-nsys-");
                File exported = tempDir.resolve("export.sqlite").toFile();
                exporter.export(file, exported, task.fileName());
                file = exported;
            }
            return new SqliteSource(file, hash, tempDir);
        } catch (IOException | RuntimeException e) {
            deleteTree(tempDir);
            throw e;
        }
    }

    /** The file itself when it is on the local file system (checksummed or raw), else null. */
    private static File localFile(FileSystem fs, org.apache.hadoop.fs.Path path) {
        if (fs instanceof LocalFileSystem local) return local.pathToFile(path);
        if (fs instanceof RawLocalFileSystem raw) return raw.pathToFile(path);
        return null;
    }

    private static boolean startsWithGzipMagic(FileSystem fs, org.apache.hadoop.fs.Path path) throws IOException {
        try (InputStream in = RegularFiles.open(fs, path)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    /** "sha256:…" of a file's bytes, like every other reader's trace_files.content_hash. */
    private static String hash(String path, Configuration conf, FileTask task) throws IOException {
        try (TraceInput.Opened in = TraceInput.open(path, conf, task.limits(), true)) {
            return in.drainAndHash();
        }
    }

    static boolean isReport(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.endsWith(".nsys-rep") || n.endsWith(".qdrep");
    }

    @Override
    public void close() {
        deleteTree(tempDir);
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is not worth failing a read for
        }
    }
}
