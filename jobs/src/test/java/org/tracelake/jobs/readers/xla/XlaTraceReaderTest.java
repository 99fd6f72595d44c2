package org.tracelake.jobs.readers.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.jobs.testing.ReaderTestSupport.arg;
import static org.tracelake.jobs.testing.ReaderTestSupport.col;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;

/**
 * XLA / TPU profiler trace JSON. No public TPU trace.json exists (FORMATS.md §6), so
 * {@code src/test/resources/xla/tpu-v6e-4chip.trace.json} was WRITTEN FOR THIS TEST (by {@code make_tpu_trace.py}
 * beside it) from the documented structure:
 * xprof's header ({@code displayTimeUnit}, {@code metadata.highres-ticks}, {@code fullTimespan}), one process per chip
 * named {@code "<host> /device:TPU:N"} (4 TPU v6e chips, pids 1..4) and a host plane (pid 701), lines {@code Steps},
 * {@code XLA Modules}, {@code XLA Ops}, {@code Async XLA Ops}, ops with xprof's stats ({@code hlo_category},
 * {@code device_duration_ps}, {@code bytes_accessed}, {@code raw_bytes_accessed}, {@code model_flops},
 * {@code shape_with_layout}, {@code long_name} in real HLO syntax) and 64-bit ids as quoted strings. Two steps (10,
 * 11); device 3's process name and every "Async XLA Ops" thread name come last, after the ops; one xprof counter
 * series ({@code "ph":"C"} with {@code entries}).
 *
 * <p>Its all-reduces follow the Hockney model {@code dur = α + β·S·2(n−1)/n} with α = 5 µs, β = 1/(90 GB/s), n = 4
 * ({@code replica_groups=[1,4]<=[4]}) and S = raw_bytes_accessed ∈ {4, 16, 64} MiB: 24 instances (3 sizes × 4 chips
 * × 2 steps), {@code device_duration_ps = 5e6 + round(S·1.5/90e9·1e12)}, so a bandwidth fit can be checked later.
 */
class XlaTraceReaderTest {
    private static final String RESOURCE = "/xla/tpu-v6e-4chip.trace.json";
    private static final double ALPHA_NS = 5_000;
    private static final double BYTES_PER_NS = 90.0; // 90 GB/s

    private static Path trace() throws URISyntaxException {
        return Path.of(XlaTraceReaderTest.class.getResource(RESOURCE).toURI());
    }

    private static ReaderTestSupport.Read read() throws Exception {
        return ReaderTestSupport.readAll(
                new XlaTraceReader(), ReaderTestSupport.task(trace(), TraceFormat.XLA_TRACE_JSON));
    }

    /** What each row must come out as: (category, activity class, kernel category, collective). */
    private record Expected(String cat, String activityClass, String kernelCategory, String collective) {}

    private static Expected expected(Row r) {
        String name = col(r, EventSchema.NAME);
        String line = arg(r, "line");
        if ("M".equals(col(r, EventSchema.PH))) return new Expected(null, null, null, null);
        if ("Steps".equals(line)) return new Expected("xla_step", null, null, null);
        if ("XLA Modules".equals(line)) return new Expected("xla_module", null, null, null);
        // the copy in flight (METRICS.md §2): described, never device activity on top of the XLA Ops line
        if ("Async XLA Ops".equals(line)) return new Expected("xla_async_op", null, null, null);
        if (name.startsWith("$")) return new Expected("python_function", null, null, null);
        if (name.startsWith("PjitFunction")) return new Expected("cpu_op", null, null, null);
        if (name.startsWith("fusion.") || name.startsWith("convolution."))
            return new Expected("kernel", "compute", "other", null);
        if (name.startsWith("all-reduce.")) return new Expected("kernel", "comm", "comm", "all_reduce");
        if (name.startsWith("all-gather.")) return new Expected("kernel", "comm", "comm", "all_gather");
        if (name.startsWith("collective-permute.")) return new Expected("kernel", "comm", "comm", "send_recv");
        if (name.startsWith("copy-start.") || name.startsWith("copy-done."))
            return new Expected("kernel", "memcpy", "memory", null);
        throw new AssertionError("unexpected row " + name + " on " + line);
    }

