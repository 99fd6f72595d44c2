package org.tracelake.jobs.archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * The rule that a file is read only from inside its archive, applied twice: by the scan ({@link LocalWalk}) to the
 * links it finds, and again as each file is opened (issue 45 item 3: a file replaced by a link to outside the archive
 * after the scan was followed, and the outside file's content landed in {@code events}). A link out of the archive is
 * skipped, or an error when it stands where a trace was (then a rank may be missing, and the workload says so).
 */
public final class InsideArchive {
    private InsideArchive() {}

    /** A path that leads out of its archive: why it is not read, and whether a trace (a rank) is missing for it. */
    public record Outside(String reason, boolean rankMayBeMissing) {}

    /**
     * Whether the file, as it is now, leads out of the archive (null: it does not, or it is not on a local disk, or
     * there is no archive, or it cannot be resolved — then its open says why).
     */
    public static Outside check(String path, String archiveRoot, Configuration conf) throws IOException {
        if (archiveRoot == null) return null;
        Path p = new Path(path);
        FileSystem fs = p.getFileSystem(conf);
        if (!"file".equals(fs.getUri().getScheme())) return null; // HDFS and S3 hold no links out
        java.nio.file.Path real;
        java.nio.file.Path root;
        try {
            real = Paths.get(fs.makeQualified(p).toUri()).toRealPath();
            root = Paths.get(fs.makeQualified(new Path(archiveRoot)).toUri()).toRealPath();
        } catch (IOException e) {
            return null;
        }
        if (real.startsWith(root)) return null;
        return outside(p.getName(), Files.isRegularFile(real), " (it became one after the archive was scanned)");
    }

    /**
     * Why an entry that links out of the archive is not read. {@code file}: it leads to a file, so when its name is a
     * trace's, a rank may be missing (an error, which the workload's status carries); a folder or a name that is no
     * trace's is merely skipped.
     */
    static Outside outside(String name, boolean file, String when) {
        TraceFormat named = FormatDetector.byName(name);
        boolean trace = file && named != null && TraceFormat.isTrace(named.id());
        return new Outside(
                "a link to outside the archive" + when + ": not read; copy the file into the archive if it belongs to"
                        + " this workload" + (trace ? "; a rank may be missing" : ""),
                trace);
    }
}
