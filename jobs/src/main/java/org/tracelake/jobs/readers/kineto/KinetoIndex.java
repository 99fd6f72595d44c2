package org.tracelake.jobs.readers.kineto;

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
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.readers.common.StepWindows;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.CommOpNames;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.StepNames;

/**
 * What a Kineto file says beyond its rows, learnt as the scan goes and complete at the end of the file, before any
 * row is made: the time base (the key may follow {@code traceEvents}), rank and process groups, step windows,
 * launches by correlation id (real Kineto writes a kernel before its launch), and the CPU communication ops that
 * carry message sizes. Memory grows with the number of launches and comm ops, not with the number of events.
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
    /** Runtime launches by correlation id. */
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
     * Learns from one entry of a traceEvents array (any of them), as the scan hands it: complete events with a usable
     * ts and a non-negative dur only. Runtime launches go to the launch table; step annotations and the CPU
     * communication ops (with the args their sizes are read from) to theirs.
     */
    void learn(KinetoEvent e, StringTable strings) {
        if (e.notObject || !e.hasTs || !e.hasDur || !isX(e, strings) || e.ts == Long.MIN_VALUE) return;
        int kind = catKind(e.cat, strings);
        if (kind == CAT_LAUNCH) {
            launches.learn(e.longArg(correlationKey(strings), strings), e.ts, strings.get(e.tid));
            return;
        }
        if (kind == CAT_GPU || !mayBeStepOrCommOp(e, strings)) return;
        String cat = strings.get(e.cat);
        String name = strings.get(e.name);
        long relTs = e.ts;
        long dur = e.dur;
        steps.offerAnnotation(cat, name, relTs, dur);
        if (kind == CAT_CPU_OP_OR_ANNOTATION && isCommOp(name)) {
            Map<String, String> args = new LinkedHashMap<>();
            e.argsInto(args, strings);
            CommOp op = new CommOp(
                    shared(name),
                    shared(strings.get(e.tid)),
                    relTs,
                    relTs + dur,
                    CommOp.keptArgs(args, this::sharedArg));
            Long externalId = Numbers.wholeNumber(args.get("External id"));
            if (externalId != null && commOpsByExternalId.value(externalId) == IdTable.ABSENT) {
                commOpsByExternalId.putIfAbsent(externalId, relTs, commOps.size());
                commOps.add(op);
            }
            commOpsByThread
                    .computeIfAbsent(op.thread(), k -> new CommOpTimeline())
                    .add(op);
        }
    }

    /** Once every entry was learnt: the steps chosen, the comm ops of each thread in order. */
    void seal() {
        steps.seal();
        commOpsByThread.values().forEach(CommOpTimeline::seal);
    }

    // what a category is to the index, by string id: judged once per id
    private static final byte CAT_OTHER = 1;
    private static final byte CAT_LAUNCH = 2;
    private static final byte CAT_GPU = 3;
    private static final byte CAT_CPU_OP_OR_ANNOTATION = 4;
    private static final byte CAT_PYTHON_FUNCTION = 5;
    private byte[] catKinds = new byte[64];
    private int phX = StringTable.NULL - 1;
    private int correlationKey = StringTable.NULL - 1;

    private boolean isX(KinetoEvent e, StringTable strings) {
        if (phX == StringTable.NULL - 1 && "X".equals(strings.get(e.ph))) phX = e.ph;
        return e.ph == phX;
    }

    private int correlationKey(StringTable strings) {
        if (correlationKey == StringTable.NULL - 1) {
            try {
                correlationKey = strings.intern("correlation");
            } catch (IOException cannot) {
                throw new IllegalStateException("a constant is UTF-8", cannot);
            }
        }
        return correlationKey;
    }

    private byte catKind(int cat, StringTable strings) {
        if (cat < 0) return cat == StringTable.NULL ? CAT_OTHER : kindOf(strings.get(cat));
        if (cat >= catKinds.length) catKinds = Arrays.copyOf(catKinds, Math.max(cat + 1, catKinds.length * 2));
        byte kind = catKinds[cat];
        if (kind == 0) catKinds[cat] = kind = kindOf(strings.get(cat));
        return kind;
    }

    private static byte kindOf(String cat) {
        if (Launches.isLaunch(cat)) return CAT_LAUNCH;
        if (Launches.isGpuActivity(cat)) return CAT_GPU;
        if ("cpu_op".equals(cat) || StepNames.CAT_USER_ANNOTATION.equals(cat)) return CAT_CPU_OP_OR_ANNOTATION;
        if (StepNames.CAT_PYTHON_FUNCTION.equals(cat)) return CAT_PYTHON_FUNCTION;
        return CAT_OTHER;
    }

    /**
     * Whether the entry can be a step annotation or a comm op (what {@link #learn} would keep of it), asked once per
     * (category, name): a file repeats a few thousand names over millions of CPU ops.
     */
    private boolean mayBeStepOrCommOp(KinetoEvent e, StringTable strings) {
        int n = e.name;
        boolean remembered = n >= 0 && n < relevantCat.length;
        if (remembered && relevantCat[n] == e.cat && relevant[n] != 0) return relevant[n] == 2;
        boolean may = StepNames.stepPriority(strings.get(e.cat), strings.get(n)) >= 0
                || (catKind(e.cat, strings) == CAT_CPU_OP_OR_ANNOTATION && isCommOp(strings.get(n)));
        if (n >= 0 && !remembered) {
            int size = Math.max(n + 1, relevantCat.length * 2);
            relevantCat = Arrays.copyOf(relevantCat, size);
            relevant = Arrays.copyOf(relevant, size);
        }
        if (n >= 0) {
            relevantCat[n] = e.cat;
            relevant[n] = (byte) (may ? 2 : 1);
        }
        return may;
    }

    /** By name id: the category id {@link #relevant} was judged for (names mostly come with one category). */
    private int[] relevantCat = new int[256];
    /** By name id: 0 not judged, 1 no, 2 yes. */
    private byte[] relevant = new byte[256];

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

    void learnDistributedInfo(JsonNode info) {
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

    /** A top-level key of the file other than those the reader reads: its text, a structure cut at 64 K chars. */
    void keepMetadata(String key, String text, boolean structure) {
        String kept = !structure || text.length() <= 65_536 ? text : text.substring(0, 65_536) + "…(truncated)";
        metadata.put(FileReport.fileKey(key), kept);
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
