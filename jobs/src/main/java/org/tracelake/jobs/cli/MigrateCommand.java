package org.tracelake.jobs.cli;

import java.util.Map;
import java.util.concurrent.Callable;
import org.tracelake.jobs.refresh.Migration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(
        name = "migrate",
        mixinStandardHelpOptions = true,
        description = {
            "Convert a warehouse written by the previous release (Parquet folders per table) in place, once:"
                    + " metrics_history, runs, regressions, regression_kernels and workload_changes (the history no"
                    + " archive can give again) are committed into this release's Iceberg tables; the other tables"
                    + " are recomputed, so the next refresh reads the whole archive once. The old folders are then"
                    + " moved into _previous-layout/ (delete it once you are content). Killed midway, run it again: it"
                    + " starts over or finishes, and nothing is lost."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the warehouse is in this release's layout (migrated now, or already)",
            "1:the migration failed; run it again (nothing is lost)",
            "2:a usage error (one line on standard error): nothing was done",
            "75:another writer holds the warehouse; nothing was done, try later"
        })
public final class MigrateCommand implements Callable<Integer> {
    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        String runId = RunIds.newId();
        LockedSparkCommand command = new LockedSparkCommand("migrate", warehouseOption, sparkOptions);
        return command.locked(runId, (lock, tables) -> {
            Migration.Result r = new Migration(tables, runId).run();
            if (!r.needed()) {
                System.out.println("the warehouse " + warehouseOption.warehouse
                        + " has this release's layout already: nothing to migrate");
                return ExitCodes.OK;
            }
            for (Map.Entry<String, Long> e : r.keptRows().entrySet())
                System.out.printf(java.util.Locale.ROOT, "  %-20s %,d rows kept%n", e.getKey(), e.getValue());
            System.out.println("moved the previous layout's folders to " + r.aside() + ": " + r.movedAside());
            System.out.println("migrated: the next refresh reads the whole archive once (the tables other than the"
                    + " history are recomputed)");
            return ExitCodes.OK;
        });
    }
}
