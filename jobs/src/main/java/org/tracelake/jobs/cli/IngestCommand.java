package org.tracelake.jobs.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "ingest",
        mixinStandardHelpOptions = true,
        footer = ArchiveOptions.EXIT_CODES,
        description = {
            "Read the workloads of an archive into the workloads, trace_files and events tables, without "
                    + "computing metrics: a refresh without its metrics phase (same change detection, warehouse lock, "
                    + "atomic swap and run record). A workload it reads loses its old metrics, collectives and collective "
                    + "members, which described other events; the next refresh computes them."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every workload read (or nothing changed)",
            "3:some workloads or files failed; everything else was committed (trace_files says what and why)",
            "1:the run itself failed; nothing new was committed",
            "2:a usage error (one line on standard error): nothing was done",
            "75:another writer holds the warehouse; nothing was done, try later"
        })
public final class IngestCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archiveOptions;

    @Option(names = "--full", description = "Read every workload, changed or not.")
    boolean full;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        String runId = RunIds.newId();
        LockedSparkCommand command = new LockedSparkCommand("ingest", warehouseOption, sparkOptions);
        archiveOptions.checkRoot(command.warehouse().conf()); // before the lock and Spark: nothing done yet
        return command.locked(runId, (lock, tables) -> {
            Refresh.Result result = new Refresh(tables, runId, InputLimits.from(Settings.of(tables.spark())))
                    .allowRemovals(archiveOptions.allowRemovals)
                    .ingestOnly()
                    .run(lock, archiveOptions.archive, archiveOptions.workloads, full);
            printSummary(tables.warehouse(), result.workloads());
            return result.workloads().stream().allMatch(WorkloadIngest::ok) ? ExitCodes.OK : ExitCodes.PARTIAL;
        });
    }

    static void printSummary(Warehouse warehouse, List<WorkloadIngest> results) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-32s %6s %6s %14s  %s%n", "workload", "files", "ranks", "events", "status");
        for (WorkloadIngest r : results) {
            long ranks = r.files().stream()
                    .filter(f -> f.rank != null)
                    .map(f -> f.rank)
                    .distinct()
                    .count();
            System.out.printf(
                    Locale.ROOT,
                    "%-32s %6d %6d %,14d  %s%n",
                    Progress.printable(r.workload()), // a name is data: a newline in it must not start a line
                    r.files().size(),
                    ranks,
                    r.events(),
                    r.ok() ? "ok" : "FAILED: " + Progress.printable(String.join("; ", r.problems())));
        }
        System.out.println();
        for (String t : List.of(Tables.WORKLOADS, Tables.TRACE_FILES, Tables.EVENTS)) {
            System.out.println("  " + t + ": " + warehouse.table(t));
        }
    }
}
