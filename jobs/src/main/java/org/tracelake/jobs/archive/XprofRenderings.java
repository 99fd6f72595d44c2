package org.tracelake.jobs.archive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * One profile run in several renderings (METRICS.md §1): {@code jax.profiler.trace} writes
 * {@code plugins/profile/<run>/<host>.xplane.pb}, and beside it {@code <host>.trace.json.gz} and, with
 * {@code create_perfetto_trace=True}, {@code perfetto_trace.json.gz}: the same events, the XSpace on the epoch clock
 * and the JSON relative to the profile start. Read together they count every event two or three times on two
 * clocks, so in one folder the XSpace is read, else the host's {@code .trace.json}, and the others are marked as
 * renderings of it ({@link FileTask#renderingOf()}): listed in {@code trace_files} as skipped, never read.
 */
final class XprofRenderings {
    private XprofRenderings() {}

    private static final String PERFETTO = "perfetto_trace.json";

    static List<FileTask> markDuplicates(List<FileTask> tasks) {
        Map<String, List<FileTask>> byFolder = new LinkedHashMap<>();
        for (FileTask t : tasks)
            byFolder.computeIfAbsent(folder(t.path()), k -> new ArrayList<>()).add(t);
        Map<String, String> duplicateOf = new LinkedHashMap<>();
        for (List<FileTask> folder : byFolder.values()) {
            Map<String, String> xspaceByHost = new LinkedHashMap<>();
            Map<String, String> jsonByHost = new LinkedHashMap<>();
            List<FileTask> perfetto = new ArrayList<>();
            for (FileTask t : folder) {
                String name = plainName(t.fileName());
                if (t.format() == TraceFormat.XPLANE && name.endsWith(".xplane.pb")) {
                    xspaceByHost.put(name.substring(0, name.length() - ".xplane.pb".length()), t.path());
                } else if (t.format() == TraceFormat.XLA_TRACE_JSON && name.equals(PERFETTO)) {
                    perfetto.add(t);
                } else if (t.format() == TraceFormat.XLA_TRACE_JSON && name.endsWith(".trace.json")) {
                    jsonByHost.put(name.substring(0, name.length() - ".trace.json".length()), t.path());
                }
            }
            jsonByHost.forEach((host, path) -> {
                String xspace = xspaceByHost.get(host);
                if (xspace != null) duplicateOf.put(path, xspace);
            });
            // perfetto_trace.json is the whole run: it duplicates the folder's one XSpace, else its one host JSON
            String primary = xspaceByHost.size() == 1
                    ? xspaceByHost.values().iterator().next()
                    : xspaceByHost.isEmpty() && jsonByHost.size() == 1
                            ? jsonByHost.values().iterator().next()
                            : null;
            if (primary != null) for (FileTask t : perfetto) duplicateOf.put(t.path(), primary);
        }
        if (duplicateOf.isEmpty()) return tasks;
        List<FileTask> out = new ArrayList<>(tasks.size());
        for (FileTask t : tasks) {
            String of = duplicateOf.get(t.path());
            out.add(
                    of == null
                            ? t
                            : new FileTask(
                                    t.workload(),
                                    t.path(),
                                    t.sizeBytes(),
                                    t.modifiedAtMs(),
                                    t.format(),
                                    t.fileOrderRank(),
                                    t.limits(),
                                    t.runId(),
                                    t.archiveRoot(),
                                    of));
        }
        return out;
    }

    private static String folder(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    /** The name without .gz, in lower case. */
    private static String plainName(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n;
    }
}
