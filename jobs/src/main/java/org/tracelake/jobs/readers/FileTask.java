package org.tracelake.jobs.readers;

import java.io.Serializable;

/**
 * One input file to read on an executor: where it is, what the driver's listing said about it, and the rank to
 * use when neither the content nor the name says (its position among the workload's files, METRICS.md §1).
 *
 * @param archiveRoot the archive the file was listed in, which the file must still lie in when it is opened (a link
 *                    planted after the scan is not followed out of it); null when the file was named directly
 * @param renderingOf the path of the file that holds the same profile run in another rendering and is read instead
 *                    (an xprof folder's {@code .trace.json.gz} and {@code perfetto_trace.json.gz} beside its {@code .xplane.pb},
 *                    METRICS.md §1), so this one is listed as skipped; null for a file to read.
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
        String archiveRoot,
        String renderingOf)
        implements Serializable {

    /** A file named directly (a data source read, a test): no archive to stay inside, read as itself. */
    public FileTask(
            String workload,
            String path,
            long sizeBytes,
            long modifiedAtMs,
            TraceFormat format,
            int fileOrderRank,
            InputLimits limits,
            String runId) {
        this(workload, path, sizeBytes, modifiedAtMs, format, fileOrderRank, limits, runId, null, null);
    }

    public String fileName() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
