package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.readers.DropCounter;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.ReadErrors;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.schemas.EventSchema;

/**
 * Issue 43, equality first: the one-pass byte-level reader against the two-pass Jackson reader it replaced (frozen in
 * {@code oracle}), row for row and column for column (args in their order), and the file's report field for field,
 * over every real Kineto trace of ../shared, the Kineto capture, the generated samples (the repository's data/ and
 * the generator's modern and legacy workloads) and hand-written files of the cases real traces do not have (drops of
 * every reason, escapes, floats and {@code -0} in structures, duplicate keys, a late time base, a second traceEvents
 * array, malformed and cut files). Each file is read in one pass and, forced by a budget of 0, in two.
 */
class KinetoReaderEqualityTest {
    private static final TraceReader ORACLE = new org.tracelake.jobs.readers.kineto.oracle.KinetoReader();
    private static final TraceReader ONE_PASS = new KinetoReader(Long.MAX_VALUE);
    private static final KinetoReader TWO_PASSES = new KinetoReader(0);

    @Test
    void realTracesReadTheSame() throws IOException {
        Path kineto = SharedTraces.path("kineto");
        List<Path> files;
        try (Stream<Path> all = Files.walk(kineto)) {
            files = all.filter(p -> p.toString().endsWith(".json.gz")).sorted().toList();
        }
        assertEquals(12, files.size(), "the Kineto traces of ../shared/traces");
        for (Path f : files) assertSame(f);
        assertSame(SharedTraces.capture("h200/h200-torch-compile-1gpu/profile_traces/iteration_7/rank0_trace.json.gz"));
    }

