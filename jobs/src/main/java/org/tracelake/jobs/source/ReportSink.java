package org.tracelake.jobs.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.readers.FileReport;

/**
 * Where executors leave the {@link FileReport} of each file they read, so that each file is reported exactly once
 * however often Spark runs its task (a retry, a speculative copy, a lost executor's work redone): the report's file
 * is named by the input's path and written whole under a temporary name, then renamed over any earlier attempt's.
 * Accumulators cannot promise that for the reads of every stage. The driver reads the folder once the job is done.
 */
public final class ReportSink {
    private static final String SUFFIX = ".report";

    private ReportSink() {}

    /** Writes (or replaces) the report of one input file. */
    public static void write(String dir, FileReport report, Configuration conf) throws IOException {
        Path folder = new Path(dir);
        FileSystem fs = folder.getFileSystem(conf);
        String name = fileKey(report.task.path());
        Path tmp = new Path(folder, "." + name + "." + Long.toHexString(System.nanoTime()) + ".tmp");
        try (OutputStream raw = fs.create(tmp, true);
                ObjectOutputStream out = new ObjectOutputStream(raw)) {
            out.writeObject(report);
        }
        Path target = new Path(folder, name + SUFFIX);
        fs.delete(target, false); // an earlier attempt's: same file, same content
        if (!fs.rename(tmp, target)) {
            fs.delete(tmp, false);
            if (!fs.exists(target))
                throw new IOException("could not publish the report of " + report.task.path() + " to " + target);
        }
    }

    /** Every report in the folder, one per input file (none when the folder does not exist). */
    public static List<FileReport> readAll(String dir, Configuration conf) throws IOException {
        Path folder = new Path(dir);
        FileSystem fs = folder.getFileSystem(conf);
        List<FileReport> reports = new ArrayList<>();
        if (!fs.exists(folder)) return reports;
        for (FileStatus f : fs.listStatus(folder)) {
            if (!f.getPath().getName().endsWith(SUFFIX)) continue;
            try (InputStream raw = fs.open(f.getPath());
                    ObjectInputStream in = new ObjectInputStream(raw)) {
                in.setObjectInputFilter(ONLY_REPORTS);
                reports.add((FileReport) in.readObject());
            } catch (ClassNotFoundException | ClassCastException e) {
                throw new IOException("not a file report: " + f.getPath(), e);
            }
        }
        return reports;
    }

    /** The report files hold a FileReport and what it is made of; refuse anything else. */
    private static final ObjectInputFilter ONLY_REPORTS = ObjectInputFilter.Config.createFilter(
            "org.tracelake.jobs.readers.*;java.lang.*;java.util.*;java.lang.Enum;maxdepth=20;!*");

    /** A file name of its own for each input path (a digest: input names are untrusted and may be long). */
    public static String fileKey(String path) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
