package org.tracelake.jobs.readers;

import java.io.Serializable;

/**
 * One input file to read on an executor: where it is, what the driver's listing said about it, and the rank to
 * use when neither the content nor the name says (its position among the workload's files, METRICS.md §1).
 */
public record FileTask(
        String workload,
        String path,
        long sizeBytes,
        long modifiedAtMs,
        TraceFormat format,
        int fileOrderRank,
        InputLimits limits,
        String runId)
        implements Serializable {

    public String fileName() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