    @Test
    void theRepositorysSamplesReadTheSame() throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.walk(Path.of("..", "data"))) {
            files = all.filter(p -> p.toString().endsWith(".pt.trace.json.gz")
                            || p.getFileName().toString().matches("rank\\d+_trace\\.json\\.gz"))
                    .sorted()
                    .toList();
        }
        assertEquals(8, files.size(), "the generated Kineto traces of data/");
        for (Path f : files) assertSame(f);
    }

    @Test
    void generatedWorkloadsReadTheSame(@TempDir Path dir) throws IOException {
        SampleArchiveGenerator.write(dir.resolve("modern"), WorkloadSpec.modernSample());
        SampleArchiveGenerator.write(dir.resolve("legacy"), WorkloadSpec.legacySample());
        List<Path> files;
        try (Stream<Path> all = Files.walk(dir)) {
            files = all.filter(p -> p.toString().contains(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) assertSame(f);
    }

    /** The cases of the format that the real traces do not hold, one file each. */
    @Test
    void handWrittenCasesReadTheSame(@TempDir Path dir) throws IOException {
        String base = "\"baseTimeNanoseconds\": 1700000000000000000";
        List<String> docs = List.of(
                // every drop reason, JAX's trailing {}, an entry that is not an object
                "{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":NaN,\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"a\",\"ts\":\"abc\",\"dur\":1},{\"ph\":\"X\",\"name\":\"b\",\"ts\":true},"
                        + "{\"ph\":\"X\",\"name\":\"c\",\"ts\":1,\"dur\":-1},{\"ph\":\"X\",\"name\":\"d\",\"ts\":1},"
                        + "{\"ph\":\"i\",\"name\":\"e\"},{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"p\"}},"
                        + "{\"ph\":\"X\",\"name\":\"f\",\"ts\":\"12.5\",\"dur\":\"Infinity\"},{\"ph\":\"X\",\"name\":\"g\",\"ts\":1e400,"
                        + "\"dur\":1},{\"ph\":\"X\",\"name\":\"h\",\"ts\":1.5e3,\"dur\":0.0004},[1,2],\"s\",7,null,"
                        + "{\"ph\":\"X\",\"name\":\"i\",\"ts\":{\"a\":1},\"dur\":1},{\"ph\":\"X\",\"name\":\"j\",\"ts\":-Infinity,\"dur\":1},"
                        + "{}], " + base + "}",
                // args of every shape: escapes, floats, -0, big numbers, nested structures, null, duplicate keys
                "{\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":2,"
                        + "\"ts\":1000.123456,\"dur\":5.5,\"args\":{\"External id\":3,\"Input Dims\":[[2, 3], [3, 4]],"
                        + "\"Input type\":[\"float\", \"c10::Half\"],\"Concrete Inputs\":[\"\", \"\\u00e9\\n\", \"a\\/b\"],"
                        + "\"f\":1.50,\"z\":-0,\"zz\":[-0, 1],\"big\":123456789012345678901234567890,\"neg\":-42,"
                        + "\"e\":1E5,\"fl\":[1.0, 2.5e-3],\"o\":{\"k\": {\"x\": [true, false, null]}},\"n\":null,"
                        + "\"dup\":\"first\",\"x\\ty\":\"tab key\",\"dup\":\"second\",\"u\":\"\\ud83d\\ude00 \\u20ac\","
                        + "\"nan\":NaN,\"inf\":[Infinity],\"s\":\"\",\"long\":9223372036854775807,"
                        + "\"l18\":123456789012345678}},"
                        + "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":1001,\"dur\":2,"
                        + "\"args\":{\"correlation\":9,\"device\":0,\"stream\":7,\"grid\":[132,1,1]}},"
                        + "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
                        + "\"ts\":1000.5,\"dur\":1,\"args\":{\"correlation\":9,\"External id\":3}}],"
                        + "\"deviceProperties\": [{\"id\": 0, \"name\": \"H100\", \"totalGlobalMem\": 1.5e10}],"
                        + "\"schemaVersion\": 1, \"displayTimeUnit\": \"ms\", \"nothing\": null, " + base + "}",
                // no base, a second traceEvents array (learnt from, no rows), escaped key names, ph and name with
                // escapes
                "{\"trace\\u0045vents\": [{\"ph\":\"\\u0058\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#4\","
                        + "\"pid\":1,\"tid\":2,\"ts\":10,\"dur\":100},{\"p\\u0068\":\"X\",\"cat\":\"kernel\",\"name\":"
                        + "\"k\\u00e9\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":5,\"args\":{\"correlation\":1}}],"
                        + "\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                        + "\"pid\":1,\"tid\":2,\"ts\":15,\"dur\":1,\"args\":{\"correlation\":1}}]}",
                // the time base after the events, distributedInfo with process groups, a comm kernel and its op
                "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 1, \"world_size\": 2, \"pg_config\": "
                        + "[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"pg_size\": 2, \"ranks\": [0, 1]}]},"
                        + "\"traceEvents\": [{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32\","
                        + "\"pid\":0,\"tid\":7,\"ts\":1005,\"dur\":50,\"args\":{\"correlation\":5,\"device\":0,\"stream\":7,"
                        + "\"Collective name\":\"allreduce\",\"In msg nelems\":1024,\"Out msg nelems\":1024,"
                        + "\"dtype\":\"Float\",\"Group size\":2,\"Process Group Name\":\"0\"}},"
                        + "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
                        + "\"ts\":1002,\"dur\":2,\"args\":{\"correlation\":5,\"External id\":11}},"
                        + "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":1,\"tid\":2,"
                        + "\"ts\":1000,\"dur\":10,\"args\":{\"External id\":11,\"Collective name\":\"allreduce\","
                        + "\"In msg nelems\":1024,\"dtype\":\"Float\",\"Seq\":3}},"
                        + "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"nccl:all_reduce\",\"pid\":1,\"tid\":2,"
                        + "\"ts\":999,\"dur\":20}], " + base + "}",
                // malformed: cut inside a string, a bad token, a trailing comma, a bad escape, not an object, no events
                "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ge",
                "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": tru}]}",
                "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2},]}",
                "{\"traceEvents\": [{\"ph\": \"\\x\", \"ts\": 1, \"dur\": 2}]}",
                "{\"traceEvents\": {\"ph\": \"X\"}}",
                "{\"schemaVersion\": 1}",
                "[1, 2]",
                "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 01, \"dur\": 2}]}",
                "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 2}]} trailing bytes after the object");
        int n = 0;
        for (String doc : docs) {
            n++;
            Path f = dir.resolve("case" + n + "_rank0_trace.json");
            Files.writeString(f, doc);
            assertSame(f);
            Path gz = dir.resolve("case" + n + "_rank0_trace.json.gz");
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
                out.write(doc.getBytes(StandardCharsets.UTF_8));
            }
            assertSame(gz);
        }
    }

    /** Every arg kept as written, in order, whatever the scanner's buffer boundaries: entries much larger than it. */
    @Test
    void entriesLargerThanTheBufferReadTheSame(@TempDir Path dir) throws IOException {
        StringBuilder doc = new StringBuilder("{\"traceEvents\": [");
        for (int i = 0; i < 300; i++) {
            if (i > 0) doc.append(",\n");
            doc.append("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op")
                    .append(i % 7)
                    .append("\",\"pid\":1,\"tid\":2,")
                    .append("\"ts\":")
                    .append(1000 + i)
                    .append(".")
                    .append(i % 1000)
                    .append(",\"dur\":1,\"args\":{")
                    .append("\"Call stack\":\"")
                    .append("frame;".repeat(i * 50))
                    .append("\",\"Input Dims\":[")
                    .append("[1, 2], ".repeat(i))
                    .append("[3]]}}");
        }
        doc.append("], \"baseTimeNanoseconds\": 1700000000000000000}");
        Path f = dir.resolve("rank0_trace.json");
        Files.writeString(f, doc);
        assertSame(f);
    }

    /** Reads the file with the oracle, in one pass and in two, and holds the three to the same rows and report. */
    private static void assertSame(Path file) throws IOException {
        FileTask task = ReaderTestSupport.task(file, TraceFormat.KINETO);
        Outcome expected = read(ORACLE, task);
        Outcome one = read(ONE_PASS, task);
        Outcome two = read(TWO_PASSES, task);
        compare(file + " (one pass)", expected, one);
        compare(file + " (two passes)", expected, two);
        System.out.println("same: " + file.getFileName() + ", " + expected.rows.size() + " rows, drops "
                + expected.report.get("drops") + (expected.error == null ? "" : ", error: " + expected.error));
    }

    /**
     * A file the oracle could not read must fail the new reader with the same kind of error (the messages of two
     * parsers differ in their words; the rows before the error are not compared: the old reader could make some
     * before its second pass met the error, the new one meets every error before its first row). Any other file: the
     * same rows and the same report, a report flagged for its drops included.
     */
    private static void compare(String what, Outcome expected, Outcome actual) {
        if (expected.error != null || actual.error != null) {
            assertEquals(
                    expected.error != null,
                    actual.error != null,
                    () -> what + ": oracle " + expected.error + ", new " + actual.error);
            assertEquals(
                    kind(expected.error),
                    kind(actual.error),
                    () -> what + ": oracle " + expected.error + ", new " + actual.error);
            return;
        }
        assertEquals(expected.report, actual.report, what + ": the report");
        assertEquals(expected.rows.size(), actual.rows.size(), what + ": rows");
        for (int i = 0; i < expected.rows.size(); i++) {
            int row = i;
            assertEquals(expected.rows.get(i), actual.rows.get(i), () -> what + ": row " + row);
        }
    }

    /** What kind of error a message says (the words before its place in the file or its colon). */
    private static String kind(String error) {
        if (error == null) return null;
        int cut = error.indexOf(" at line ");
        if (cut < 0) cut = error.indexOf(':');
        return cut < 0 ? error : error.substring(0, cut);
    }

    /** The rows and report of a file read to its end, or the error that ended it (the rows before it kept). */
    private record Outcome(List<List<Object>> rows, Map<String, Object> report, String error) {}

    private static Outcome read(TraceReader reader, FileTask task) {
        EventStream stream;
        try {
            stream = reader.open(task, new Configuration());
        } catch (IOException | RuntimeException e) {
            return new Outcome(List.of(), Map.of(), ReadErrors.describe(e));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (stream.hasNext()) rows.add(values(stream.next()));
        try {
            stream.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        FileReport report = stream.report();
        if (report.fatal) return new Outcome(rows, Map.of(), report.error);
        if (reader == TWO_PASSES) assertTrue(KinetoReader.twoPasses(stream), "a budget of 0 makes two passes");
        if (reader == ONE_PASS) assertFalse(KinetoReader.twoPasses(stream), "an unbounded budget makes one pass");
        return new Outcome(rows, fields(report), null);
    }

    /** A row's values by column, strings as text and maps as their entries in order. */
    private static List<Object> values(InternalRow row) {
        StructField[] fields = EventSchema.SCHEMA.fields();
        List<Object> out = new ArrayList<>(fields.length);
        for (int i = 0; i < fields.length; i++) {
            DataType type = fields[i].dataType();
            if (row.isNullAt(i)) {
                out.add(null);
            } else if (type instanceof MapType) {
                MapData map = row.getMap(i);
                ArrayData keys = map.keyArray();
                ArrayData vals = map.valueArray();
                List<String> entries = new ArrayList<>();
                for (int k = 0; k < map.numElements(); k++) {
                    entries.add(keys.getUTF8String(k) + "=" + (vals.isNullAt(k) ? null : vals.getUTF8String(k)));
                }
                out.add(fields[i].name() + ":" + entries);
            } else if (type.equals(DataTypes.StringType)) {
                out.add(fields[i].name() + ":" + row.getUTF8String(i));
            } else {
                out.add(fields[i].name() + ":" + row.get(i, type));
            }
        }
        return out;
    }

    /** Every public field of the report, the drops by reason. */
    private static Map<String, Object> fields(FileReport report) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field f : FileReport.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            try {
                Object v = f.get(report);
                out.put(f.getName(), v instanceof DropCounter d ? d.byReason() + " total " + d.total() : v);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }
}
