package org.tracelake.jobs.cli;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.refresh.RemovalGuard;
import picocli.CommandLine.Option;

/** Which archive a writing job reads, and which of its workloads: the options refresh and ingest share. */
public final class ArchiveOptions {
    @Option(
            names = {"-a", "--archive"},
            defaultValue = "data",
            paramLabel = "URI",
            description =
                    "Archive root: one folder per workload (any Hadoop file system URI). Default: ${DEFAULT-VALUE}")
    String archive;

    @Option(
            names = "--workloads",
            split = ",",
            paramLabel = "NAME",
            description = "Only these workloads (comma-separated).")
    Set<String> workloads = new LinkedHashSet<>();

    @Option(
            names = RemovalGuard.OPTION,
            description = "Let the run remove workloads whose folder is gone even when that is all of them or more "
                    + "than half, when the archive holds no workload folder, or when --archive is not the last run's "
                    + "archive (each refused otherwise, exit 2, nothing done).")
    boolean allowRemovals;

    /**
     * The archive root's checks that come before the lock and Spark: a missing root, a file, or (without
     * {@value RemovalGuard#OPTION}) a root holding no workload folder is a usage error.
     */
    void checkRoot(Configuration conf) throws IOException {
        RemovalGuard.checkRoot(archive, conf, allowRemovals);
    }

    /** The exit codes refresh and ingest end with, for a scheduler (their help's footer). */
    static final String EXIT_CODES = "%nExit codes: 0 everything done; 3 some workloads or files failed (the rest"
            + " committed); 1 the run failed (nothing new committed); 2 a usage error, nothing done (a bad option"
            + " or setting, a missing or empty archive, a run that would remove most workloads: see "
            + RemovalGuard.OPTION + "); 75 another writer holds the warehouse (nothing done; try later).";
}
