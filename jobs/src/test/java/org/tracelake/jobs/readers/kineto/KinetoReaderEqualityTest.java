package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.generate.SampleArchiveGenerator;
import org.tracelake.jobs.generate.WorkloadSpec;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.testing.ExpectedOutcomes;
import org.tracelake.jobs.testing.ReadOutcome;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;

/**
 * Issue 43, equality first: the one-pass byte-level reader holds to what the two-pass Jackson reader it replaced
 * made of every Kineto file the project has, row for row and column for column (args in their order), and the file's
 * report field for field: every real Kineto trace of ../shared/traces, the H200 torch.compile capture, the generated
 * samples (the repository's data/ and the generator's modern and legacy workloads) and hand-written files of the
 * cases real traces do not have (drops of every reason, escapes, floats and {@code -0} in structures, duplicate keys,
 * a late time base, a second traceEvents array, malformed and cut files, entries larger than the scanner's buffer).
 * Each file is read in one pass and, forced by a budget of 0, in two; both are held to the same expected outcome.
 *
 * <p>The expected outcome of each file is in {@code expected-rows.txt} beside this class's resources
 * ({@link ExpectedOutcomes}, the XLA reader's equality test's format): the report field by field (task aside: it
 * holds the file's path and time), then the row count and one digest per row ({@link ReadOutcome}), or, for a file
 * the old reader could not read, its error alone.
 *
 * <p>It was written once by this test's write mode reading each file with the old reader (frozen in the test tree as
 * package {@code readers.kineto.oracle} until this file replaced it; commit db06892 is the last to have it), in a run
 * where both ways of the new reader matched it: every report and every row, and every error but in its words (the
 * byte scanner words the malformed-JSON errors of four cases its own way, so an error is compared by its kind; see
 * {@link StoredOutcome}). It is never rewritten to make the test pass: a difference is a change of the reader's
 * output, to be explained, not recorded. The write mode that remains ({@code TRACELAKE_KINETO_WRITE_EXPECTED=true})
 * is for adding a case: it writes the whole file again from the reader under test (one pass), so the new case's
 * section comes from the new reader, not the old one, and every section already there must come out unchanged.
 */
class KinetoReaderEqualityTest {
    private static final String EXPECTED = "/org/tracelake/jobs/readers/kineto/expected-rows.txt";
    /** Write mode: the test's JVM has a fixed argLine, so the switch is an environment variable. */
    private static final boolean WRITE = "true".equals(System.getenv("TRACELAKE_KINETO_WRITE_EXPECTED"));

    private static final KinetoReader ONE_PASS = new KinetoReader(Long.MAX_VALUE);
    private static final KinetoReader TWO_PASSES = new KinetoReader(0);

    private static ExpectedOutcomes expected;

    @BeforeAll
    static void load() throws IOException {
        expected = WRITE ? ExpectedOutcomes.empty(EXPECTED) : ExpectedOutcomes.load(EXPECTED);
    }

    /** In write mode, the outcomes of every case in the order the tests met them. */
    @AfterAll
    static void write() throws IOException {
        if (!WRITE) return;
        Path to = expected.write(List.of(
                "Written by KinetoReaderEqualityTest with TRACELAKE_KINETO_WRITE_EXPECTED=true, from the reader",
                "under test (one pass); every section the file had before then was written from the old",
                "two-pass Jackson reader and must have come out unchanged: see the test's class comment. One",
                "section per file: the report's fields (task aside), the row count and the rows' digests; or,",
                "for a file that could not be read, the error alone."));
        System.out.println("wrote " + to.toAbsolutePath());
    }

    @Test
    void realTracesReadTheSame() throws IOException {
        Path kineto = SharedTraces.path("kineto");
        List<Path> files;
        try (Stream<Path> all = Files.walk(kineto)) {
            files = all.filter(p -> p.toString().endsWith(".json.gz")).sorted().toList();
        }
        assertEquals(12, files.size(), "the Kineto traces of ../shared/traces");
        for (Path f : files) assertSame("traces/" + SharedTraces.root().relativize(f), f);
        String capture = "h200/h200-torch-compile-1gpu/profile_traces/iteration_7/rank0_trace.json.gz";
        assertSame("captures/" + capture, SharedTraces.capture(capture));
    }

    @Test
    void theRepositorysSamplesReadTheSame() throws IOException {
        Path data = Path.of("..", "data");
        List<Path> files;
        try (Stream<Path> all = Files.walk(data)) {
            files = all.filter(p -> p.toString().endsWith(".pt.trace.json.gz")
                            || p.getFileName().toString().matches("rank\\d+_trace\\.json\\.gz"))
                    .sorted()
                    .toList();
        }
        assertEquals(8, files.size(), "the generated Kineto traces of data/");
        for (Path f : files) assertSame("data/" + data.relativize(f), f);
    }

    /**
     * The generator's samples as it writes them now. Their expected outcomes describe the files it wrote when they
     * were taken (each report's contentHash says which bytes): a generator that writes other files fails here, by
     * the list of files or by their hash, and the new files have no old reader's outcome to be held to.
     */
    @Test
    void generatedWorkloadsReadTheSame(@TempDir Path dir) throws IOException {
        SampleArchiveGenerator.write(dir.resolve("modern"), WorkloadSpec.modernSample());
        SampleArchiveGenerator.write(dir.resolve("legacy"), WorkloadSpec.legacySample());
        List<Path> files;
        try (Stream<Path> all = Files.walk(dir)) {
            files = all.filter(p -> p.toString().contains(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        if (!WRITE) {
            Set<String> stored = expected.names().stream()
                    .filter(n -> n.startsWith("generated/"))
                    .collect(Collectors.toCollection(TreeSet::new));
            Set<String> written = files.stream()
                    .map(f -> "generated/" + dir.relativize(f))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(stored, written, "the Kineto files the generator writes");
        }
        for (Path f : files) assertSame("generated/" + dir.relativize(f), f);
    }

    /** The cases of the format that the real traces do not hold, one file each, plain and gzipped. */
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
            assertSame("hand/" + f.getFileName(), f);
            Path gz = dir.resolve("case" + n + "_rank0_trace.json.gz");
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
                out.write(doc.getBytes(StandardCharsets.UTF_8));
            }
            assertSame("hand/" + gz.getFileName(), gz);
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
        assertSame("hand/entries-larger-than-the-buffer/" + f.getFileName(), f);
    }

    /**
     * Reads the file in one pass and in two and holds both to the outcome stored under its name (in write mode, to
     * the one-pass outcome, which it stores).
     */
    private static void assertSame(String name, Path file) throws IOException {
        FileTask task = ReaderTestSupport.task(file, TraceFormat.KINETO);
        ReadOutcome one = ReadOutcome.read(
                ONE_PASS, task, s -> assertFalse(KinetoReader.twoPasses(s), "an unbounded budget makes one pass"));
        ReadOutcome two = ReadOutcome.read(
                TWO_PASSES, task, s -> assertTrue(KinetoReader.twoPasses(s), "a budget of 0 makes two passes"));
        List<String> want;
        if (WRITE) {
            want = StoredOutcome.of(one);
            expected.put(name, want);
        } else {
            want = expected.get(name);
            if (want == null) throw new AssertionError(name + " has no expected outcome in " + EXPECTED);
        }
        StoredOutcome stored = new StoredOutcome(name, want);
        stored.assertMatches("one pass", one);
        stored.assertMatches("two passes", two);
        System.out.println("same: " + name + ", " + one.rows().size() + " rows, drops "
                + one.report().get("drops")
                + (stored.error() == null ? "" : ", error before: " + stored.error() + ", now: " + one.error()));
    }
}
