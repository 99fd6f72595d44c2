package org.tracelake.jobs.cli;

import java.util.concurrent.Callable;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.refresh.WarehouseCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Verify the warehouse: every data file of every table's current snapshot is there, of the size its"
                    + " manifest recorded, with a Parquet footer that reads. Prints one line per damaged file. A"
                    + " damaged file of a per-workload table is recomputed by `refresh --check` (a refresh runs"
                    + " this check by itself on the day its maintenance is due); one of a history table (metrics_history,"
                    + " runs, workload_changes, regressions) cannot be, and stops refreshes until it is restored"
                    + " or dropped with --drop-damaged."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every data file is sound (or every damaged one was dropped)",
            "3:damaged files remain (the lines say which, and what to do)",
            "1:the check itself failed",
            "2:a usage error (one line on standard error): nothing was done",
            "75:another writer holds the warehouse; nothing was done, try later"
        })
public final class CheckCommand implements Callable<Integer> {
    @Option(
            names = "--drop-damaged",
            description = "Drop the damaged files of the history tables from their current snapshots (their rows"
                    + " are lost there; earlier snapshots still name them for sql --as-of). Damage in per-workload"
                    + " tables is left to refresh --check, which recomputes it from the archive.")
    boolean dropDamaged;

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        LockedSparkCommand command = new LockedSparkCommand("check", warehouseOption, sparkOptions);
        // under the lock: a refresh or maintenance replacing files meanwhile would look like damage
        return command.locked(RunIds.newId(), (lock, tables) -> {
            WarehouseCheck.Result r = WarehouseCheck.run(tables);
            for (String line : r.lines()) System.out.println(line);
            int dropped = dropDamaged ? WarehouseCheck.dropUnrecoverable(tables, r) : 0;
            int left = r.damaged().size() - dropped;
            System.out.println("checked " + Progress.count(r.filesChecked(), "data file") + ": "
                    + (r.clean() ? "all sound" : Progress.count(r.damaged().size(), "damaged"))
                    + (dropped > 0 ? ", " + dropped + " dropped from the history tables" : "")
                    + (r.workloadsToRedo().isEmpty()
                            ? ""
                            : "; `tracelake refresh --check` recomputes "
                                    + Progress.count(r.workloadsToRedo().size(), "workload")
                                    + " (a nightly refresh checks by itself on the day maintenance is due)"));
            return left == 0 ? ExitCodes.OK : ExitCodes.PARTIAL;
        });
    }
}
