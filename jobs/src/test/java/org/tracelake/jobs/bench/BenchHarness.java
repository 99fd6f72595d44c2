package org.tracelake.jobs.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.cluster.StandaloneCluster;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.kineto.KinetoReader;

/**
 * The Java half of {@code bench/run} (a benchmark, not a test: nothing here asserts a speed). Each mode prints
 * {@code key=value} lines that the script collects into BENCHMARKS.md.
 *
 * <ul>
 *   <li>{@code parse FILE}: the single-thread limit without Spark — the Kineto reader's two passes as the reader
 *       runs them, each timed, then the reader itself iterated to its last row; plus the raw Jackson tokenizer and
 *       SHA-256 alone, to show where a pass's time goes.</li>
 *   <li>{@code reader FILE}: the reader, both passes, once (for the time-against-size curve).</li>
 *   <li>{@code index FILE}: pass 1 alone (what the reader keeps while it streams pass 2), and the heap its index
 *       holds after a full GC, under whatever -Xmx the JVM was given. A file whose launches come before their
 *       kernels has them indexed by pass 2 instead ({@code pass1_indexes_launches=false}): ~12 bytes per launch
 *       more by the end of the file.</li>
 *   <li>{@code cluster WORKERS DIR ARCHIVE WAREHOUSE}: a standalone cluster of WORKERS one-core workers
 *       ({@link StandaloneCluster}, as StandaloneClusterIT starts it), a full refresh submitted to it, timed.</li>
 *   <li>{@code jfr-top FILE N}: where a Spark task's time went in a JFR recording: execution samples of the task
 *       threads by phase (reader pass 1, pass 2, row conversion, Parquet, zstd) and the N hottest methods.</li>
 *   <li>{@code eventlog FILE-OR-DIR [PROCESS-WALL-S]}: a Spark event log's driver-only time, task time, parallel
 *       fraction and Amdahl projection ({@link EventLogStats}).</li>
 *   <li>{@code session}: a local Spark session started and stopped, nothing else: the least any Spark command pays
 *       before its first job (the script times the whole process around it).</li>
 * </ul>
 */
