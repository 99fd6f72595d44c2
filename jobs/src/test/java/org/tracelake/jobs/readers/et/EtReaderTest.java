package org.tracelake.jobs.readers.et;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.testing.InternalRows;
import org.tracelake.schemas.EtNodeSchema;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The ET reader without Spark: the chakra node shape (FORMATS.md §7, 1.1.0-chakra: inputs/outputs as
 * {values, shapes, types}, attributes in {@code attrs}, parent in {@code ctrl_deps}) and a file cut short. The
 * chakra comm node below is written in that shape with the attrs a 1.1.0 comm node carries; its sizes are worked
 * out by hand (8192 BFloat16 elements = 16384 bytes; all_gather out = in × 8).
 */
class EtReaderTest {
    @TempDir
    Path tmp;

    static final String CHAKRA = """
            {"schema": "1.1.0-chakra.0.0.4", "pid": 7, "time": "2024-10-01 08:00:00", "start_ts": 5,
             "nodes": [
              {"id": 2, "name": "[pytorch|profiler|execution_trace|thread]", "ctrl_deps": 1,
               "inputs": {"values": [], "shapes": [], "types": []}, "outputs": {"values": [], "shapes": [], "types": []},
               "attrs": [{"name": "rf_id", "type": "uint64", "value": 0}, {"name": "tid", "type": "uint64", "value": 1}]},
              {"id": 31, "name": "record_param_comms", "ctrl_deps": 30,
               "inputs": {"values": [[[100, 101, 0, 8192, 2, "cuda:3"]], 12, ["3", "undefined"], 3, "_allgather_base", [], [], 0, 1, 8],
                          "shapes": [[[8192]], [], [], [], [], [], [], [], [], []],
                          "types": ["GenericList[Tensor(c10::BFloat16)]", "Int", "Tuple[String,String]", "Int", "String",
                                    "GenericList[]", "GenericList[]", "Int", "Int", "Int"]},
               "outputs": {"values": [], "shapes": [], "types": []},
               "attrs": [{"name": "rf_id", "type": "uint64", "value": 77}, {"name": "fw_parent", "type": "uint64", "value": 0},
                         {"name": "seq_id", "type": "int64", "value": -1}, {"name": "scope", "type": "uint64", "value": 0},
                         {"name": "tid", "type": "uint64", "value": 1}, {"name": "fw_tid", "type": "uint64", "value": 0},
                         {"name": "op_schema", "type": "string", "value": ""},
                         {"name": "collective_name", "type": "string", "value": "_allgather_base"},
                         {"name": "dtype", "type": "string", "value": "BFloat16"},
                         {"name": "in_msg_nelems", "type": "uint64", "value": 8192},
                         {"name": "out_msg_nelems", "type": "uint64", "value": 65536},
                         {"name": "in_split_size", "type": "string", "value": "[]"},
                         {"name": "out_split_size", "type": "string", "value": "[]"},
                         {"name": "global_rank_start", "type": "uint64", "value": 0},
                         {"name": "global_rank_stride", "type": "uint64", "value": 1},
                         {"name": "pg_name", "type": "string", "value": "3"},
                         {"name": "pg_desc", "type": "string", "value": "undefined"},
                         {"name": "pg_size", "type": "uint64", "value": 8}]}
             ],
             "finish_ts": 9}
            """;

    private FileTask task(String name, String content) throws Exception {
        Path f = tmp.resolve(name);
        Files.write(f, content.getBytes(StandardCharsets.UTF_8));
        return new FileTask(
                "w", f.toUri().toString(), Files.size(f), 0, TraceFormat.PYTORCH_ET, 5, InputLimits.defaults(), "run");
    }

    private static Object col(Row r, String c) {
        return r.get(EtNodeSchema.index(c));
    }

    @Test
    void chakraNodes() throws Exception {
        List<Row> rows;
        FileReport report;
        try (EventStream s = new EtReader().open(task("rank3_et.json", CHAKRA), new Configuration())) {
            rows = InternalRows.drain(s, EtNodeSchema.SCHEMA);
            report = s.report();
        }
        assertEquals(2, rows.size());
        assertEquals(3, report.rank);
        assertEquals("1.1.0-chakra.0.0.4", report.metadata.get("et.schema"));
        assertEquals("9", report.metadata.get("et.finish_ts"));
        assertEquals("1", report.metadata.get("et.comm_nodes"));
        assertTrue(report.contentHash.startsWith("sha256:"));

        Row thread = rows.get(0);
        assertFalse((Boolean) col(thread, "is_comm"));
        assertEquals(1L, col(thread, "parent"));

        Row c = rows.get(1);
        assertEquals(31L, col(c, "id"));
        assertEquals(30L, col(c, "parent"));
        assertEquals(77L, col(c, "rf_id"));
        assertEquals(-1L, col(c, "seq_id"));
        assertEquals(true, col(c, "is_comm"));
        assertEquals("all_gather", col(c, "collective"));
        assertEquals("_allgather_base", col(c, "collective_name"));
        assertEquals(8192L, col(c, "in_nelems"));
        assertEquals(65536L, col(c, "out_nelems")); // no output tensor: in × pg_size 8
        assertEquals("BFloat16", col(c, "dtype"));
        assertEquals(16384L, col(c, "in_bytes"));
        assertEquals(131072L, col(c, "out_bytes"));
        assertEquals(8, col(c, "group_size"));
        assertEquals("3", col(c, "pg_name"));
        assertEquals(12L, col(c, "comm_seq"));
        assertEquals("[]", col(c, "in_split_sizes"));
        @SuppressWarnings("unchecked")
        Map<String, String> attrs = CollectionConverters.asJava((scala.collection.Map<String, String>) col(c, "attrs"));
        assertEquals("undefined", attrs.get("pg_desc"));
        assertNull(attrs.get("rf_id")); // has its own column
    }

    @Test
    void aFileCutShortFails() throws Exception {
        String cut = CHAKRA.substring(
                0, CHAKRA.indexOf("\"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": 77}"));
        try (EventStream s = new EtReader().open(task("rank3_et.json", cut), new Configuration())) {
            while (s.hasNext()) s.next(); // the stream ends early; what went wrong is in the report, not thrown
            assertTrue(s.report().isError());
            assertTrue(s.report().fatal);
            assertTrue(s.report().error.contains("end-of-input"), s.report().error);
        }
    }
}
