package org.tracelake.jobs.archive;

import java.io.Serializable;
import java.util.List;

/**
 * One workload as found in the archive: its card(s) and every other file below its folder. A listing only:
 * nothing here has been read.
 */
public record WorkloadFolder(String name, String path, List<InputFile> cards, List<InputFile> files)
        implements Serializable {

    /** A file's listing entry: path, size and modification time, as the file system reports them. */
    public record InputFile(String path, long sizeBytes, long modifiedAtMs) implements Serializable {
        public String fileName() {
            int slash = path.lastIndexOf('/');
            return slash < 0 ? path : path.substring(slash + 1);
        }
    }
}
