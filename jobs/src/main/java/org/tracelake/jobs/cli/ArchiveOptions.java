package org.tracelake.jobs.cli;

import java.util.LinkedHashSet;
import java.util.Set;
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
}
