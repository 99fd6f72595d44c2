package org.tracelake.jobs.readers.flightrecorder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.memory.SnapshotValues;
import org.tracelake.udfs.Numbers;

/**
 * The parts of one rank's Flight Recorder dump (FORMATS.md §9) the tables need, from the plain object graph a pickle
 * or a JSON document decodes to: the ring buffer's entries as they are, and the process groups the dump knows —
 * {@code pg_config} (keyed by group name) and {@code pg_status} (keyed by the rank-local pg_id) joined through the
 * {@code (pg_id, process_group)} pairs the entries carry.
 */
record FlightRecorderDump(String version, String ncclVersion, List<Object> entries, List<Group> groups) {

    /** One {@code process_group_status} row: either side may be missing (see FlightRecorderSchema.GROUPS). */
    record Group(
            Long pgId, String name, String desc, List<Integer> ranks, Long enqueued, Long started, Long completed) {}

    static FlightRecorderDump of(Object root, String path) throws InputRefusedException {
        Map<Object, Object> top = SnapshotValues.asMap(root);
        if (top == null) {
            throw new InputRefusedException("not an NCCL Flight Recorder dump: it holds a "
                    + (root == null ? "None" : root.getClass().getSimpleName()) + ", not a dict: " + path);
        }
        List<Object> entries = SnapshotValues.asList(top.get("entries"));
        Map<Object, Object> config = SnapshotValues.asMap(top.get("pg_config"));
        Map<Object, Object> status = SnapshotValues.asMap(top.get("pg_status"));
        if (entries == null && config == null && status == null) {
            List<String> keys = new ArrayList<>();
            for (Object k : top.keySet()) if (keys.size() < 10) keys.add(String.valueOf(k));
            throw new InputRefusedException("not an NCCL Flight Recorder dump: none of \"entries\", \"pg_config\", "
                    + "\"pg_status\" (keys: " + String.join(", ", keys) + "): " + path);
        }
        return new FlightRecorderDump(
                SnapshotValues.asText(top.get("version")),
                SnapshotValues.asText(top.get("nccl_version")),
                entries == null ? List.of() : entries,
                groups(
                        entries == null ? List.of() : entries,
                        config == null ? Map.of() : config,
                        status == null ? Map.of() : status));
    }

    /** The group name of an entry: the first element of its {@code process_group} (name, desc) tuple. */
    static String groupName(Map<Object, Object> entry) {
        List<Object> pg = SnapshotValues.asList(entry.get("process_group"));
        return pg == null || pg.isEmpty() ? null : SnapshotValues.asText(pg.get(0));
    }

    static String groupDesc(Map<Object, Object> entry) {
        List<Object> pg = SnapshotValues.asList(entry.get("process_group"));
        return pg == null || pg.size() < 2 ? null : SnapshotValues.asText(pg.get(1));
    }

    private static List<Group> groups(List<Object> entries, Map<Object, Object> config, Map<Object, Object> status) {
        Map<Long, String> nameOfId = new HashMap<>();
        Map<String, Long> idOfName = new HashMap<>();
        for (Object o : entries) {
            Map<Object, Object> e = SnapshotValues.asMap(o);
            if (e == null) continue;
            Long id = Numbers.wholeNumber(e.get("pg_id"));
            String name = groupName(e);
            if (id == null || name == null) continue;
            nameOfId.putIfAbsent(id, name);
            idOfName.putIfAbsent(name, id);
        }
        Map<String, Map<Object, Object>> configByName = new LinkedHashMap<>();
        config.forEach((k, v) -> {
            Map<Object, Object> c = SnapshotValues.asMap(v);
            if (c != null) configByName.put(String.valueOf(k), c);
        });
        List<Group> out = new ArrayList<>();
        Set<String> named = new LinkedHashSet<>();
        for (Map.Entry<Object, Object> s : status.entrySet()) {
            Long id = Numbers.wholeNumber(s.getKey());
            Map<Object, Object> st = SnapshotValues.asMap(s.getValue());
            if (st == null) continue;
            String name = id == null ? null : nameOfId.get(id);
            Map<Object, Object> c = name == null ? null : configByName.get(name);
            if (name != null) named.add(name);
            out.add(new Group(
                    id,
                    name,
                    c == null ? null : SnapshotValues.asText(c.get("desc")),
                    c == null ? null : ranks(c.get("ranks")),
                    Numbers.wholeNumber(st.get("last_enqueued_collective")),
                    Numbers.wholeNumber(st.get("last_started_collective")),
                    Numbers.wholeNumber(st.get("last_completed_collective"))));
        }
        configByName.forEach((name, c) -> {
            if (named.contains(name)) return;
            out.add(new Group(
                    idOfName.get(name),
                    name,
                    SnapshotValues.asText(c.get("desc")),
                    ranks(c.get("ranks")),
                    null,
                    null,
                    null));
        });
        return out;
    }

    /** Global ranks of a group: the string "[12, 13, 14, 15]" the dump writes, or a list; null when neither. */
    static List<Integer> ranks(Object value) {
        List<Object> list = SnapshotValues.asList(value);
        List<Integer> out = new ArrayList<>();
        if (list != null) {
            for (Object o : list) {
                Integer r = Numbers.wholeInt(o);
                if (r == null) return null;
                out.add(r);
            }
            return out;
        }
        if (!(value instanceof String s)) return null;
        String t = s.strip();
        if (!t.startsWith("[") || !t.endsWith("]")) return null;
        t = t.substring(1, t.length() - 1).strip();
        if (t.isEmpty()) return out;
        for (String part : t.split(",")) {
            Long r = Numbers.wholeNumber(part.strip());
            if (r == null || r < Integer.MIN_VALUE || r > Integer.MAX_VALUE) return null;
            out.add(r.intValue());
        }
        return out;
    }

    void describe(FileReport report) {
        if (version != null) report.metadata.put("fr_version", version);
        if (ncclVersion != null) report.metadata.put("nccl_version", ncclVersion);
        report.metadata.put("entries", Integer.toString(entries.size()));
        report.metadata.put("process_groups", Integer.toString(groups.size()));
        if (entries.isEmpty()) {
            report.metadata.put(
                    "entries_note",
                    "no entries: the rank recorded no collective in its ring buffer (e.g. "
                            + "stuck outside NCCL); its pg_status still says how far each group got");
        }
    }
}