    @Test
    void everyRowIsClassifiedAsExpected() throws Exception {
        ReaderTestSupport.Read read = read();
        // the file: 26 metadata events, 2 steps × 4 chips × (1 step + 1 module + 10 ops + 1 async copy in flight),
        // 4 host spans, and one counter series, which is no event: skipped and counted, not dropped as bad
        assertEquals(134, read.rows().size());
        assertEquals(0L, read.report().drops.total());
        assertEquals("1", read.report().metadata.get("counter_series_not_kept"));
        Map<String, Integer> byClass = new TreeMap<>();
        for (Row r : read.rows()) {
            Expected e = expected(r);
            String name = col(r, EventSchema.NAME);
            assertEquals(e.cat(), col(r, EventSchema.CAT), name);
            assertEquals(e.activityClass(), col(r, EventSchema.ACTIVITY_CLASS), name);
            assertEquals(e.kernelCategory(), col(r, EventSchema.KERNEL_CATEGORY), name);
            assertEquals(e.collective(), col(r, EventSchema.COLLECTIVE), name);
            byClass.merge(String.valueOf(e.activityClass()), 1, Integer::sum);
        }
        // 3 all-reduce + all-gather + collective-permute per chip and step = 40; 2 copies × 8 = 16; 3 compute × 8 = 24
        assertEquals(Map.of("comm", 40, "memcpy", 16, "compute", 24, "null", 54), byClass);
    }

    @Test
    void devicesRanksStepsAndLateMetadata() throws Exception {
        ReaderTestSupport.Read read = read();
        for (Row r : read.rows()) {
            if (!"kernel".equals(col(r, EventSchema.CAT))) continue;
            Integer device = col(r, EventSchema.DEVICE);
            assertEquals(Integer.valueOf(Integer.parseInt((String) col(r, EventSchema.PID)) - 1), device);
            assertEquals(device, col(r, EventSchema.RANK)); // one host, four chips: rank = chip
            long step = col(r, EventSchema.STEP);
            assertTrue(step == 10 || step == 11);
            assertEquals(String.valueOf(step), arg(r, "group_id")); // the ops' own group_id agrees with the Steps line
        }
        // device 3 is named only at the end of the file, "Async XLA Ops" too: both still apply (two passes)
        assertEquals(
                26,
                read.rows().stream()
                        .filter(r -> Integer.valueOf(3).equals(col(r, EventSchema.DEVICE))
                                && col(r, EventSchema.TS_NS) != null)
                        .count());
        assertEquals(
                8,
                read.rows().stream()
                        .filter(r -> "X".equals(col(r, EventSchema.PH)) && "Async XLA Ops".equals(arg(r, "line")))
                        .count());
        // host spans belong to no single chip
        read.rows().stream()
                .filter(r -> "701".equals(col(r, EventSchema.PID)) && col(r, EventSchema.TS_NS) != null)
                .forEach(r -> assertNull(col(r, EventSchema.RANK)));
        assertNull(read.report().rank);
        assertEquals("[0, 1, 2, 3]", read.report().metadata.get("devices"));
        assertEquals("2", read.report().metadata.get("step_count"));
        assertEquals(TimeBases.PROFILE_START, read.report().timeBase);
        assertEquals("ns", read.report().metadata.get("displayTimeUnit"));
    }

