package org.tracelake.jobs.readers;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Files are taken by what they hold, and the ones no reader takes say what they are (issue 14, items 5 and 6). The
 * workload holds a real execution trace (../shared/traces/execution-trace/dlrm-8rank-v100/dlrm_eg_0.json.gz,
 * gunzipped) under a name that says nothing, {@code 1.0.2-chakra.0.0.4.json}, as another archive had it; a zip and a
 * tar of it; and a {@code .et} file with the first bytes FORMATS.md §0 gives for Chakra protobuf.
 */
class FileKindsIngestTest {
    @Test
    void contentDecidesAndSkipsSayWhatTheFileIs(@TempDir Path tmp) throws Exception {
        byte[] et;
        try (GZIPInputStream in = new GZIPInputStream(
                Files.newInputStream(TestArchive.shared("execution-trace/dlrm-8rank-v100/dlrm_eg_0.json.gz")))) {
            et = in.readAllBytes();
        }
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(zip)) {
            z.putNextEntry(new ZipEntry("dlrm_eg_0.json"));
            z.write(et);
        }
        byte[] tar = new byte[1024];
        byte[] name = "dlrm_eg_0.json".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(name, 0, tar, 0, name.length);
        System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
        byte[] chakra = {0x5e, 0x12, 0x10, 0x0a, 0x06, 's', 'c', 'h', 'e', 'm', 'a'};

        TestArchive a = new TestArchive(tmp)
                .card("w", "training", "dlrm", "V100", 8)
                .write("w", "1.0.2-chakra.0.0.4.json", et)
                .write("w", "traces.zip", zip.toByteArray())
                .write("w", "traces.tar", tar)
                .write("w", "rank0.et", chakra);
        SparkSession spark = SharedSpark.get();
        a.ingest(spark);

        Map<String, Row> files = new HashMap<>();
        for (Row r : spark.read().format("iceberg").load(a.table("trace_files")).collectAsList()) {
            files.put(Path.of(r.getString(r.fieldIndex("path"))).getFileName().toString(), r);
        }
        Row read = files.get("1.0.2-chakra.0.0.4.json");
        assertEquals(List.of("ok", "pytorch_et"), List.of(status(read), read.getString(read.fieldIndex("format"))));
        assertEquals("a zip archive: unpack it into the workload folder", error(files.get("traces.zip")));
        assertEquals("a tar archive: unpack it into the workload folder", error(files.get("traces.tar")));
        assertEquals(
                "a Chakra protobuf execution trace (not supported; export the JSON execution trace instead)",
                error(files.get("rank0.et")));
        for (String skipped : List.of("traces.zip", "traces.tar", "rank0.et"))
            assertEquals("skipped", status(files.get(skipped)));
        long nodes = spark.read().format("iceberg").load(a.table("et_nodes")).count();
        assertEquals(
                Long.parseLong(read.getMap(read.fieldIndex("metadata"))
                        .get("et.nodes")
                        .get()
                        .toString()),
                nodes);
    }

    private static String status(Row r) {
        return r.getString(r.fieldIndex("status"));
    }

    private static String error(Row r) {
        return r.getString(r.fieldIndex("error"));
    }
}
