package org.tracelake.jobs.readers.et;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.JsonArrayStream;
import org.tracelake.jobs.readers.common.JsonInput;
import org.tracelake.jobs.readers.common.JsonNumbers;
import org.tracelake.jobs.readers.common.RowBuilder;
import org.tracelake.schemas.EtNodeSchema;
import org.tracelake.udfs.RankFromFileName;

/**
 * PyTorch execution traces (ET JSON, schema {@code 1.0.x} and {@code 1.x-chakra}; FORMATS.md §7) into
 * {@code et_nodes}: Jackson's token parser walks to {@code nodes} and reads one node object at a time (a small tree
 * per node, never the array), emitting its row before the next is read. Header keys after {@code nodes}
 * ({@code finish_ts}) are read when the array ends.
 *
 * <p>Rank: the file name ({@code dlrm_eg_3.json}, {@code rank3_et.json}, {@code torch_et_3.json}), else the file's
 * position among the workload's ET files: an ET has no rank of its own. The link to Kineto is made while the Kineto
 * files are read, from the staged nodes ({@link EtSizes}); {@link KinetoLink} words its outcome.
 */
public final class EtReader implements TraceReader {
    static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final ObjectMapper TREE = new ObjectMapper(FACTORY);

    /** Longest inputs/outputs JSON text kept in a column; longer lists are left out (and counted). */
    static final int MAX_JSON_TEXT = 1 << 20;

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        Map<String, String> header = new LinkedHashMap<>();
        JsonInput input = JsonInput.open(task, conf, FACTORY, true, p -> seekNodes(p, header));
        report.resolveRank(null, RankFromFileName.rank(task.fileName()));
        header.forEach((k, v) -> {
            if (k.equals("schema") || k.equals("pid") || k.equals("time") || k.equals("start_ts"))
                report.metadata.put("et." + k, v);
        });
        return new Rows(task, report, input, header.get("schema"));
    }

    /** To the first node, keeping the scalar fields before the {@code nodes} array (schema, pid, time, …). */
    private static void seekNodes(JsonParser p, Map<String, String> header) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT)
            throw new IOException("not a JSON object: not a PyTorch execution trace");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (key.equals("nodes") && v == JsonToken.START_ARRAY) return;
            if (v.isScalarValue()) header.put(key, p.getText());
            p.skipChildren();
        }
        throw new IOException("no \"nodes\" array: this JSON object is not a PyTorch execution trace");
    }

    private static final class Rows extends JsonArrayStream {
        private final String schema;
        private final RowBuilder row = new RowBuilder(EtNodeSchema.SCHEMA);
        private long commNodes;
        private long clipped;

        Rows(FileTask task, FileReport report, JsonInput input, String schema) {
            super(task, report, input, "nodes");
            this.schema = schema;
        }

        @Override
        protected InternalRow advance() throws IOException {
            return nextObject() ? toRow(position(), TREE.readTree(p)) : null;
        }

        @Override
        protected void finish() throws IOException {
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken v = p.nextToken();
                if (key.equals("finish_ts") && v.isScalarValue()) report.metadata.put("et.finish_ts", p.getText());
                p.skipChildren();
            }
            if (t != JsonToken.END_OBJECT) throw new IOException("malformed JSON after the nodes array");
            report.metadata.put("et.nodes", Long.toString(walked()));
            report.metadata.put("et.comm_nodes", Long.toString(commNodes));
            if (clipped > 0) report.metadata.put("et.clipped_json_columns", Long.toString(clipped));
            report.contentHash = input.in().drainAndHash();
        }

        private InternalRow toRow(long position, JsonNode n) {
            boolean chakra = n.has("attrs") || n.path("inputs").isObject();
            Map<String, JsonNode> attrs = new HashMap<>();
            if (n.path("attrs").isArray()) {
                for (JsonNode a : n.path("attrs")) {
                    if (a.isObject() && a.path("name").isTextual())
                        attrs.put(a.get("name").textValue(), a.get("value"));
                }
            }
            JsonNode inputs;
            JsonNode inputShapes;
            JsonNode inputTypes;
            JsonNode outputs;
            JsonNode outputShapes;
            JsonNode outputTypes;
            if (chakra) {
                inputs = n.path("inputs").get("values");
                inputShapes = n.path("inputs").get("shapes");
                inputTypes = n.path("inputs").get("types");
                outputs = n.path("outputs").get("values");
                outputShapes = n.path("outputs").get("shapes");
                outputTypes = n.path("outputs").get("types");
            } else {
                inputs = n.get("inputs");
                inputShapes = n.get("input_shapes");
                inputTypes = n.get("input_types");
                outputs = n.get("outputs");
                outputShapes = n.get("output_shapes");
                outputTypes = n.get("output_types");
            }
            String name = CommNode.text(n.get("name"));
            CommNode c = CommNode.decode(name, inputs, inputTypes, outputs, attrs);
            if (c.isComm) commNodes++;
            Long parent = JsonNumbers.whole(n.get("parent"));
            if (parent == null) parent = firstLong(n.get("ctrl_deps"));
            Map<String, String> otherAttrs = null;
            if (!attrs.isEmpty()) {
                otherAttrs = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> a : attrs.entrySet()) {
                    if (!TOP_LEVEL_ATTRS.contains(a.getKey()))
                        otherAttrs.put(a.getKey(), clip(CommNode.text(a.getValue())));
                }
                if (otherAttrs.isEmpty()) otherAttrs = null;
            }
            return row.set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("ordinal", position)
                    .set("schema_version", schema)
                    .set("id", JsonNumbers.whole(n.get("id")))
                    .set("name", name)
                    .set("parent", parent)
                    .set("fw_parent", field(n, attrs, "fw_parent"))
                    .set("rf_id", field(n, attrs, "rf_id"))
                    .set("seq_id", field(n, attrs, "seq_id"))
                    .set("scope", field(n, attrs, "scope"))
                    .set("tid", field(n, attrs, "tid"))
                    .set("fw_tid", field(n, attrs, "fw_tid"))
                    .set(
                            "op_schema",
                            clip(CommNode.text(n.has("op_schema") ? n.get("op_schema") : attrs.get("op_schema"))))
                    .set("inputs", json(inputs))
                    .set("input_shapes", json(inputShapes))
                    .set("input_types", json(inputTypes))
                    .set("outputs", json(outputs))
                    .set("output_shapes", json(outputShapes))
                    .set("output_types", json(outputTypes))
                    .set("attrs", otherAttrs)
                    .set("is_comm", c.isComm)
                    .set("collective", c.kind)
                    .set("collective_name", c.collectiveName)
                    .set("in_nelems", c.inNelems)
                    .set("out_nelems", c.outNelems)
                    .set("dtype", c.dtype)
                    .set("in_bytes", c.inBytes)
                    .set("out_bytes", c.outBytes)
                    .set("in_split_sizes", c.inSplits)
                    .set("out_split_sizes", c.outSplits)
                    .set("group_size", c.groupSize)
                    .set("pg_name", c.pgName)
                    .set("comm_seq", c.seq)
                    .build();
        }

        /** Chakra nodes keep these in attrs; they have their own columns, so they are not repeated in the map. */
        private static final Set<String> TOP_LEVEL_ATTRS =
                Set.of("rf_id", "fw_parent", "seq_id", "scope", "tid", "fw_tid", "op_schema");

        private static Long field(JsonNode n, Map<String, JsonNode> attrs, String key) {
            Long v = JsonNumbers.whole(n.get(key));
            return v != null ? v : JsonNumbers.whole(attrs.get(key));
        }

        private static Long firstLong(JsonNode v) {
            if (v == null) return null;
            if (v.isArray()) return v.isEmpty() ? null : JsonNumbers.whole(v.get(0));
            return JsonNumbers.whole(v);
        }

        private String json(JsonNode v) {
            if (v == null || v.isNull()) return null;
            String s = v.toString();
            if (s.length() > MAX_JSON_TEXT) {
                clipped++;
                return null;
            }
            return s;
        }

        private static String clip(String s) {
            return s != null && s.length() > 8192 ? s.substring(0, 8192) + "…" : s;
        }
    }
}
