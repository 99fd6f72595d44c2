package org.tracelake.jobs.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
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
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;

/**
 * The Java half of {@code bench/run} (a benchmark, not a test: nothing here asserts a speed). Each mode prints
 * {@code key=value} lines that the script collects into BENCHMARKS.md.
 *
 * <ul>
 *   <li>{@code parse FILE}: the single-thread limit without Spark — the Kineto reader iterated to its last block of
 *       columns (what ingest writes; cold, then warm), to its last row (what a Spark scan pulls) and in its two-pass
 *       fallback, each timed; plus SHA-256, the raw Jackson tokenizer and the byte scanner alone, to show where a
 *       pass's time goes.</li>
 *   <li>{@code reader FILE}: the reader, every block, once (for the time-against-size curve).</li>
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
            case "reader" -> reader(Path.of(args[1]), new KinetoReader());
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

        // The byte scanner alone: every token of the file, no value kept — the floor of the reader's one pass.
        t = System.nanoTime();
        long scanned = 0;
        try (TraceInput.Opened in = TraceInput.open(path, conf, InputLimits.defaults(), false)) {
            JsonScanner scanner = new JsonScanner(in);
            while (scanner.next() != JsonScanner.EOF) scanned++;
        }
        timed("scan", System.nanoTime() - t, bytes, -1);
        out("scanned_tokens", scanned);

        // The reader, one pass, every block of columns made (what ingest's task pulls and writes), five times, the
        // first cold and the best of the others warm (two cores: the collector's and the compiler's threads take the
        // second, and a run or two goes by before the reader's code is compiled for good); the same with a row built of
        // each (what a Spark scan of the data source pulls) twice; then the reader's two-pass fallback (forced by a
        // budget of 0), blocks, twice, in the same JVM.
        FileTask task = new FileTask(
                "bench",
                path,
                bytes,
                Files.getLastModifiedTime(file).toMillis(),
                TraceFormat.KINETO,
                0,
                InputLimits.defaults(),
                "bench");
        Constructor<KinetoReader> budgeted = KinetoReader.class.getDeclaredConstructor(long.class);
        budgeted.setAccessible(true);
        TraceReader onePass = new KinetoReader();
        TraceReader twoPasses = budgeted.newInstance(0L);
        Best reader = new Best();
        Best rows = new Best();
        Best fallback = new Best();
        long[] first = readAll(onePass, task, conf, true);
        reader.add(first);
        for (int run = 2; run <= 5; run++) reader.add(readAll(onePass, task, conf, true));
        for (int run = 1; run <= 2; run++) rows.add(readAll(onePass, task, conf, false));
        for (int run = 1; run <= 2; run++) fallback.add(readAll(twoPasses, task, conf, true));
        out("events", reader.events);
        timed("reader_first", first[0], bytes, first[2]);
        timed("reader", reader.wall, bytes, reader.events);
        timed("reader_cpu", reader.cpu, bytes, -1);
        timed("reader_rows", rows.wall, bytes, rows.events);
        timed("reader_rows_cpu", rows.cpu, bytes, -1);
        timed("reader_two_passes", fallback.wall, bytes, fallback.events);
        timed("reader_two_passes_cpu", fallback.cpu, bytes, -1);
    }

    /** The fastest of several runs: wall and the reading thread's CPU time, each its own minimum. */
    private static final class Best {
        long wall = Long.MAX_VALUE;
        long cpu = Long.MAX_VALUE;
        long events;

        void add(long[] run) {
            wall = Math.min(wall, run[0]);
            cpu = Math.min(cpu, run[1]);
            events = run[2];
        }
    }

    /**
     * One read of the whole file, every block (or every row) pulled: wall ns, the reading thread's CPU ns (on a
     * machine shared with other work the wall time says as much about the neighbours as about the reader; the GC's
     * and the JIT's threads are not in it), rows.
     */
    private static long[] readAll(TraceReader reader, FileTask task, Configuration conf, boolean blocks)
            throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long t = System.nanoTime();
        long cpu = threads.getCurrentThreadCpuTime();
        long rows = 0;
        try (EventStream s = reader.open(task, conf)) {
            if (blocks) {
                ColumnBlock b;
                while ((b = ((RowStream) s).nextBlock()) != null) rows += b.size();
            } else {
                while (s.hasNext()) {
                    s.next();
                    rows++;
                }
            }
        }
        return new long[] {System.nanoTime() - t, threads.getCurrentThreadCpuTime() - cpu, rows};
    }

    private static void reader(Path file, TraceReader reader) throws Exception {
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
        long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long events;
        try (EventStream s = reader.open(task, new Configuration())) {
            while (((RowStream) s).nextBlock() != null) {
                // the blocks ingest writes
            }
            events = s.report().eventsRead;
        }
        cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
        out("bytes", bytes);
        out("events", events);
        timed("reader", System.nanoTime() - t, bytes, events);
        timed("reader_cpu", cpu, bytes, -1);
    }

    /**
     * The reader's open (the whole file read: in one pass with its events buffered, or the first of two passes when
     * the budget said so) and the heap it holds after a full GC, under whatever -Xmx the JVM was given: what a
     * stream keeps while its rows are pulled.
     */
    private static void index(Path file) throws Exception {
        long bytes = Files.size(file);
        String path = file.toAbsolutePath().toString();
        FileTask task = new FileTask("bench", path, bytes, 0L, TraceFormat.KINETO, 0, InputLimits.defaults(), "bench");
        long t = System.nanoTime();
        try (EventStream open = new KinetoReader().open(task, new Configuration())) {
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
            Method twoPasses = KinetoReader.class.getDeclaredMethod("twoPasses", EventStream.class);
            twoPasses.setAccessible(true);
            out("two_passes", twoPasses.invoke(null, open));
        }
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
            // the rows are made in KinetoReader$Rows, through readers/common (EventRow, RowStream)
            if (type.equals("org.tracelake.jobs.readers.kineto.KinetoReader$Rows")
                    || type.startsWith("org.tracelake.jobs.readers.common.")) pass2 = true;
            if (inPass2 == null
                    && type.equals("org.tracelake.jobs.readers.kineto.KinetoIndex")
                    && method.equals("enclosingCommOps")) inPass2 = "comm-op lookup (KinetoIndex.enclosingCommOps)";
            if (inPass2 == null
                    && (type.startsWith("org.tracelake.udfs")
                            || type.equals("org.tracelake.jobs.readers.ActivityClassifier")))
                inPass2 = "classification (udfs)";
            if (inPass2 == null
                    && (type.equals("org.tracelake.jobs.readers.kineto.KinetoScan")
                            || type.startsWith("org.tracelake.jobs.readers.common.json.")))
                inPass2 = "JSON scanning (a second pass)";
            if (type.startsWith("com.github.luben.zstd")) zstd = true;
            if (type.startsWith("org.apache.parquet")) parquet = true;
            if (type.startsWith("org.apache.spark.sql.catalyst")) catalyst = true;
        }
        if (pass1) return "reader: scan, hash, index and buffer (KinetoReader.open)";
        if (pass2) return "reader rows: " + (inPass2 == null ? "building the InternalRow, other" : inPass2);
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
