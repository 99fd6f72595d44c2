package org.tracelake.jobs.cli;

import java.util.concurrent.Callable;
import org.tracelake.jobs.refresh.Maintenance;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "maintain",
        mixinStandardHelpOptions = true,
        description = {
            "Keep the warehouse's tables small and few: per table, compact each partition's small data files into one,"
                    + " rewrite the manifests when there are many, expire snapshots older than"
                    + " spark.tracelake.maintenance.retentionDays (default 7; the latest run's are always kept, so sql"
                    + " --as-of reaches back that far) and remove orphan files older than a day (a killed run's data"
                    + " files among them). A nightly refresh does this itself every"
                    + " spark.tracelake.maintenance.everyDays (default 1); run it by hand after many runs in a day."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every table maintained",
            "1:maintenance failed; every table is as one of its commits left it (run it again)",
            "2:a usage error (one line on standard error): nothing was done",
            "75:another writer holds the warehouse; nothing was done, try later"
        })
public final class MaintainCommand implements Callable<Integer> {
    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        String runId = RunIds.newId();
        LockedSparkCommand command = new LockedSparkCommand("maintain", warehouseOption, sparkOptions);
        return command.locked(runId, (lock, tables) -> {
            Maintenance.Summary summary = new Maintenance(tables, runId).run();
            System.out.println(summary.line());
            return ExitCodes.OK;
        });
    }
}
