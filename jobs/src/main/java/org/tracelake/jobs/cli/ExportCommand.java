package org.tracelake.jobs.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import org.tracelake.jobs.export.LeaderboardExport;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description = {
            "Exports from the warehouse:",
            "  --leaderboard [FILE]",
            "      workload metadata and headline metrics shaped like CCL-Bench's",
            "      website/benchmark_data.json",
            "      (FILE default <warehouse>/exports/leaderboard.json)"
        })
public final class ExportCommand implements Callable<Integer> {
    @Option(
            names = "--leaderboard",
            arity = "0..1",
            fallbackValue = "",
            paramLabel = "FILE",
            description = "Write the leaderboard JSON (any Hadoop file system URI).")
    String leaderboard;

    @Option(
            names = "--workloads",
            split = ",",
            paramLabel = "NAME",
            description = "Only these workloads (comma-separated).")
    Set<String> workloads = new LinkedHashSet<>();

    @Mixin
    WarehouseOption warehouseOption;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        if (leaderboard == null) {
            System.err.println("give what to export: --leaderboard [FILE]");
            return ExitCodes.USAGE;
        }
        LockedSparkCommand writer = new LockedSparkCommand("export", warehouseOption, sparkOptions);
        String target =
                leaderboard.isEmpty() ? writer.warehouse().table(Tables.EXPORTS) + "/leaderboard.json" : leaderboard;
        return writer.lockedIf(writer.inWarehouse(target), (lock, tables) -> {
            Warehouse warehouse = tables.warehouse();
            if (!warehouse.exists(Tables.METRICS)) {
                System.err.println("no metrics under " + warehouse.root() + ": run `tracelake refresh` first");
                return ExitCodes.FAILED;
            }
            System.err.println("wrote " + new LeaderboardExport(tables).write(target, workloads));
            return ExitCodes.OK;
        });
    }
}
