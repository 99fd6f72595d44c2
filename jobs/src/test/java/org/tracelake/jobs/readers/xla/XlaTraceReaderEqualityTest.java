package org.tracelake.jobs.readers.xla;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.testing.ExpectedOutcomes;
import org.tracelake.jobs.testing.ReadOutcome;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;

/**
 * Issue 43, equality first: the XLA trace JSON reader holds to what the reader before the byte scanner (two passes of
 * Jackson's token parser through ChromeEventParser) made of every XLA JSON file there is: the two real ones of the
 * H200 JAX capture (perfetto_trace.json.gz, vm.trace.json.gz; ../shared/traces has no XLA JSON, its xplane/ folder
 * holds an XSpace only), the hand-made TPU trace of {@link XlaTraceReaderTest}, the fuzz seeds of the
 * {@code xlaTraceJson} target, and hand-written files, plain and gzipped, of the cases those do not hold (drops of
 * every reason, counters, late metadata, escapes, floats and {@code -0} in structures, duplicate keys, top-level
 * fields as args, a second traceEvents array, values larger than the scanner's buffer, malformed and cut files). The
 * generator writes no XLA JSON (its XLA sample is an XSpace), so there is no generated sample to add.
 *
 * <p>The expected outcome of each file is in {@code expected-rows.txt} beside this class's resources: the report
 * field by field (task aside: it holds the file's path and time), then one digest per row (the first 16 hex digits of
 * the SHA-256 of every column's value, args in their order, as {@link ReadOutcome#values} writes them), or the
 * error the file failed with ({@link ReadOutcome} and {@link ExpectedOutcomes}, shared with the Kineto reader's
 * equality test). It was written once by this test with the environment variable {@code TRACELAKE_XLA_WRITE_EXPECTED=true}, run against the
 * Jackson reader at commit a336fe2 (the branch point of issue 43's XLA work), and is never rewritten to make the test
 * pass: a difference is a change of the reader's output, to be explained, not recorded.
 */
class XlaTraceReaderEqualityTest {
    private static final String EXPECTED = "/org/tracelake/jobs/readers/xla/expected-rows.txt";
    /** Write mode: the test's JVM has a fixed argLine, so the switch is an environment variable. */
    private static final boolean WRITE = "true".equals(System.getenv("TRACELAKE_XLA_WRITE_EXPECTED"));

    private static ExpectedOutcomes expected;

    @BeforeAll
    static void load() throws IOException {
        expected = WRITE ? ExpectedOutcomes.empty(EXPECTED) : ExpectedOutcomes.load(EXPECTED);
    }

    /** In write mode, the outcomes of every case in the order the tests met them (cases named alike stay apart). */
    @AfterAll
    static void write() throws IOException {
        if (!WRITE) return;
        Path to = expected.write(List.of(
                "Written by XlaTraceReaderEqualityTest with TRACELAKE_XLA_WRITE_EXPECTED=true against the",
                "Jackson XLA reader (commit a336fe2); see the test's class comment. One section per file:",
                "the report's fields (task aside), then the rows' digests or the error."));
        System.out.println("wrote " + to.toAbsolutePath());
    }

    @Test
    void realTracesReadTheSame() throws IOException {
        Path profile = SharedTraces.capture("h200/h200-jax-attention-1gpu/xprof/plugins/profile");
        List<Path> files;
        try (Stream<Path> all = Files.walk(profile)) {
            files = all.filter(p -> p.toString().endsWith(".json.gz")).sorted().toList();
        }
        assertEquals(2, files.size(), "perfetto_trace.json.gz and vm.trace.json.gz of the JAX capture");
        for (Path f : files) assertSame("capture/" + f.getFileName(), f);
    }

    @Test
    void theTestResourcesReadTheSame() throws Exception {
        assertSame(
                "resource/tpu-v6e-4chip.trace.json",
                Path.of(getClass().getResource("/xla/tpu-v6e-4chip.trace.json").toURI()));
        Path seeds = Path.of(getClass()
                .getResource("/org/tracelake/jobs/readers/fuzz/ReaderFuzzTestInputs/xlaTraceJson")
                .toURI());
        List<Path> files;
        try (Stream<Path> all = Files.list(seeds)) {
            files = all.sorted().toList();
        }
        assertTrue(files.size() >= 2, "the fuzz target's seeds");
        for (Path f : files) assertSame("fuzz/" + f.getFileName(), f);
    }

