package org.tracelake.jobs.refresh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * One side of {@link WarehouseLockRaceTest}'s race between processes: for each trial, says it is ready, spins until
 * every other side is too, then takes the trial's warehouse lock (found stale) and writes whether it won. A won lock
 * is kept until the process ends, as a running refresh would keep it. Arguments: folder, own name, trials, the other
 * racers' names.
 */
public final class LockRacer {
    private LockRacer() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String me = args[1];
        int trials = Integer.parseInt(args[2]);
        java.util.List<String> others = java.util.Arrays.asList(args).subList(3, args.length);
        for (int i = 0; i < trials; i++) {
            Path trial = dir.resolve("trial-" + i);
            Files.createFile(trial.resolve("ready-" + me));
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (String other : others) {
                while (!Files.exists(trial.resolve("ready-" + other))) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException(other + " never came");
                    Thread.onSpinWait();
                }
            }
            Warehouse wh = new Warehouse(trial.resolve("wh").toString(), new Configuration());
            String outcome;
            try {
                WarehouseLock.acquire(wh, me + "-" + i, Duration.ofHours(24), "refresh");
                outcome = "won";
            } catch (WarehouseLock.HeldException e) {
                outcome = "held";
            }
            Files.writeString(trial.resolve("result-" + me), outcome);
        }
        System.exit(0);
    }
}
