package org.tracelake.jobs.readers.kineto.oracle;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.common.ChromeEvent;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.readers.common.StepWindows;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.CommOpNames;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.StepNames;

/**
 * What the first pass over a Kineto file learns, so the second pass can fill every column while streaming:
 * the time base (the key may follow {@code traceEvents}), rank and process groups, step windows, launches by
 * correlation id, and the CPU communication ops that carry message sizes. Memory grows with the number of
 * launches and comm ops, never with the number of events kept.
 */
final class KinetoIndex {
    /**
     * Kineto files without baseTimeNanoseconds whose largest ts is below 1e15 µs (here in ns) have an unknown
     * base: some 2024 profiler builds wrote relative times without the key (METRICS.md §1).
     */
    static final long EPOCH_FLOOR_NS = 1_000_000_000_000_000_000L;

    /** Bounds the string sharing of comm-op args: distinct values beyond it are kept as they come. */
    private static final int MAX_SHARED_STRINGS = 65_536;

    static final ObjectMapper JSON = new ObjectMapper(ChromeEventParser.FACTORY);

    Long baseTimeNs;
    Integer distributedRank;
    /** distributedInfo.rank when it is a number no rank can be (2^31 and beyond): flagged, not silently dropped. */
    String distributedRankOutOfRange;

    Integer worldSize;
    final Map<String, ProcessGroup> processGroups = new HashMap<>();
    final Map<String, String> metadata = new LinkedHashMap<>();
    final StepWindows steps = new StepWindows();
    /** Runtime launches by correlation id; indexed here, or by the second pass when the file's order allows it. */
    final Launches launches = new Launches();
    /** Comm ops by External id: start and position in {@link #commOps} (no boxed key or map entry per op). */
    private final IdTable commOpsByExternalId = new IdTable();

    private final List<CommOp> commOps = new ArrayList<>();
    private final Map<String, CommOpTimeline> commOpsByThread = new HashMap<>();
    /**
     * One instance per distinct arg value and thread name of the comm ops: they repeat for every collective. Values
     * unique to one op (its sequence number) are never added, and once the map is full it is still looked up, so the
     * common values met first stay shared to the end of the file (a full map that stopped sharing would leave every
     * later op with copies of them).
     */
    private final Map<String, String> sharedStrings = new HashMap<>();

    boolean sawTraceEvents;

    record ProcessGroup(Integer size, String ranks) {}

    /**
     * The reader's first pass over the file: the sieve keeps what {@link #indexes} asks for (which depends on what the
     * pass has learnt so far: launches only while {@link Launches#indexing()}), the content hash goes to the report.
     */
    static KinetoIndex read(FileTask task, Configuration conf, FileReport report) throws IOException {
        return SievedInput.firstPass(task, conf, ChromeEventParser.FACTORY, report, Pass::new);
    }

    /**
     * One attempt at the first pass, with its own index: the sieve's filter asks that index, which is why a whole-file
     * retry (after a sieved attempt failed) starts from a new one.
     */
    private static final class Pass implements SievedInput.SievedPass<KinetoIndex> {
        private final KinetoIndex index = new KinetoIndex();

        @Override
        public boolean keep(TraceEventsSieve.Entry entry) {
            return index.indexes(entry);
        }

        @Override
        public KinetoIndex read(JsonParser p) throws IOException {
            return build(p, index);
        }
    }

    /** Reads the whole file once. The parser must be at the start of the document. */
    static KinetoIndex build(JsonParser p) throws IOException {
        return build(p, new KinetoIndex());
    }

