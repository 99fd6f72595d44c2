package org.tracelake.jobs.readers.rocprof;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The first pass over a rocprofv3 JSON: its small sections ({@code metadata}, {@code agents}, {@code strings},
 * {@code kernel_symbols}, each element tree-read on its own) wherever they sit relative to the records, and the
 * devices the records use (so the file's rank is known before the first row). {@code buffer_records} is walked
 * token by token and nothing of it is kept but agent handles.
 */
final class RocprofIndex {
    static final String TOOL = "rocprofiler-sdk-tool";
    static final ObjectMapper JSON = new ObjectMapper(RocprofReader.FACTORY);

    final List<RocprofProcess> processes = new ArrayList<>();
    final TreeSet<Integer> devicesUsed = new TreeSet<>();
    final Map<String, String> metadata = new LinkedHashMap<>();
    boolean sawTool;

    static RocprofIndex build(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("a rocprofv3 JSON is an object; this file starts with " + p.currentToken());
        }
        RocprofIndex index = new RocprofIndex();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (key.equals(TOOL) && v == JsonToken.START_ARRAY) {
                index.sawTool = true;
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.START_OBJECT) index.readProcess(p);
                if (t != JsonToken.END_ARRAY)
                    throw new IOException(TOOL + " holds something other than process objects");
            } else {
                p.skipChildren();
            }
        }
        return index;
    }

    private void readProcess(JsonParser p) throws IOException {
        RocprofProcess proc = new RocprofProcess();
        List<Long> agentsUsed = new ArrayList<>();
        String prefix = processes.isEmpty() ? "" : "process" + processes.size() + ".";
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            switch (key) {
                case "metadata" -> readMetadata(JSON.readTree(p), proc, prefix);
                case "agents" -> readAgents(JSON.readTree(p), proc, prefix);
                case "strings" -> readOperationNames(JSON.readTree(p), proc);
                case "kernel_symbols" -> readKernelSymbols(p, v, proc);
                case "buffer_records" -> collectAgents(p, agentsUsed);
                default -> p.skipChildren();
            }
        }
        for (Long handle : agentsUsed) {
            Integer device = proc.device(handle);
            if (device != null) devicesUsed.add(device);
        }
        processes.add(proc);
    }

    private void readMetadata(JsonNode m, RocprofProcess proc, String prefix) {
        if (m.hasNonNull("pid")) proc.pid = m.get("pid").asText();
        JsonNode node = m.path("node");
        if (node.hasNonNull("hostname"))
            metadata.put(prefix + "hostname", node.get("hostname").asText());
        for (String k : new String[] {"pid", "init_time", "fini_time"}) {
            if (m.hasNonNull(k)) metadata.put(prefix + k, m.get(k).asText());
        }
        if (m.has("command")) metadata.put(prefix + "command", m.get("command").toString());
    }

    private void readAgents(JsonNode agents, RocprofProcess proc, String prefix) {
        List<String> gpus = new ArrayList<>();
        for (JsonNode a : agents) {
            JsonNode handle = a.path("id").path("handle");
            JsonNode gpu = a.has("gpu_index") ? a.get("gpu_index") : a.path("logical_node_type_id");
            if (!handle.canConvertToLong() || a.path("type").asInt() != 2 || !gpu.canConvertToInt()) continue;
            proc.gpuIndexByAgent.put(handle.asLong(), gpu.asInt());
            gpus.add(gpu.asInt() + ":" + a.path("name").asText("") + " "
                    + a.path("product_name").asText(""));
        }
        metadata.put(prefix + "gpus", gpus.toString());
    }

    private static void readOperationNames(JsonNode strings, RocprofProcess proc) {
        for (JsonNode kind : strings.path("buffer_records")) {
            List<String> ops = new ArrayList<>();
            for (JsonNode op : kind.path("operations")) ops.add(op.asText());
            proc.operations.add(ops);
        }
    }

    /** Index = kernel_id (entry 0 is empty); each entry is small, so it is tree-read on its own. */
    private static void readKernelSymbols(JsonParser p, JsonToken v, RocprofProcess proc) throws IOException {
        if (v != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        long position = 0;
        while (p.nextToken() == JsonToken.START_OBJECT) {
            JsonNode s = JSON.readTree(p);
            long id =
                    s.path("kernel_id").canConvertToLong() ? s.get("kernel_id").asLong() : position;
            position++;
            String name =
                    first(s, "formatted_kernel_name", "demangled_kernel_name", "truncated_kernel_name", "kernel_name");
            if (name == null) continue;
            proc.kernels.put(
                    id,
                    new RocprofProcess.KernelSymbol(
                            AmdKernelNames.withoutDescriptorSuffix(name),
                            AmdKernelNames.withoutDescriptorSuffix(first(s, "truncated_kernel_name"))));
        }
    }

    private static String first(JsonNode s, String... fields) {
        for (String f : fields) {
            String v = s.path(f).asText("");
            if (!v.isEmpty()) return v;
        }
        return null;
    }

    /** Walks buffer_records token by token, noting every {@code …agent_id.handle}; keeps nothing else. */
    private static void collectAgents(JsonParser p, List<Long> handles) throws IOException {
        if (!p.currentToken().isStructStart()) return;
        Set<Long> seen = new HashSet<>();
        int depth = 1;
        while (depth > 0) {
            JsonToken t = p.nextToken();
            if (t == null) throw new IOException("file ends inside buffer_records");
            if (t.isStructStart()) depth++;
            else if (t.isStructEnd()) depth--;
            else if (t == JsonToken.VALUE_NUMBER_INT && "handle".equals(p.currentName())) {
                JsonStreamContext parent = p.getParsingContext().getParent();
                String owner = parent == null ? null : parent.getCurrentName();
                if (owner != null && owner.endsWith("agent_id") && seen.add(p.getLongValue()))
                    handles.add(p.getLongValue());
            }
        }
    }
}
