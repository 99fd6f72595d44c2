package org.tracelake.jobs.archive;

import java.io.Serializable;
import java.util.List;

/**
 * One workload as found in the archive: its card(s), every other file below its folder, and the entries the scan
 * refused to open (links that leave the archive or lead nowhere, FIFOs and devices). A listing only: nothing here has
 * been read.
 */
public record WorkloadFolder(
        String name, String path, List<InputFile> cards, List<InputFile> files, List<Refused> refused)
        implements Serializable {

    public WorkloadFolder(String name, String path, List<InputFile> cards, List<InputFile> files) {
        this(name, path, cards, files, List.of());
    }

    /** The archive the folder was found in: every workload folder sits directly below its root. */
    public String archiveRoot() {
        return new org.apache.hadoop.fs.Path(path).getParent().toString();
    }

    /** A file's listing entry: path, size and modification time, as the file system reports them. */
    public record InputFile(String path, long sizeBytes, long modifiedAtMs) implements Serializable {
        public String fileName() {
            int slash = path.lastIndexOf('/');
            return slash < 0 ? path : path.substring(slash + 1);
        }
    }

    /**
     * An entry of the folder that is never opened, and why. {@code error}: someone should look (a dangling link, a
     * loop, a FIFO: a rank may be missing); otherwise it is merely skipped (a link to outside the archive).
     */
    public record Refused(String path, String reason, boolean error) implements Serializable {}
}