    private static KinetoIndex build(JsonParser p, KinetoIndex index) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("a Kineto trace is a JSON object; this file starts with " + p.currentToken());
        }
        ChromeEventParser events = new ChromeEventParser(false);
        ChromeEvent e = new ChromeEvent();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            switch (key) {
                case "traceEvents" -> {
                    index.sawTraceEvents = true;
                    // most events' args are skipped, not decoded: the index needs those of launches and comm ops
                    events.forEachEvent(p, v, e, index::needsArgs, index::learn);
                }
                case "baseTimeNanoseconds" -> index.baseTimeNs = Numbers.wholeNumber(p.getText());
                case "distributedInfo" -> index.learnDistributedInfo(JSON.readTree(p));
                default -> index.keepMetadata(key, p, v, events);
            }
        }
        index.steps.seal();
        index.commOpsByThread.values().forEach(CommOpTimeline::seal);
        return index;
    }

    /**
     * The entries the first pass reads (the rest never reach its parser, {@link TraceEventsSieve}): communication ops
     * and step annotations, and while the order of launches is not known, runtime launches and GPU activities
     * ({@link Launches}): what {@link #learn} keeps or looks at.
     */
    boolean indexes(TraceEventsSieve.Entry entry) {
        String cat = entry.cat();
        if (cat == null) return false;
        return switch (cat) {
            case "cuda_runtime", "cuda_driver" -> launches.indexing();
            case "kernel", "gpu_memcpy", "gpu_memset" -> launches.sampling();
            case "cpu_op" -> isCommOp(entry.name());
            case StepNames.CAT_USER_ANNOTATION -> {
                String name = entry.name();
                yield isCommOp(name) || StepNames.stepPriority(cat, name) >= 0;
            }
            case StepNames.CAT_PYTHON_FUNCTION -> StepNames.stepPriority(cat, entry.name()) >= 0;
            default -> false;
        };
    }

    /** Bounds {@link #commOpNames}: names beyond it are checked each time. */
    private static final int MAX_NAMES_REMEMBERED = 8192;
    /** {@link CommOpNames#isCommOp} by op name: a file repeats a few thousand names over millions of CPU ops. */
    private final Map<String, Boolean> commOpNames = new HashMap<>();

    /** {@link CollectiveKind#of} by its three names: a file's comm events repeat a few combinations of them. */
    private final Map<List<String>, String> collectiveKinds = new HashMap<>();

    /** {@link CollectiveKind#of}, remembered per combination of names (at most {@link #MAX_NAMES_REMEMBERED}). */
    String collectiveKind(String collectiveNameArg, String kernelName, String launchingOpName) {
        List<String> key = Arrays.asList(collectiveNameArg, kernelName, launchingOpName);
        String known = collectiveKinds.get(key);
        if (known != null || collectiveKinds.containsKey(key)) return known;
        String kind = CollectiveKind.of(collectiveNameArg, kernelName, launchingOpName);
        if (collectiveKinds.size() < MAX_NAMES_REMEMBERED) collectiveKinds.put(key, kind);
        return kind;
    }

    /** Whether the name is a CPU-side communication op ({@link CommOpNames#isCommOp}), remembered per name. */
    boolean isCommOp(String name) {
        if (name == null) return false;
        Boolean known = commOpNames.get(name);
        if (known != null) return known;
        boolean comm = CommOpNames.isCommOp(name);
        if (commOpNames.size() < MAX_NAMES_REMEMBERED) commOpNames.put(name, comm);
        return comm;
    }

    /**
     * The events whose args the index reads: runtime launches and GPU activities (correlation) while it looks at them,
     * and communication ops (sizes, ids).
     */
    private boolean needsArgs(ChromeEvent e) {
        if (Launches.isLaunch(e.cat)) return launches.indexing();
        if (Launches.isGpuActivity(e.cat)) return launches.sampling();
        return ("cpu_op".equals(e.cat) || "user_annotation".equals(e.cat)) && CommOpNames.isCommOp(e.name);
    }

    private void learn(ChromeEvent e) {
        // launches and GPU activities are no step annotations or comm ops: only the launch table wants them
        if (Launches.isLaunch(e.cat)) {
            if (launches.indexing()) launches.learn(e);
            return;
        }
        if (Launches.isGpuActivity(e.cat)) {
            launches.sample(e);
            return;
        }
        long relTs;
        try {
            relTs = e.ts == null ? Long.MIN_VALUE : Numbers.microsToNanos(e.ts);
        } catch (Numbers.NotANumber bad) {
            return; // the second pass drops it and says why
        }
        if (relTs == Long.MIN_VALUE) return;
        if (!"X".equals(e.ph) || e.dur == null) return;
        long dur;
        try {
            dur = Numbers.microsToNanos(e.dur);
        } catch (Numbers.NotANumber bad) {
            return;
        }
        if (dur < 0) return;
        steps.offerAnnotation(e.cat, e.name, relTs, dur);
        if (("cpu_op".equals(e.cat) || "user_annotation".equals(e.cat)) && CommOpNames.isCommOp(e.name)) {
            CommOp op = new CommOp(
                    shared(e.name), shared(e.tid), relTs, relTs + dur, CommOp.keptArgs(e.args, this::sharedArg));
            Long externalId = e.longArg("External id");
            if (externalId != null && commOpsByExternalId.value(externalId) == IdTable.ABSENT) {
                commOpsByExternalId.putIfAbsent(externalId, relTs, commOps.size());
                commOps.add(op);
            }
            commOpsByThread
                    .computeIfAbsent(op.thread(), k -> new CommOpTimeline())
                    .add(op);
        }
    }

    /** Args whose value differs from op to op: sharing them would only fill {@link #sharedStrings}. */
    private static final Set<String> UNIQUE_PER_OP =
            Set.of(CommDetails.SEQ, CommDetails.CONCRETE_INPUTS, CommDetails.RECORD_FUNCTION_ID);

    /** An arg value of a comm op, shared unless it is one of those unique to the op. */
    private String sharedArg(String key, String value) {
        return UNIQUE_PER_OP.contains(key) ? value : shared(value);
    }

    private String shared(String s) {
        if (s == null) return null;
        String known = sharedStrings.get(s);
        if (known != null) return known;
        if (sharedStrings.size() < MAX_SHARED_STRINGS) sharedStrings.put(s, s);
        return s;
    }

    private void learnDistributedInfo(JsonNode info) {
        metadata.put("distributedInfo", info.toString());
        if (info.hasNonNull("rank") && info.get("rank").canConvertToInt()) {
            distributedRank = info.get("rank").asInt();
        } else if (info.hasNonNull("rank") && info.get("rank").isNumber()) {
            distributedRankOutOfRange = info.get("rank").asText();
        }
        if (info.hasNonNull("world_size") && info.get("world_size").canConvertToInt()) {
            worldSize = info.get("world_size").asInt();
        }
        JsonNode pgs = info.get("pg_config");
        if (pgs == null) return;
        for (JsonNode pg : pgs) { // an array of groups; iterating a map form yields its values alike
            JsonNode name = pg.get("pg_name");
            if (name == null) continue;
            Integer size = pg.hasNonNull("pg_size") ? pg.get("pg_size").asInt() : null;
            JsonNode ranks = pg.get("ranks");
            String ranksText = ranks == null
                    ? null
                    : ranks.isTextual() ? ranks.asText() : ranks.toString().replace(",", ", ");
            processGroups.put(name.asText(), new ProcessGroup(size, ranksText));
        }
    }

    private void keepMetadata(String key, JsonParser p, JsonToken v, ChromeEventParser events) throws IOException {
        if (v.isScalarValue()) {
            metadata.put(FileReport.fileKey(key), v == JsonToken.VALUE_NULL ? null : p.getText());
        } else {
            String json = events.text(p, v);
            metadata.put(
                    FileReport.fileKey(key),
                    json.length() <= 65_536 ? json : json.substring(0, 65_536) + "…(truncated)");
        }
    }

    /** Launch record for a GPU activity's correlation id: start in relative ns, or null. */
    Long launchStart(Long correlation) {
        return launches.start(correlation);
    }

    String launchThread(Long correlation) {
        return launches.thread(correlation);
    }

    /** The comm op with this External id (the first of the file), or null. */
    CommOp commOpByExternalId(Long externalId) {
        if (externalId == null || commOpsByExternalId.value(externalId) == IdTable.ABSENT) return null;
        return commOps.get(commOpsByExternalId.tag(externalId));
    }

    /** Comm ops on the thread whose span encloses the time, innermost (latest start) first. */
    List<CommOp> enclosingCommOps(String thread, long relTs) {
        CommOpTimeline ops = commOpsByThread.get(thread);
        return ops == null ? List.of() : ops.enclosing(relTs);
    }

    /** Whether times are relative to an unknown start, given the largest ts of the file (relative ns). */
    boolean baseUnknown(long maxRelTsNs) {
        return baseTimeNs == null && maxRelTsNs != Long.MIN_VALUE && maxRelTsNs < EPOCH_FLOOR_NS;
    }

    long base() {
        return baseTimeNs == null ? 0L : baseTimeNs;
    }
}
