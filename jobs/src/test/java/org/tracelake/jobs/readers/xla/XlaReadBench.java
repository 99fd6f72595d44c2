package org.tracelake.jobs.readers.xla;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * A benchmark, not a test (issue 43): reads an XLA trace JSON through {@link XlaTraceReader} on one thread, both
 * passes and every row, REPEATS times, and prints the rows and the time of each read (the first ones warm the JIT),
 * then the median of the second half.
 * Run it with the test classpath: {@code java -cp jobs/target/test-classes:jobs/target/classes:DEPS
 * org.tracelake.jobs.readers.xla.XlaReadBench FILE [REPEATS]}; time the whole process from outside for its CPU.
 */
public final class XlaReadBench {
    private XlaReadBench() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        FileTask task = new FileTask(
                "bench",
                file.toAbsolutePath().toUri().toString(),
                Files.size(file),
                Files.getLastModifiedTime(file).toMillis(),
                TraceFormat.XLA_TRACE_JSON,
                0,
                InputLimits.defaults(),
                "bench");
        Configuration conf = new Configuration();
        double[] seconds = new double[repeats];
        long rowsRead = 0;
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            long rows = 0;
            try (EventStream stream = new XlaTraceReader().open(task, conf)) {
                while (stream.hasNext()) {
                    stream.next();
                    rows++;
                }
                if (stream.report().fatal) throw new IllegalStateException(stream.report().error);
            }
            double s = (System.nanoTime() - t0) / 1e9;
            seconds[r] = s;
            rowsRead = rows;
            System.out.printf(
                    Locale.ROOT,
                    "read %d: %d rows in %.3f s, %.1f MB/s of file, %.0f rows/s%n",
                    r,
                    rows,
                    s,
                    Files.size(file) / s / 1e6,
                    rows / s);
        }
        if (repeats >= 4) { // the second half, JIT warm: its median read
            double[] warm = java.util.Arrays.copyOfRange(seconds, repeats / 2, repeats);
            java.util.Arrays.sort(warm);
            double median = warm[warm.length / 2];
            System.out.printf(
                    Locale.ROOT,
                    "warm median (reads %d-%d): %.4f s a read, %.0f rows/s%n",
                    repeats / 2,
                    repeats - 1,
                    median,
                    rowsRead / median);
        }
    }
}
