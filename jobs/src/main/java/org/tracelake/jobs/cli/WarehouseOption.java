package org.tracelake.jobs.cli;

import picocli.CommandLine.Option;

/** Where the warehouse lives. */
public final class WarehouseOption {
    @Option(
            names = {"-w", "--warehouse"},
            defaultValue = "warehouse",
            paramLabel = "URI",
            description = "Warehouse root (any Hadoop file system URI). Default: ${DEFAULT-VALUE}")
    public String warehouse;
}
