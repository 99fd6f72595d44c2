package org.tracelake.jobs.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes a report file on any Hadoop file system, through a temporary file and a rename (never half a file). The
 * temporary file has a random name and is created exclusively (issue 45 item 5: a fixed {@code .<name>.tmp} followed
 * a link planted there and overwrote a file outside the output folder); the rename replaces a link at the target's
 * name rather than writing through it.
 */
public final class ReportFileWriter {
    private ReportFileWriter() {}

    public static String write(Configuration conf, String target, String content) throws IOException {
        Path path = new Path(target);
        if (path.toUri().getScheme() == null || "file".equals(path.toUri().getScheme())) {
            // a local file: plain java.nio (Hadoop's local file system would leave a .crc file beside it); its Path
            // stays qualified, as Path here is Hadoop's
            java.nio.file.Path file =
                    java.nio.file.Path.of(path.toUri().getPath()).toAbsolutePath();
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            // the folder as the file system resolves it (`--out ../compare` is printed as the folder it names, not
            // as …/tracelake/../compare; a link in the path is followed as the write follows it)
            java.nio.file.Path dir = (file.getParent() != null
                            ? file.getParent()
                            : file.toAbsolutePath().getParent())
                    .toRealPath();
            file = dir.resolve(file.getFileName());
            // createTempFile: a new random name, created with O_EXCL, which fails on anything already there (a link
            // included) and follows no link
            java.nio.file.Path tmp = Files.createTempFile(dir, ".report-", ".tmp");
            try {
                try (OutputStream out = Files.newOutputStream(
                        tmp,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS)) {
                    out.write(content.getBytes(StandardCharsets.UTF_8));
                }
                if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                    // a report is for reading by others, as a file written the ordinary way would be (a temporary file
                    // is
                    // made owner-only)
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
                }
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
            return file.toString();
        }
        FileSystem fs = path.getFileSystem(conf);
        Path qualified = fs.makeQualified(path);
        if (qualified.getParent() != null) fs.mkdirs(qualified.getParent());
        Path tmp = new Path(qualified.getParent(), ".report-" + UUID.randomUUID() + ".tmp");
        try (OutputStream out = fs.create(tmp, false)) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        if (fs.exists(qualified)) fs.delete(qualified, false);
        if (!fs.rename(tmp, qualified)) throw new IOException("could not rename " + tmp + " to " + qualified);
        return qualified.toString();
    }

    /**
     * A file name for a workload: its name with anything but letters, digits, '.', '_' and '-' replaced, and, when
     * something was replaced, a short hash of the whole name, so that "a b" and "a_b" never share a page.
     */
    public static String fileName(String workload, String suffix) {
        String safe = workload.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.startsWith(".")) safe = "_" + safe.substring(1);
        if (!safe.equals(workload)) safe += "-" + shortHash(workload);
        return safe + suffix;
    }

    private static String shortHash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JVM has SHA-256
        }
    }
}
