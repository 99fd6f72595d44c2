package org.tracelake.jobs.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Maintenance;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.spark.SparkSessions;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * A year of nightly runs in an hour, for {@code bench/year} (issue 39; a benchmark, nothing here asserts a speed):
 *
 * <pre>
 *   YearOfNights ARCHIVE WAREHOUSE FIRST LAST CHANGED NIGHTS-FILE
 * </pre>
 *
 * runs nights FIRST..LAST in one process. A night changes CHANGED workloads of the archive (the next ones in turn:
 * their trace files touched, so their listing digests differ), refreshes, and maintains the warehouse as the nightly
 * refresh does once a day, with the retention of 7 days read as 7 nights: snapshots made before the start of the night
 * 7 nights back expire. Each night appends {@code night start_ms wall_ms cpu_ms} to NIGHTS-FILE, from which later
 * processes read when a night began. The refresh and the maintenance are the product's own classes; only the clock
 * of the retention is the simulation's.
 */
public final class YearOfNights {
    private static final int RETENTION_NIGHTS = 7;

    private YearOfNights() {}

    public static void main(String[] args) throws IOException {
        Path archive = Path.of(args[0]);
        String warehouse = args[1];
        int first = Integer.parseInt(args[2]);
        int last = Integer.parseInt(args[3]);
        int changed = Integer.parseInt(args[4]);
        Path nightsFile = Path.of(args[5]);
        List<Path> workloads;
        try (Stream<Path> s = Files.list(archive)) {
            workloads = s.filter(Files::isDirectory).sorted().toList();
        }
        Map<Integer, Long> started = startTimes(nightsFile);
        SparkSession spark = SparkSessions.create(
                "tracelake year of nights",
                "local[*]",
                // maintenance is this harness's, once per night, not the refresh's (it would not be due in real time)
                Map.of("spark.tracelake.maintenance.everyDays", "36500", "spark.ui.enabled", "false"));
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (int night = first; night <= last; night++) {
                long start = System.currentTimeMillis();
                long cpu0 = os.getProcessCpuTime();
                for (int i = 0; i < changed; i++) touch(workloads.get((night * changed + i) % workloads.size()));
                WarehouseTables tables = new WarehouseTables(
                        spark, new Warehouse(warehouse, spark.sparkContext().hadoopConfiguration()));
                String runId = RunIds.newId();
                Refresh.Result result =
                        new Refresh(tables, runId, InputLimits.defaults()).run(archive.toString(), Set.of(), false);
                if (!result.allOk() || result.workloads().size() != changed)
                    throw new IllegalStateException(
                            "night " + night + ": " + result.workloads().size() + " workloads refreshed (" + changed
                                    + " changed), all clean: " + result.allOk());
                long weekAgo = started.getOrDefault(night - RETENTION_NIGHTS, 0L);
                new Maintenance(tables, runId).run(System.currentTimeMillis(), weekAgo);
                long wall = System.currentTimeMillis() - start;
                long cpu = (os.getProcessCpuTime() - cpu0) / 1_000_000;
                started.put(night, start);
                Files.writeString(
                        nightsFile,
                        String.format(Locale.ROOT, "%d %d %d %d%n", night, start, wall, cpu),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                System.err.printf(Locale.ROOT, "night %d: %d ms wall, %d ms CPU%n", night, wall, cpu);
            }
        } finally {
            spark.stop();
        }
    }

    /** Every trace file of the workload gets a new modification time: its listing digest changes. */
    private static void touch(Path workload) throws IOException {
        FileTime now = FileTime.fromMillis(System.currentTimeMillis());
        try (Stream<Path> files = Files.walk(workload)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) Files.setLastModifiedTime(f, now);
        }
    }

    /** When each night recorded so far began, from the nights file. */
    private static Map<Integer, Long> startTimes(Path nightsFile) throws IOException {
        Map<Integer, Long> out = new HashMap<>();
        if (!Files.exists(nightsFile)) return out;
        for (String line : Files.readAllLines(nightsFile)) {
            String[] f = line.trim().split(" ");
            if (f.length >= 2) out.put(Integer.parseInt(f[0]), Long.parseLong(f[1]));
        }
        return out;
    }
}
