package org.tracelake.jobs.cli;

import java.util.concurrent.Callable;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.spark.Settings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "refresh",
        mixinStandardHelpOptions = true,
        footer = ArchiveOptions.EXIT_CODES,
        description = {
            "Ingest an archive and compute every metric: the main job.",
            "Each workload's new tables are written aside and swapped in whole once its metrics are done;",
            "a workload that fails keeps its previous tables."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every workload refreshed (or nothing changed)",
            "3:some workloads or files failed; everything else was committed (the summary and trace_files say what and why)",
            "1:the run itself failed; nothing new was committed",
            "2:a usage error (one line on standard error): nothing was done",
            "75:another writer holds the warehouse; nothing was done, try later"
        })
public final class RefreshCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archiveOptions;

    @Option(names = "--full", description = "Refresh every workload, changed or not.")
    boolean full;

    @Option(
            names = "--check",
            description =
                    "First verify the warehouse's data files (as `tracelake check` does) and recompute the"
                            + " workloads whose files are damaged; a refresh does this by itself on the day maintenance is due.")
    boolean check;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        String runId = RunIds.newId();
        LockedSparkCommand command = new LockedSparkCommand("refresh", warehouseOption, sparkOptions);
        archiveOptions.checkRoot(command.warehouse().conf()); // before the lock and Spark: nothing done yet
        return command.locked(runId, (lock, tables) -> {
            Refresh.Result result = new Refresh(tables, runId, InputLimits.from(Settings.of(tables.spark())))
                    .allowRemovals(archiveOptions.allowRemovals)
                    .checkFirst(check)
                    .run(lock, archiveOptions.archive, archiveOptions.workloads, full);
            RunSummary.print(tables, result);
            return result.allOk() ? ExitCodes.OK : ExitCodes.PARTIAL;
        });
    }
}