    /** The cases of the format the real traces do not hold, one file each, plain and gzipped. */
    @Test
    void handWrittenCasesReadTheSame(@TempDir Path dir) throws IOException {
        String header = "\"displayTimeUnit\":\"ns\",\"metadata\":{\"highres-ticks\":true},";
        String devices = "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"h /device:TPU:0\"}},"
                + "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"XLA Ops\"}},"
                + "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"Steps\"}},";
        List<String> docs = List.of(
                // every drop reason, a counter series, JAX's trailing {}, entries that are not objects
                "{" + header + "\"traceEvents\":[" + devices
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"fusion.1\",\"ts\":NaN,\"dur\":1},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"a\",\"ts\":\"abc\",\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"b\",\"ts\":true},{\"ph\":\"X\",\"name\":\"c\",\"ts\":1,\"dur\":-1},"
                        + "{\"ph\":\"X\",\"name\":\"d\",\"ts\":1},{\"ph\":\"i\",\"name\":\"e\"},"
                        + "{\"ph\":\"X\",\"name\":\"f\",\"ts\":\"12.5\",\"dur\":\"Infinity\"},"
                        + "{\"ph\":\"X\",\"name\":\"g\",\"ts\":1e400,\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"h\",\"ts\":1.5e3,\"dur\":0.0004},[1,2],\"s\",7,null,"
                        + "{\"ph\":\"X\",\"name\":\"i\",\"ts\":{\"a\":1},\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"j\",\"ts\":-Infinity,\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"k\",\"ts\":\"NaN\",\"dur\":1},"
                        + "{\"ph\":\"X\",\"name\":\"l\",\"ts\":5,\"dur\":\"x\"},"
                        + "{\"ph\":\"X\",\"name\":\"m\",\"ts\":5,\"dur\":[1]},"
                        + "{\"ph\":\"X\",\"name\":\"n\",\"ts\":null,\"dur\":1},{\"ts\":null},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"o\",\"ts\":6,\"dur\":\"bad\","
                        + "\"args\":{\"device_duration_ps\":1500}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"p\",\"ts\":6,\"dur\":2,"
                        + "\"args\":{\"device_duration_ps\":-5}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"q\",\"ts\":6,\"dur\":-2,"
                        + "\"args\":{\"device_duration_ps\":\"12345678901234567890\"}},"
                        + "{\"pid\":1,\"name\":\"HBM\",\"ph\":\"C\",\"event_stats\":\"arg1\",\"entries\":[[1.5,2],[2.5,3]]},"
                        + "{\"pid\":1,\"name\":\"HBM\",\"ph\":\"C\",\"entries\":[]},"
                        + "{}]}",
                // steps, devices and lines named after their ops, host annotations, flows and async ids as args,
                // collectives in both replica-group forms, GPU streams, Host Threads, Python and TraceMe spans
                "{" + header + "\"fullTimespan\":[0.0,12.5],\"returnedEventsSize\":40,\"tasks\":[{\"host\":\"h\"}],"
                        + "\"traceEvents\":["
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"10\",\"ts\":0,\"dur\":100},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"step\",\"ts\":100,\"dur\":100,\"args\":{\"step_num\":\"11\"}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"s\",\"ts\":200,\"dur\":100,\"args\":{\"group_id\":12}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"all-reduce.5\",\"ts\":2337.251749,\"dur\":812.3,"
                        + "\"args\":{\"long_name\":\"%all-reduce.5 = f32[5,1024]{1,0} all-reduce(f32[5,1024]{1,0} %b), "
                        + "channel_id=1, replica_groups=[4,2]<=[2,4]T(1,0), to_apply=%r\",\"hlo_category\":\"all-reduce\","
                        + "\"device_duration_ps\":812300000,\"bytes_accessed\":10737418240,\"raw_bytes_accessed\":\"20480\","
                        + "\"shape_with_layout\":\"f32[5,1024]{1,0}\",\"program_id\":\"15838478290367340135\","
                        + "\"correlation_id\":77,\"group_id\":10}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"fusion.7\",\"ts\":50,\"dur\":3.25,"
                        + "\"args\":{\"hlo_category\":\"all-gather\",\"long_name\":\"%fusion.7 = bf16[8]{0} fusion(), "
                        + "replica_groups={{0,1,2,3},{4,5,6,7}}\",\"shape_with_layout\":\"bf16[8]{0}\",\"bytes_accessed\":64}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"collective-permute-start.1\",\"ts\":60,\"dur\":1,"
                        + "\"args\":{\"long_name\":\"replica_groups={}\",\"bytes_accessed\":\"x\"}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":3,\"name\":\"copy-start.2\",\"ts\":70,\"dur\":1},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":4,\"name\":\"jit_train_step\",\"ts\":0,\"dur\":300},"
                        + "{\"ph\":\"X\",\"pid\":2,\"tid\":17,\"name\":\"MemcpyD2H\",\"ts\":80,\"dur\":2,\"cat\":\"Memcpy\"},"
                        + "{\"ph\":\"X\",\"pid\":2,\"tid\":17,\"name\":\"Memset\",\"ts\":81,\"dur\":2},"
                        + "{\"ph\":\"X\",\"pid\":2,\"tid\":17,\"name\":\"gemm_kernel\",\"ts\":82,\"dur\":2,"
                        + "\"args\":{\"correlation_id\":\"5\",\"kernel_details\":\"grid:16,1,1\"}},"
                        + "{\"ph\":\"X\",\"pid\":2,\"tid\":18,\"name\":\"k\",\"ts\":83,\"dur\":2},"
                        + "{\"ph\":\"X\",\"pid\":701,\"tid\":583,\"name\":\"cuLaunchKernel\",\"ts\":79,\"dur\":1,"
                        + "\"args\":{\"correlation_id\":5}},"
                        + "{\"ph\":\"X\",\"pid\":701,\"tid\":9,\"name\":\"$train.py:12 step\",\"ts\":1,\"dur\":250},"
                        + "{\"ph\":\"X\",\"pid\":701,\"tid\":9,\"name\":\"train\",\"ts\":0,\"dur\":290,\"args\":{\"step_num\":3}},"
                        + "{\"ph\":\"X\",\"pid\":701,\"tid\":9,\"name\":\"ProfilerStep#4\",\"ts\":0,\"dur\":280},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":4,\"name\":\"ProfilerStep#5\",\"ts\":0,\"dur\":280},"
                        + "{\"ph\":\"s\",\"pid\":701,\"tid\":9,\"name\":\"flow\",\"ts\":2,\"id\":\"0x1f\",\"bind_id\":31,"
                        + "\"flow_out\":true,\"cat\":\"async\"},"
                        + "{\"ph\":\"b\",\"pid\":701,\"tid\":9,\"name\":\"async\",\"ts\":3,\"id\":7,\"args\":{\"id\":\"arg wins\"}},"
                        + "{\"ph\":\"e\",\"pid\":701,\"tid\":9,\"args\":{\"s\":1},\"name\":\"async\",\"ts\":4,\"id\":7,\"s\":\"t\"},"
                        + "{\"ph\":\"i\",\"pid\":701,\"tid\":9,\"name\":\"mark\",\"ts\":5,\"s\":\"g\",\"bp\":null},"
                        + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"h /device:TPU:0\"}},"
                        + "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"/device:GPU:3\"}},"
                        + "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\",\"args\":{\"name\":\"/device:TPU:12\"}},"
                        + "{\"ph\":\"M\",\"pid\":701,\"name\":\"process_name\",\"args\":{\"name\":\"/host:CPU\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"Steps\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"XLA Ops\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"tid\":3,\"name\":\"thread_name\",\"args\":{\"name\":\"Async XLA Ops\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"tid\":4,\"name\":\"thread_name\",\"args\":{\"name\":\"XLA Modules\"}},"
                        + "{\"ph\":\"M\",\"pid\":2,\"tid\":17,\"name\":\"thread_name\",\"args\":{\"name\":\"Stream #17(Kernel)\"}},"
                        + "{\"ph\":\"M\",\"pid\":2,\"tid\":18,\"name\":\"thread_name\",\"args\":{\"name\":\"Framework Ops\"}},"
                        + "{\"ph\":\"M\",\"pid\":701,\"tid\":583,\"name\":\"thread_name\",\"args\":{\"name\":\"Host Threads/583\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":1}}"
                        + "],\"showCounterMessage\":false,\"totalCounterEvents\":0}",
                // args of every shape: escapes, floats, -0, big numbers, nested structures, null, duplicate keys;
                // escaped field names; top-level keys tracelake uses itself; a second traceEvents array (learnt
                // from, no rows)
                "{\"trace\\u0045vents\":[{\"ph\":\"X\",\"cat\":\"c\",\"name\":\"op\\u00e9\\n\",\"pid\":\"701\",\"tid\":2,"
                        + "\"ts\":1000.123456,\"dur\":5.5,\"args\":{\"dims\":[[2, 3], [3, 4]],"
                        + "\"types\":[\"float\", \"c10::Half\"],\"strs\":[\"\", \"\\u00e9\\n\", \"a\\/b\"],"
                        + "\"f\":1.50,\"z\":-0,\"zz\":[-0, 1],\"big\":123456789012345678901234567890,\"neg\":-42,"
                        + "\"e\":1E5,\"fl\":[1.0, 2.5e-3],\"o\":{\"k\": {\"x\": [true, false, null]}},\"n\":null,"
                        + "\"dup\":\"first\",\"x\\ty\":\"tab key\",\"dup\":\"second\",\"u\":\"\\ud83d\\ude00 \\u20ac\","
                        + "\"nan\":NaN,\"inf\":[Infinity],\"s\":\"\",\"long\":9223372036854775807,\"t\":true,"
                        + "\"line\":\"my line\"},\"args\":{\"late\":1,\"dup\":\"third\"},\"n\\u0061me\":\"renamed\"},"
                        + "{\"p\\u0068\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"3\",\"ts\":20,\"dur\":5,\"ts\":21,"
                        + "\"args\":\"not an object\"},"
                        + "{\"ph\":\"X\",\"pid\":1.0,\"tid\":-0,\"name\":null,\"ts\":\"22\",\"dur\":\"1.5\",\"args\":{}},"
                        + "{\"ph\":\"X\",\"pid\":[1],\"tid\":{\"a\":1},\"name\":7,\"cat\":false,\"ts\":23,\"dur\":1}],"
                        + "\"reader_bug\":1,\"devices\":\"mine\",\"step_count\":[1,2],\"nothing\":null,\"num\":1.5e3,"
                        + "\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"/device:TPU:1\"}},"
                        + "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"Steps\"}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"3\",\"ts\":0,\"dur\":100}],\"displayTimeUnit\":\"ns\"}",
                // a top-level value beyond the metadata's 64 KiB, and a string arg larger than the scanner's buffer
                "{\"displayTimeUnit\":\"ns\",\"codeLink\":\"" + "x".repeat(70_000) + "\",\"traceEvents\":["
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"n\",\"ts\":1,\"dur\":1,\"args\":{\"long_name\":\""
                        + "é".repeat(40_000) + "\",\"list\":[" + "1, ".repeat(30_000) + "2]}}]}",
                // no events, an empty array, whitespace
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[]}",
                " \n\t{ \"traceEvents\" : [ { \"ph\" : \"X\" , \"name\" : \"w\" , \"ts\" : 1 , \"dur\" : 2 } ] } \n",
                // malformed: cut inside a string, a bad token, a trailing comma, a bad escape, traceEvents not an
                // array, no traceEvents, not an object, leading zeroes, bytes after the object, an empty file,
                // bad UTF-8 in an arg and at the top, cut between events, a duplicate traceEvents not an array
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"name\":\"ge",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":tru}]}",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2},]}",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"\\x\",\"ts\":1,\"dur\":2}]}",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":{\"ph\":\"X\"}}",
                "{\"displayTimeUnit\":\"ns\"}",
                "[1, 2]",
                "\"traceEvents\"",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":01,\"dur\":2}]}",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2}]} trailing bytes",
                "",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"a\":\"\u00ff\"}}]}",
                "{\"displayTimeUnit\":\"\u00ff\",\"traceEvents\":[]}",
                "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2},",
                "{\"traceEvents\":[],\"traceEvents\":7}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2}]",
                // what the index reads among args it does not keep: a metadata name under an escaped key, step
                // numbers as a top-level field (an arg of that name wins) and written twice, a null arg
                "{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"n\\u0061me\":"
                        + "\"/device:TPU:0\",\"x\":[1,{\"a\":\"b\"}]}},{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":"
                        + "\"thread_name\",\"args\":{\"name\":\"Steps\",\"name\":null}},{\"ph\":\"X\",\"pid\":1,\"tid\":1,"
                        + "\"name\":\"s\",\"ts\":0,\"dur\":10,\"step_num\":5},{\"ph\":\"X\",\"pid\":1,\"tid\":1,"
                        + "\"name\":\"s\",\"ts\":10,\"dur\":10,\"step_num\":5,\"args\":{\"step_num\":\"6\"}},"
                        + "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"s\",\"ts\":20,\"dur\":10,"
                        + "\"args\":{\"group_id\":7,\"group_id\":8,\"step_num\":null}},"
                        + "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"name\":\"t\",\"ts\":1,\"dur\":1,\"args\":{\"step_num\":9}}]}",
                // bad text where the first pass keeps nothing: UTF-8 in a nested arg, in an arg's key, in a field
                // kept as an arg; a \\u escape that is no hex; an args value that is no object (never read)
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"a\":[1,{\"b\":\"\u00ff\"}]}}]}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"\u00ff\":1}}]}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"id\":\"\u00ff\"}]}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"a\":\"\\u12G4\"}}]}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":{\"a\":{\"\\u00zz\":1}}}]}",
                "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2,\"args\":\"\u00ff\"}]}");
        int n = 0;
        for (String doc : docs) {
            n++;
            // bad UTF-8 on purpose: the documents with \u00ff (all else ASCII) are written as Latin-1, that one byte
            byte[] bytes = doc.getBytes(doc.contains("\u00ff") ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
            Path f = dir.resolve("case" + n + ".trace.json");
            Files.write(f, bytes);
            assertSame("hand/case" + n, f);
            Path gz = dir.resolve("case" + n + ".trace.json.gz");
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
                out.write(bytes);
            }
            assertSame("hand/case" + n + ".gz", gz);
        }
    }

    /** The file's outcome against the one stored under its name (or stored, in write mode). */
    private static void assertSame(String name, Path file) throws IOException {
        FileTask task = ReaderTestSupport.task(file, TraceFormat.XLA_TRACE_JSON);
        ReadOutcome actual = ReadOutcome.read(new XlaTraceReader(), task);
        List<String> lines = actual.lines();
        if (WRITE) {
            expected.put(name, lines);
            return;
        }
        List<String> want = expected.get(name);
        if (want == null) throw new AssertionError(name + " has no expected outcome in " + EXPECTED);
        want = changed(name, want);
        int rowsAt = 0;
        while (rowsAt < want.size() && !want.get(rowsAt).startsWith("rows ")) rowsAt++;
        // the report and the error, line by line, then the rows: a row's values are shown when its digest differs
        assertEquals(
                String.join("\n", comparable(want.subList(0, rowsAt))),
                String.join("\n", comparable(head(lines))),
                name + ": report");
        assertEquals(want.get(rowsAt), "rows " + actual.rows().size(), name + ": rows");
        for (int i = 0; i < actual.rows().size(); i++) {
            int row = i;
            assertEquals(
                    want.get(rowsAt + 1 + i),
                    ReadOutcome.digest(actual.rows().get(i)),
                    () -> name + ": row " + row + " is now " + actual.rows().get(row));
        }
        String wantError = expected.get(name).stream()
                .filter(l -> l.startsWith("error "))
                .findFirst()
                .orElse(null);
        System.out.println("same: " + name + ", " + actual.rows().size() + " rows"
                + (actual.error() == null ? "" : ", error: " + actual.error())
                + (wantError == null || wantError.equals("error " + ReadOutcome.oneLine(actual.error()))
                        ? ""
                        : " (before: " + wantError.substring(6) + ")"));
    }

    /**
     * The outcomes that differ from the Jackson reader's on purpose, each with its reason. An empty file: Jackson's
     * parser gave no first token, and the reader said "this file starts with null"; the scanner says the file ends
     * before any JSON value, in the sentence every truncated file gets (the Kineto reader's too). A file cut after the
     * comma between two entries: Jackson called it malformed ("Unexpected end-of-input within/between Array entries"
     * is not its end-of-input exception), the scanner calls it truncated, as it calls every file cut short.
     */
    private static final Map<String, String> CHANGED_ERRORS = Map.of(
            "hand/case17", "error truncated JSON: the file ends at line …",
            "hand/case17.gz", "error truncated JSON: the file ends at line …",
            "hand/case20", "error truncated JSON: the file ends at line …",
            "hand/case20.gz", "error truncated JSON: the file ends at line …");

    private static List<String> changed(String name, List<String> want) {
        String error = CHANGED_ERRORS.get(name);
        if (error == null) return want;
        return want.stream().map(l -> l.startsWith("error ") ? error : l).toList();
    }

    /**
     * The lines as compared: a JSON syntax error by its kind and the fact that it says where ("malformed JSON at
     * line …", "truncated JSON: the file ends at line …"), as the Kineto reader's equality test compares them: the byte
     * scanner words the problem in its own way (lower case, without Jackson's "(or 'NaN'/'+INF'/'-INF')") and may
     * place it a column earlier (at the bad character, where Jackson stands after it). Every other error, the
     * reader's own sentences, compared whole.
     */
    private static List<String> comparable(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            int at = line.indexOf(" at line ");
            out.add(line.startsWith("error ") && at >= 0 ? line.substring(0, at) + " at line …" : line);
        }
        return out;
    }

    private static List<String> head(List<String> lines) {
        int rowsAt = 0;
        while (!lines.get(rowsAt).startsWith("rows ")) rowsAt++;
        return lines.subList(0, rowsAt);
    }
}
