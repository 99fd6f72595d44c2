package org.tracelake.jobs.readers;

import java.io.Serializable;

/**
 * One input file to read on an executor: where it is, what the driver's listing said about it, and the rank to
 * use when neither the content nor the name says (its position among the workload's files, METRICS.md §1).
 *
 * @param archiveRoot the archive the file was listed in, which the file must still lie in when it is opened (a link
 *                    planted after the scan is not followed out of it); null when the file was named directly
 */
public record FileTask(
        String workload,
        String path,
        long sizeBytes,
        long modifiedAtMs,
        TraceFormat format,
        int fileOrderRank,
        InputLimits limits,
        String runId,
        String archiveRoot)
        implements Serializable {

    /** A file named directly (a data source read, a test): no archive to stay inside. */
    public FileTask(
            String workload,
            String path,
            long sizeBytes,
            long modifiedAtMs,
            TraceFormat format,
            int fileOrderRank,
            InputLimits limits,
            String runId) {
        this(workload, path, sizeBytes, modifiedAtMs, format, fileOrderRank, limits, runId, null);
    }

    public String fileName() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