public final class BenchHarness {
    private BenchHarness() {}

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "parse" -> parse(Path.of(args[1]));
            case "reader" -> reader(Path.of(args[1]));
            case "index" -> index(Path.of(args[1]));
            case "cluster" -> cluster(Integer.parseInt(args[1]), Path.of(args[2]), args[3], args[4]);
            case "jfr-top" -> jfrTop(Path.of(args[1]), Integer.parseInt(args[2]));
            case "eventlog" -> EventLogStats.run(Path.of(args[1]), args.length > 2 ? Double.parseDouble(args[2]) : 0);
            case "session" -> session();
            default -> {
                System.err.println(
                        "usage: BenchHarness parse FILE | reader FILE | index FILE | cluster WORKERS DIR ARCHIVE WAREHOUSE | jfr-top FILE N | eventlog FILE-OR-DIR [PROCESS-WALL-S] | session");
                System.exit(2);
            }
        }
    }

    private static void session() {
        long t = System.nanoTime();
        SparkSession spark = SparkSession.builder()
                .master("local[*]")
                .appName("bench session")
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        System.out.printf(Locale.ROOT, "session_s=%.2f%n", (System.nanoTime() - t) / 1e9);
        spark.stop();
    }

    // ---------------------------------------------------------------------------------------------- parse

    private static void parse(Path file) throws Exception {
        long bytes = Files.size(file);
        Configuration conf = new Configuration();
        String path = file.toAbsolutePath().toString();
        out("file", path);
        out("bytes", bytes);

        // SHA-256 of the raw bytes alone (pass 1 hashes every byte as it reads).
        long t = System.nanoTime();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            byte[] buf = new byte[1 << 16];
            while (in.read(buf) >= 0) {
                // digest only
            }
        }
        timed("sha256", System.nanoTime() - t, bytes, -1);

        // The bare tokenizer: every token of the file, no values extracted — the floor of any Jackson pass.
        JsonFactory factory = kinetoFactory();
        t = System.nanoTime();
        long tokens = 0;
        try (TraceInput.Opened in = TraceInput.open(path, conf, InputLimits.defaults(), false);
                JsonParser p = factory.createParser(in)) {
            while (p.nextToken() != null) tokens++;
        }
        timed("tokenize", System.nanoTime() - t, bytes, -1);
        out("tokens", tokens);

        // Pass 1 over the whole file (before the sieve), then as the reader runs it: hashing stream, the sieve,
        // KinetoIndex.build over what the sieve keeps, drain and hash.
        t = System.nanoTime();
        firstPass(path, conf, false);
        timed("pass1_whole", System.nanoTime() - t, bytes, -1);
        t = System.nanoTime();
        Object index = firstPass(path, conf, true);
        long pass1 = System.nanoTime() - t;
        out("pass1_indexes_launches", pass1IndexesLaunches(index));

        // The reader itself, both passes, every row built (what a Spark task pulls), twice: the second run is warm.
        long best = Long.MAX_VALUE;
        long events = 0;
        KinetoReader reader = new KinetoReader();
        FileTask task = new FileTask(
                "bench",
                path,
                bytes,
                Files.getLastModifiedTime(file).toMillis(),
                TraceFormat.KINETO,
                0,
                InputLimits.defaults(),
                "bench");
        // The reading thread's CPU time beside the wall time: on a machine shared with other work the wall time says
        // as much about the neighbours as about the reader (the GC's and the JIT's threads are not in it).
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long bestCpu = Long.MAX_VALUE;
        for (int run = 1; run <= 2; run++) {
            t = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            long rows = 0;
            try (EventStream s = reader.open(task, conf)) {
                while (s.hasNext()) {
                    s.next();
                    rows++;
                }
                events = s.report().eventsRead;
            }
            long took = System.nanoTime() - t;
            cpu = threads.getCurrentThreadCpuTime() - cpu;
            timed("reader_run" + run, took, bytes, rows);
            timed("reader_run" + run + "_cpu", cpu, bytes, -1);
            best = Math.min(best, took);
            bestCpu = Math.min(bestCpu, cpu);
        }
        out("events", events);
        timed("pass1", pass1, bytes, events);
        timed("pass2", best - pass1, bytes, events);
        timed("reader", best, bytes, events);
        timed("reader_cpu", bestCpu, bytes, -1);
    }

    /**
     * The Kineto reader's first pass (KinetoIndex.read as the reader calls it: hashing stream, the sieve, the index
     * built over what it keeps), or KinetoIndex.build over the whole file (package-private, reached by reflection);
     * returns the index.
     */
    private static Object firstPass(String path, Configuration conf, boolean sieved) throws Exception {
        Class<?> kinetoIndex = Class.forName("org.tracelake.jobs.readers.kineto.KinetoIndex");
        if (sieved) {
            Method read = kinetoIndex.getDeclaredMethod("read", FileTask.class, Configuration.class, FileReport.class);
            read.setAccessible(true);
            FileTask task = new FileTask(
                    "bench",
                    path,
                    Files.size(Path.of(path)),
                    0L,
                    TraceFormat.KINETO,
                    0,
                    InputLimits.defaults(),
                    "bench");
            return read.invoke(null, task, conf, new FileReport(task));
        }
        Method build = kinetoIndex.getDeclaredMethod("build", JsonParser.class);
        build.setAccessible(true);
        try (TraceInput.Opened in = TraceInput.open(path, conf, InputLimits.defaults(), true);
                JsonParser p = kinetoFactory().createParser(in)) {
            Object index = build.invoke(null, p);
            in.drainAndHash();
            return index;
        }
    }

    /** Whether the first pass indexed the runtime launches (the file writes kernels before them), or left them. */
    private static boolean pass1IndexesLaunches(Object index) throws ReflectiveOperationException {
        Field launches = index.getClass().getDeclaredField("launches");
        launches.setAccessible(true);
        Object table = launches.get(index);
        Method complete = table.getClass().getDeclaredMethod("complete");
        complete.setAccessible(true);
        return (Boolean) complete.invoke(table);
    }

    private static void reader(Path file) throws Exception {
        long bytes = Files.size(file);
        String path = file.toAbsolutePath().toString();
        FileTask task = new FileTask(
                "bench",
                path,
                bytes,
                Files.getLastModifiedTime(file).toMillis(),
                TraceFormat.KINETO,
                0,
                InputLimits.defaults(),
                "bench");
        long t = System.nanoTime();
        long events;
        try (EventStream s = new KinetoReader().open(task, new Configuration())) {
            while (s.hasNext()) s.next();
            events = s.report().eventsRead;
        }
        out("bytes", bytes);
        out("events", events);
        timed("reader", System.nanoTime() - t, bytes, events);
    }

    private static void index(Path file) throws Exception {
        long bytes = Files.size(file);
        String path = file.toAbsolutePath().toString();
        long t = System.nanoTime();
        Object index = firstPass(path, new Configuration(), true);
        long took = System.nanoTime() - t;
        System.gc();
        Runtime rt = Runtime.getRuntime();
        out("bytes", bytes);
        timed("pass1", took, bytes, -1);
        out("index_heap_mb", (rt.totalMemory() - rt.freeMemory()) >> 20);
        out("heap_max_mb", rt.maxMemory() >> 20);
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) out("vmhwm_mb", Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10);
        }
        out("pass1_indexes_launches", pass1IndexesLaunches(index));
        out("index_kept", index != null);
    }

    private static JsonFactory kinetoFactory() throws ReflectiveOperationException {
        Field f = Class.forName("org.tracelake.jobs.readers.common.ChromeEventParser")
                .getDeclaredField("FACTORY");
        f.setAccessible(true);
        return (JsonFactory) f.get(null);
    }

    // -------------------------------------------------------------------------------------------- cluster

    private static void cluster(int workers, Path dir, String archive, String warehouse) throws Exception {
        Path home = Path.of(System.getProperty("tracelake.home", ".")).toAbsolutePath();
        StandaloneCluster.Build build = StandaloneCluster.Build.of(home);
        long t0 = System.nanoTime();
        StandaloneCluster cluster = StandaloneCluster.start(build, dir, workers);
        int exit;
        long took;
        try {
            out("cluster_start_s", seconds(System.nanoTime() - t0));
            Path log = dir.resolve("logs/submit.log");
            long t = System.nanoTime();
            Process driver = cluster.submit(
                    System.getProperty("bench.driverHeap", "2g"),
                    List.of(
                            "--properties-file",
                            home.resolve("conf/spark-defaults.conf").toString()),
                    List.of("refresh", "--full", "--archive", archive, "--warehouse", warehouse),
                    log);
            if (!driver.waitFor(60, TimeUnit.MINUTES))
                throw new IllegalStateException("refresh on the cluster did not finish");
            took = System.nanoTime() - t;
            exit = driver.exitValue();
            if (exit != 0) System.err.println(cluster.logTails(40));
        } finally {
            cluster.close();
        }
        out("workers", workers);
        out("exit", exit);
        out("submit_s", seconds(took));
        List<String> survivors = cluster.survivors();
        out("survivors", survivors.size());
        if (!survivors.isEmpty()) throw new IllegalStateException("cluster processes left behind: " + survivors);
        for (String c : cluster.commands()) System.out.println("command=" + c);
    }

    // ------------------------------------------------------------------------------------------------ jfr

    /**
     * Only the Spark task threads' samples ("Executor task launch worker"): the work of reading and writing, without
     * the JVM's and Spark's start. Each sample is put in one phase by what its stack holds.
     */
    private static void jfrTop(Path recording, int n) throws IOException {
        Map<String, Integer> top = new HashMap<>();
        Map<String, Integer> phases = new HashMap<>();
        int samples = 0;
        try (RecordingFile f = new RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                boolean nativeSample = type.equals("jdk.NativeMethodSample");
                if (!type.equals("jdk.ExecutionSample") && !nativeSample) continue;
                var thread = e.getThread("sampledThread");
                if (thread == null
                        || thread.getJavaName() == null
                        || !thread.getJavaName().startsWith("Executor task launch worker")) continue;
                RecordedStackTrace st = e.getStackTrace();
                if (st == null || st.getFrames().isEmpty()) continue;
                if (nativeSample) {
                    // Threads in native code (zstd, file reads) are sampled every 20 ms, Java code every 10 ms.
                    samples += 2;
                    phases.merge("in native code: " + nativePhase(st), 2, Integer::sum);
                    continue;
                }
                samples++;
                top.merge(frame(st.getFrames().get(0)), 1, Integer::sum);
                phases.merge(phase(st), 1, Integer::sum);
            }
        }
        out("samples", samples);
        print("phase", phases, samples, 10);
        print("self", top, samples, n);
    }

    private static String nativePhase(RecordedStackTrace st) {
        for (RecordedFrame fr : st.getFrames()) {
            String type = fr.getMethod().getType().getName();
            if (type.startsWith("com.github.luben.zstd")) return "zstd compression";
            if (type.startsWith("org.tracelake.jobs.readers")) return "reading the trace file";
            if (type.startsWith("org.apache.parquet")) return "Parquet writing";
            if (type.startsWith("org.apache.hadoop")) return "file I/O";
        }
        return "other";
    }

    private static String phase(RecordedStackTrace st) {
        boolean pass1 = false;
        boolean pass2 = false;
        boolean zstd = false;
        boolean parquet = false;
        boolean catalyst = false;
        String inPass2 = null;
        for (RecordedFrame fr : st.getFrames()) {
            String type = fr.getMethod().getType().getName();
            String method = fr.getMethod().getName();
            if (type.equals("org.tracelake.jobs.readers.kineto.KinetoReader") && method.equals("open")) pass1 = true;
            // pass 2's walk lives in readers/common (ChromeEventStream, EventRow, RowStream), its fill in
            // KinetoReader$Rows
            if (type.equals("org.tracelake.jobs.readers.kineto.KinetoReader$Rows")
                    || type.startsWith("org.tracelake.jobs.readers.common.")) pass2 = true;
            if (inPass2 == null
                    && type.equals("org.tracelake.jobs.readers.kineto.KinetoIndex")
                    && method.equals("enclosingCommOps")) inPass2 = "comm-op lookup (KinetoIndex.enclosingCommOps)";
            if (inPass2 == null
                    && (type.startsWith("org.tracelake.udfs")
                            || type.equals("org.tracelake.jobs.readers.ActivityClassifier")))
                inPass2 = "classification (udfs)";
            if (inPass2 == null && type.equals("org.tracelake.jobs.readers.common.ChromeEventParser"))
                inPass2 = "JSON parsing";
            if (type.startsWith("com.github.luben.zstd")) zstd = true;
            if (type.startsWith("org.apache.parquet")) parquet = true;
            if (type.startsWith("org.apache.spark.sql.catalyst")) catalyst = true;
        }
        if (pass1) return "reader pass 1: hash + index (KinetoReader.open)";
        if (pass2) return "reader pass 2: " + (inPass2 == null ? "building the InternalRow, other" : inPass2);
        if (zstd) return "zstd compression";
        if (parquet) return "Parquet encoding and writing";
        if (catalyst) return "other Spark SQL (the write's projection, no Row conversion)";
        return "other (Spark task, I/O)";
    }

    private static void print(String kind, Map<String, Integer> counts, int total, int n) {
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort((a, b) -> b.getValue() - a.getValue());
        for (Map.Entry<String, Integer> e : sorted.subList(0, Math.min(n, sorted.size()))) {
            System.out.printf(
                    Locale.ROOT, "%s=%5.1f%% %s%n", kind, 100.0 * e.getValue() / Math.max(1, total), e.getKey());
        }
    }

    private static String frame(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    // ---------------------------------------------------------------------------------------------- output

    private static void timed(String what, long nanos, long bytes, long events) {
        double s = nanos / 1e9;
        out(what + "_s", String.format(Locale.ROOT, "%.2f", s));
        out(what + "_mb_s", String.format(Locale.ROOT, "%.1f", bytes / 1e6 / s));
        if (events >= 0) out(what + "_events_s", String.format(Locale.ROOT, "%.0f", events / s));
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    private static void out(String key, Object value) {
        System.out.println(key + "=" + value);
    }
}
