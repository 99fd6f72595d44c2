package org.tracelake.jobs.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where a Spark application's time went, from its event log (JSON lines, {@code spark.eventLog.enabled=true},
 * uncompressed): the application's wall time (ApplicationStart to ApplicationEnd), the time with no task running
 * (driver-only: the session's start, planning, scheduling, the driver's own file work), the time with one task and
 * with two or more running, the summed task time, and from those the parallel fraction p = 1 - driver-only / wall and
 * Amdahl's projected speed-up 1 / ((1 - p) + p / n). With the process's wall time as a second argument it also gives
 * the same for the whole process, counting the JVM's start and stop outside the application as driver-only.
 *
 * <p>Prints {@code key=value} lines for {@code bench/run}. A benchmark tool, not a test.
 */
final class EventLogStats {
    private static final int[] CORES = {8, 64, 512};

    private EventLogStats() {}

    /**
     * {@code eventlog FILE-OR-DIR [PROCESS-WALL-SECONDS]}: a single-file event log, or a directory holding one
     * application's log — a single file, or Spark 4's rolling layout ({@code eventlog_v2_<app>/events_<n>_<app>}, read
     * in the order of n).
     */
    static void run(Path fileOrDir, double processWallS) throws IOException {
        List<Path> files = logFiles(fileOrDir);
        for (Path f : files) {
            if (f.getFileName().toString().endsWith(".inprogress")) {
                throw new IllegalArgumentException(f + " is still in progress (the application did not end)");
            }
        }
        ObjectMapper json = new ObjectMapper();
        long appStart = -1;
        long appEnd = -1;
        List<long[]> tasks = new ArrayList<>();
        List<long[]> jobs = new ArrayList<>();
        java.util.Map<Long, Long> jobStarts = new java.util.HashMap<>();
        long runSum = 0;
        int failed = 0;
        for (Path file : files)
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.isBlank()) continue;
                    JsonNode e = json.readTree(line);
                    switch (e.path("Event").asText()) {
                        case "SparkListenerApplicationStart" ->
                            appStart = e.path("Timestamp").asLong();
                        case "SparkListenerApplicationEnd" ->
                            appEnd = e.path("Timestamp").asLong();
                        case "SparkListenerJobStart" ->
                            jobStarts.put(
                                    e.path("Job ID").asLong(),
                                    e.path("Submission Time").asLong());
                        case "SparkListenerJobEnd" -> {
                            Long start = jobStarts.remove(e.path("Job ID").asLong());
                            if (start != null)
                                jobs.add(new long[] {
                                    start, e.path("Completion Time").asLong()
                                });
                        }
                        case "SparkListenerTaskEnd" -> {
                            JsonNode info = e.path("Task Info");
                            long launch = info.path("Launch Time").asLong();
                            long finish = info.path("Finish Time").asLong();
                            if (finish > 0 && finish >= launch) tasks.add(new long[] {launch, finish});
                            if (info.path("Failed").asBoolean()) failed++;
                            runSum += e.path("Task Metrics")
                                    .path("Executor Run Time")
                                    .asLong();
                        }
                        default -> {}
                    }
                }
            }
        if (appStart < 0 || appEnd < appStart)
            throw new IllegalStateException(files + ": no ApplicationStart/End pair");
        long wall = appEnd - appStart;
        long[] busy = sweep(tasks); // [time with >= 1 task, time with >= 2 tasks]
        long jobTime = sweep(jobs)[0];
        long taskSum = 0;
        for (long[] t : tasks) taskSum += t[1] - t[0];
        long driverOnly = Math.max(0, wall - busy[0]);

        out(
                "event_log",
                files.get(0).getParent().equals(fileOrDir) || !Files.isDirectory(fileOrDir)
                        ? String.valueOf(files.get(0))
                        : String.valueOf(files.get(0).getParent()));
        out("event_log_files", files.size());
        out("jobs", jobs.size());
        out("tasks", tasks.size());
        out("tasks_failed", failed);
        out("wall_s", s(wall));
        out("no_job_s", s(Math.max(0, wall - jobTime)));
        out("in_job_no_task_s", s(Math.max(0, jobTime - busy[0])));
        out("driver_only_s", s(driverOnly));
        out("one_task_s", s(busy[0] - busy[1]));
        out("two_plus_tasks_s", s(busy[1]));
        out("task_sum_s", s(taskSum));
        out("run_sum_s", s(runSum));
        amdahl("", 1.0 - (double) driverOnly / Math.max(1, wall));
        if (processWallS > 0) {
            // The JVM's start (classes, Spark's jars, the session) and exit lie outside the application's events.
            double outside = Math.max(0, processWallS - wall / 1000.0);
            out("process_wall_s", String.format(Locale.ROOT, "%.1f", processWallS));
            out("outside_app_s", String.format(Locale.ROOT, "%.1f", outside));
            amdahl("process_", 1.0 - (driverOnly / 1000.0 + outside) / processWallS);
        }
    }

    private static List<Path> logFiles(Path fileOrDir) throws IOException {
        if (!Files.isDirectory(fileOrDir)) return List.of(fileOrDir);
        List<Path> all;
        try (Stream<Path> s = Files.walk(fileOrDir)) {
            all = s.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .filter(f -> !f.getFileName().toString().startsWith("appstatus_"))
                    .toList();
        }
        java.util.Set<Path> parents = new java.util.HashSet<>();
        for (Path f : all) parents.add(f.getParent());
        if (all.isEmpty() || parents.size() != 1) {
            throw new IllegalArgumentException(
                    "expected one application's event log in " + fileOrDir + ", found " + all);
        }
        List<Path> rolled = all.stream()
                .filter(f -> f.getFileName().toString().matches("events_\\d+_.*"))
                .sorted(java.util.Comparator.comparingInt(
                        f -> Integer.parseInt(f.getFileName().toString().split("_")[1])))
                .toList();
        if (!rolled.isEmpty()) return rolled;
        if (all.size() != 1)
            throw new IllegalArgumentException("expected one event log in " + fileOrDir + ", found " + all);
        return all;
    }

    private static void amdahl(String prefix, double p) {
        out(prefix + "p_pct", String.format(Locale.ROOT, "%.1f", 100 * p));
        for (int n : CORES) out(prefix + "speedup_" + n, String.format(Locale.ROOT, "%.2f", 1.0 / ((1 - p) + p / n)));
    }

    /** Over intervals [start, end): the time covered by at least one, and by at least two. */
    private static long[] sweep(List<long[]> intervals) {
        List<long[]> points = new ArrayList<>();
        for (long[] i : intervals) {
            points.add(new long[] {i[0], +1});
            points.add(new long[] {i[1], -1});
        }
        points.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        long one = 0;
        long two = 0;
        int depth = 0;
        long last = 0;
        for (long[] p : points) {
            if (depth >= 1) one += p[0] - last;
            if (depth >= 2) two += p[0] - last;
            depth += (int) p[1];
            last = p[0];
        }
        return new long[] {one, two};
    }

    private static String s(long millis) {
        return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }

    private static void out(String key, Object value) {
        System.out.println(key + "=" + value);
    }
}