    @Test
    void timesComeFromDeviceDurationAndMicrosecondText() throws Exception {
        ReaderTestSupport.Read read = read();
        // the file: chip 0, step 10, all-reduce.5 has "ts":2337.251749 and device_duration_ps 1123481067
        Row r = read.rows().stream()
                .filter(x -> "all-reduce.5".equals(col(x, EventSchema.NAME))
                        && Integer.valueOf(0).equals(col(x, EventSchema.DEVICE)))
                .findFirst()
                .orElseThrow();
        assertEquals(2_337_252L, (Long) col(r, EventSchema.TS_NS)); // 2337251.749 ns, half up
        assertEquals(1_123_481L, (Long) col(r, EventSchema.DUR_NS)); // 1123481.067 ns
        assertEquals("15838478290367340135", arg(r, "program_id")); // > 2^63, quoted in the file: kept as text
        assertEquals("f32", col(r, EventSchema.DTYPE));
        assertEquals(67_108_864L, (Long) col(r, EventSchema.IN_BYTES));
        assertEquals("xla_args", col(r, EventSchema.BYTES_SOURCE));
        assertEquals(4, (Integer) col(r, EventSchema.GROUP_SIZE));
        Row gather = read.rows().stream()
                .filter(x -> "all-gather.6".equals(col(x, EventSchema.NAME)))
                .findFirst()
                .orElseThrow();
        assertEquals(8_388_608L, (Long) col(gather, EventSchema.IN_BYTES)); // raw_bytes_accessed
        assertEquals(33_554_432L, (Long) col(gather, EventSchema.OUT_BYTES)); // all_gather: out = in × 4
    }

    /** The all-reduces obey the model they were written with: a least-squares fit gives α and β back. */
    @Test
    void allReducesFollowTheHockneyModel() throws Exception {
        List<double[]> points = new ArrayList<>(); // {S·2(n−1)/n, dur_ns}
        for (Row r : read().rows()) {
            if (!"all_reduce".equals(col(r, EventSchema.COLLECTIVE))) continue;
            long s = col(r, EventSchema.IN_BYTES);
            int n = col(r, EventSchema.GROUP_SIZE);
            double x = (double) s * 2.0 * (n - 1) / n;
            long dur = col(r, EventSchema.DUR_NS);
            assertEquals(
                    (double) Math.round(ALPHA_NS + x / BYTES_PER_NS), (double) dur, 1.0, "instance of " + s + " bytes");
            points.add(new double[] {x, (double) dur});
        }
        assertEquals(24, points.size());
        assertEquals(3, points.stream().mapToDouble(p -> p[0]).distinct().count());
        double[] fit = leastSquares(points);
        assertEquals(ALPHA_NS, fit[0], 1.0);
        assertEquals(BYTES_PER_NS, 1 / fit[1], 1e-3);
    }

    @Test
    void theContentIdentifiesTheFormat() throws Exception {
        byte[] head = Arrays.copyOf(Files.readAllBytes(trace()), FormatDetector.SNIFF_BYTES);
        assertEquals(TraceFormat.XLA_TRACE_JSON, FormatDetector.resolve("t1v-n-6e4chip-w-0.trace.json", head));
        assertEquals(TraceFormat.XLA_TRACE_JSON, FormatDetector.resolve("perfetto_trace.json.gz", head));
    }

    /** The one Spark test: detection, the registry and the events schema on an executor, then SQL with the udfs' columns. */
    @Test
    void ingestsThroughSpark() throws Exception {
        SparkSession spark = ReaderTestSupport.localSpark();
        List<FileReport> reports = new ArrayList<>();
        var df = ReaderTestSupport.ingest(spark, ReaderTestSupport.task(trace(), TraceFormat.XLA_TRACE_JSON), reports);
        df.createOrReplaceTempView("xla_events");
        List<Row> perRank = spark.sql(
                        "SELECT rank, count(*), sum(in_bytes) FROM xla_events WHERE activity_class = 'comm' "
                                + "GROUP BY rank ORDER BY rank")
                .collectAsList();
        assertEquals(4, perRank.size());
        for (Row r : perRank) {
            assertEquals(10L, r.getLong(1)); // 5 collectives × 2 steps
            // 2 × (4 + 16 + 64 MiB all-reduce + 8 MiB all-gather + 2 MiB permute)
            assertEquals(2L * (94L << 20), r.getLong(2));
        }
        assertEquals(TraceFileSchema.STATUS_OK, reports.get(0).status, reports.get(0).error);
        assertEquals("xla_trace_json", reports.get(0).format);
    }

    private static double[] leastSquares(List<double[]> points) {
        double n = points.size();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (double[] p : points) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        return new double[] {(sy - slope * sx) / n, slope};
    }
}
