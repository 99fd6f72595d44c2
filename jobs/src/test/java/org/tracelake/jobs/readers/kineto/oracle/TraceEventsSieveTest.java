package org.tracelake.jobs.readers.kineto.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The sieve's promise: what comes out is the document with exactly the {@code traceEvents} entries the filter turns
 * down taken out (each entry judged by its parsed {@code cat} and {@code name}), or, where the scan is unsure, more.
 * Checked against Jackson's own reading of the whole document.
 */
class TraceEventsSieveTest {
    private static final ObjectMapper JSON = new ObjectMapper(ChromeEventParser.FACTORY);

    /** The categories the test filter keeps, and the one name it keeps whatever the category. */
    private static final Set<String> KEPT_CATS = Set.of("cuda_runtime", "user_annotation");

    private static final String KEPT_NAME = "ncclAllReduce \"x\"";

    private static boolean keep(String cat, String name) {
        return (cat != null && KEPT_CATS.contains(cat)) || KEPT_NAME.equals(name);
    }

    private static final TraceEventsSieve.Filter FILTER = e -> keep(e.cat(), e.name());

    @Test
    void realKinetoFilesLoseExactlyTheEntriesTheFilterTurnsDown() throws IOException {
        List<String> files = List.of(
                "kineto/dlrm-8rank-v100/worker0_step_12.1694128201545.pt.trace.json.gz",
                "kineto/hta-nccl-args-rank0of2/nccl_data.json.gz",
                "kineto/hta-sampled-2rank/sampled_rank-1.json.gz",
                "kineto/aorta-rocm-mi350-tiny/smci350-zts-gtu-c6-25_200691.1758927066581847260.pt.trace.json.gz");
        for (String file : files) {
            byte[] doc;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(TestArchive.shared(file)))) {
                doc = in.readAllBytes();
            }
            JsonNode expected = expectedAfterSieve(doc, new BitSet());
            JsonNode sieved = JSON.readTree(sieve(doc));
            assertEquals(expected, sieved, file);
            assertTrue(
                    sieved.get("traceEvents").size()
                            < JSON.readTree(doc).get("traceEvents").size() / 2,
                    file);
        }
    }

    /**
     * Random documents larger than the sieve's chunk, so that chunk boundaries fall inside keys, names, escapes and
     * entries: strings full of quotes, backslashes, braces and non-ASCII text, nested args, categories that are
     * missing, repeated, escaped or not strings.
     */
    @Test
    void randomDocumentsAcrossChunkBoundaries() throws IOException {
        Random random = new Random(20261124);
        for (int doc = 0; doc < 20; doc++) {
            BitSet unsure = new BitSet();
            byte[] bytes =
                    randomDocument(random, 1500 + random.nextInt(1500), unsure).getBytes(StandardCharsets.UTF_8);
            assertSameEntries(expectedAfterSieve(bytes, unsure), JSON.readTree(sieve(bytes)), "document " + doc);
        }
    }

    @Test
    void entriesThatAreNotObjectsEndTheSievingAndGoThroughWhole() throws IOException {
        String doc =
                "{\"traceEvents\": [{\"cat\": \"kernel\"}, {\"cat\": \"cuda_runtime\"}, 7, {\"cat\": \"kernel\"}], \"x\": 1}";
        assertEquals(
                JSON.readTree("{\"traceEvents\": [{\"cat\": \"cuda_runtime\"}, 7, {\"cat\": \"kernel\"}], \"x\": 1}"),
                JSON.readTree(sieve(doc.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void aCutFileStaysCutForJackson() {
        byte[] doc = "{\"traceEvents\": [{\"cat\": \"cuda_runtime\", \"name\": \"x\"}, {\"cat\": \"cuda_runtime\", \"na"
                .getBytes(StandardCharsets.UTF_8);
        assertThrows(IOException.class, () -> JSON.readTree(sieve(doc)));
    }

    @Test
    void everythingOutsideTheArrayGoesThroughUnchanged() throws IOException {
        String doc = "{\"a\": {\"traceEvents\": [1]}, \"traceEvents\": [{\"cat\": \"kernel\"}], "
                + "\"b\": \"]}\\\"\", \"baseTimeNanoseconds\": 1700000000000000000}";
        assertEquals(
                "{\"a\": {\"traceEvents\": [1]}, \"traceEvents\": [], \"b\": \"]}\\\"\", "
                        + "\"baseTimeNanoseconds\": 1700000000000000000}",
                new String(sieve(doc.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
    }

    @Test
    void theTraceEventsKeyIsFoundWhenAChunkEndsInsideIt() throws IOException {
        String pad = "x".repeat(65_518); // puts the end of the sieve's first 64 KiB chunk inside "traceEvents"
        String doc =
                "{\"pad\": \"" + pad + "\", \"traceEvents\": [{\"cat\": \"kernel\"}, {\"cat\": \"cuda_runtime\"}]}";
        assertEquals(
                "{\"pad\": \"" + pad + "\", \"traceEvents\": [{\"cat\": \"cuda_runtime\"}]}",
                new String(sieve(doc.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
    }

    private static byte[] sieve(byte[] doc) throws IOException {
        try (InputStream in = new TraceEventsSieve(new ByteArrayInputStream(doc), FILTER)) {
            return in.readAllBytes();
        }
    }

    /**
     * The document as Jackson reads it, with the entries that are objects and that the filter turns down removed,
     * except those the sieve cannot judge from bytes (an escaped key, a category that is not a string, a repeated one).
     */
    private static JsonNode expectedAfterSieve(byte[] doc, BitSet unsure) throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(doc);
        ArrayNode kept = JSON.createArrayNode();
        int i = 0;
        for (JsonNode entry : root.get("traceEvents")) {
            if (!entry.isObject() || unsure.get(i) || keep(text(entry.get("cat")), text(entry.get("name"))))
                kept.add(entry);
            i++;
        }
        root.set("traceEvents", kept);
        return root;
    }

    /** Equal documents, told entry by entry (a whole random document is too long to read in a failure message). */
    private static void assertSameEntries(JsonNode expected, JsonNode actual, String what) {
        JsonNode want = expected.get("traceEvents");
        JsonNode got = actual.get("traceEvents");
        for (int i = 0; i < Math.min(want.size(), got.size()); i++)
            assertEquals(want.get(i), got.get(i), what + ", entry " + i);
        assertEquals(want.size(), got.size(), what + ": entries");
        assertEquals(expected, actual, what);
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() ? null : value.asText();
    }

    private static String randomDocument(Random random, int entries, BitSet unsure) {
        StringBuilder doc =
                new StringBuilder("{\"schemaVersion\": 1, \"deviceProperties\": [{\"name\": \"{[\\\"\"}],\n");
        doc.append("\"traceEvents\": [");
        String[] cats = {"cpu_op", "kernel", "cuda_runtime", "user_annotation", "ac2g", "cuda\\u005fruntime"};
        for (int i = 0; i < entries; i++) {
            if (i > 0) doc.append(random.nextBoolean() ? "," : " ,\n  ");
            doc.append('{');
            int fields = 0;
            boolean hasCat = random.nextInt(10) > 0;
            if (hasCat) {
                boolean escapedKey = random.nextInt(20) == 0;
                boolean number = random.nextInt(25) == 0;
                field(doc, fields++, escapedKey ? "c\\u0061t" : "cat");
                doc.append(number ? "5" : "\"" + cats[random.nextInt(cats.length)] + "\"");
                if (escapedKey || number) unsure.set(i);
            }
            if (random.nextInt(30) == 0) { // another cat: Jackson keeps the last
                field(doc, fields++, "cat");
                doc.append('"').append(cats[random.nextInt(cats.length)]).append('"');
                if (hasCat) unsure.set(i);
            }
            field(doc, fields++, "name");
            doc.append('"')
                    .append(random.nextInt(8) == 0 ? "ncclAllReduce \\\"x\\\"" : randomText(random))
                    .append('"');
            field(doc, fields++, "ts");
            doc.append(random.nextInt(1_000_000));
            field(doc, fields++, "args");
            doc.append("{\"Input Dims\": [[")
                    .append(random.nextInt(9))
                    .append(", 2]], \"s\": \"")
                    .append(randomText(random))
                    .append("\", \"o\": {\"cat\": \"cuda_runtime\", \"n\": [\"}\"]}}");
            doc.append('}');
        }
        doc.append("],\n\"traceName\": \"").append(randomText(random)).append("\", \"baseTimeNanoseconds\": 1}");
        return doc.toString();
    }

    private static void field(StringBuilder doc, int index, String key) {
        if (index > 0) doc.append(", ");
        doc.append('"').append(key).append("\": ");
    }

    private static String randomText(Random random) {
        String[] pieces = {
            "aten::mm", "{", "}", "[", "]", "\\\"", "\\\\", ",", ":", "é", "\\u00e9", "步", " ", "\\n", "cat"
        };
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(40);
        for (int i = 0; i < n; i++) s.append(pieces[random.nextInt(pieces.length)]);
        return s.toString();
    }
}
