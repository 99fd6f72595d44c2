package org.tracelake.jobs.cli;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.ingest.IngestRun;
import org.tracelake.jobs.ingest.Progress;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Read every workload of an archive into the workloads, trace_files and events tables.")
public final class IngestCommand implements Callable<Integer> {
    @Option(names = {"-a", "--archive"}, defaultValue = "data", paramLabel = "URI",
            description = "Archive root: one folder per workload (any Hadoop file system URI). Default: ${DEFAULT-VALUE}")
    String archive;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME",
            description = "Only these workloads (comma-separated).")
    Set<String> workloads = new LinkedHashSet<>();

    @Mixin WarehouseOption warehouseOption;
    @Mixin SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        SparkSession spark = sparkOptions.session("tracelake ingest");
        try {
            Warehouse warehouse = new Warehouse(warehouseOption.warehouse, spark.sparkContext().hadoopConfiguration());
            String runId = RunIds.newId();
            IngestRun run = new IngestRun(spark, warehouse, runId, Limits.from(spark));
            List<WorkloadFolder> selected = IngestRun.select(run.scan(archive), workloads);
            Progress.info("run " + runId + ": " + selected.size() + " workloads in " + archive);
            List<WorkloadIngest> results = run.ingestAndCommit(selected);
            printSummary(warehouse, results);
            return results.stream().allMatch(WorkloadIngest::ok) ? ExitCodes.OK : ExitCodes.PARTIAL;
        } finally {
            spark.stop();
        }
    }

    static void printSummary(Warehouse warehouse, List<WorkloadIngest> results) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-32s %6s %6s %14s  %s%n", "workload", "files", "ranks", "events", "status");
        for (WorkloadIngest r : results) {
            long ranks = r.files().stream().filter(f -> f.rank != null).map(f -> f.rank).distinct().count();
            System.out.printf(Locale.ROOT, "%-32s %6d %6d %,14d  %s%n", r.workload(), r.files().size(), ranks,
                    r.events(), r.ok() ? "ok" : "FAILED: " + String.join("; ", r.problems()));
        }
        System.out.println();
        for (String t : List.of(Tables.WORKLOADS, Tables.TRACE_FILES, Tables.EVENTS)) {
            System.out.println("  " + t + ": " + warehouse.table(t));
        }
    }
}
