package org.tracelake.jobs.readers.xla;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.common.StepWindows;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.StepNames;

/**
 * What the first pass over an XLA profiler JSON learns, because {@code M} events may follow the ops they name:
 * which pid is which device ({@code process_name} ~ {@code /device:TPU:N}), the name of every line
 * ({@code thread_name}), the step windows of each device's {@code Steps} line, host step annotations, and the
 * header. Memory grows with processes, lines and steps, never with ops.
 */
final class XlaTraceIndex {
    private record StepCandidate(String pid, String tid, long number, long start, long dur) {}
    /** An event named like a step annotation; whether it is one depends on its line, known only at the end. */
    private record AnnotationCandidate(String pid, String tid, String name, long start, long dur) {}

    final Map<String, String> metadata = new LinkedHashMap<>();
    private final Map<String, String> processNames = new HashMap<>();
    private final Map<String, Integer> deviceByPid = new HashMap<>();
    private final Map<String, String> lineNames = new HashMap<>();
    private final List<StepCandidate> stepCandidates = new ArrayList<>();
    private final List<AnnotationCandidate> annotationCandidates = new ArrayList<>();
    /** A host event carrying step_num (JAX's StepTraceAnnotation); a device's events never are one. */
    private final List<StepCandidate> stepAnnotationCandidates = new ArrayList<>();

    private final Map<Integer, StepWindows> deviceSteps = new HashMap<>();
    final StepWindows hostSteps = new StepWindows();
    final TreeSet<Integer> devices = new TreeSet<>();
    boolean sawTraceEvents;

    /**
     * The first pass: the whole root object read, its {@code traceEvents} arrays entry by entry, every other key kept
     * as metadata (64 KiB of its text at most).
     */
    static XlaTraceIndex build(XlaScan scan) throws IOException {
        scan.begin();
        XlaTraceIndex index = new XlaTraceIndex();
        XlaEvent e = new XlaEvent();
        String key;
        while ((key = scan.nextKey()) != null) {
            if (key.equals("traceEvents")) {
                if (scan.value() != JsonScanner.START_ARRAY) throw new IOException("traceEvents is not an array");
                index.sawTraceEvents = true;
                int entry;
                while ((entry = scan.nextEntry(e)) != XlaScan.END) {
                    if (entry == XlaScan.EVENT) index.learn(e); // the second pass reports what is not an object
                }
            } else {
                String text = scan.valueText();
                index.metadata.put(
                        FileReport.fileKey(key),
                        text != null && text.length() > 65_536 ? text.substring(0, 65_536) + "…(truncated)" : text);
            }
        }
        index.seal();
        return index;
    }

    private void learn(XlaEvent e) {
        if (e.isMetadata()) {
            String name = e.args.get("name");
            if ("process_name".equals(e.name)) processNames.put(e.pid, name);
            if ("thread_name".equals(e.name)) lineNames.put(lineKey(e.pid, e.tid), name);
            return;
        }
        if (!e.ts.present() || !e.dur.present() || e.name == null) return;
        long start;
        long dur;
        try {
            start = e.ts.nanos();
            dur = e.dur.nanos();
        } catch (Numbers.NotANumber bad) {
            return; // the second pass drops the event and says why
        }
        Long number = stepNumber(e);
        if (number != null) stepCandidates.add(new StepCandidate(e.pid, e.tid, number, start, dur));
        Long stepNum = XlaLines.stepNumber(e.args.get(XlaLines.STEP_NUM));
        if (stepNum != null) stepAnnotationCandidates.add(new StepCandidate(e.pid, e.tid, stepNum, start, dur));
        if (StepNames.stepNamePriority(e.name) >= 0) {
            annotationCandidates.add(new AnnotationCandidate(e.pid, e.tid, e.name, start, dur));
        }
    }

    /** Steps-line events are named by their number; some writers put it in step_num or group_id instead. */
    private static Long stepNumber(XlaEvent e) {
        for (String candidate : new String[] {e.name, e.args.get("step_num"), e.args.get("group_id")}) {
            if (candidate != null && candidate.matches("\\d{1,18}")) return Long.valueOf(candidate);
        }
        return null;
    }

    private void seal() {
        processNames.forEach((pid, name) -> {
            Integer device = DeviceNames.index(name);
            if (device != null) {
                deviceByPid.put(pid, device);
                devices.add(device);
            }
        });
        for (StepCandidate c : stepCandidates) {
            Integer device = deviceByPid.get(c.pid);
            if (device == null || !XlaLines.STEPS.equals(lineName(c.pid, c.tid))) continue;
            deviceSteps.computeIfAbsent(device, d -> new StepWindows()).offerNumbered(c.number, c.start, c.dur);
        }
        stepCandidates.clear();
        for (AnnotationCandidate a : annotationCandidates) {
            // the category the reader gives the event's row: device-line copies are gpu_user_annotation, not steps
            String cat = XlaLines.category(lineName(a.pid, a.tid), deviceOf(a.pid) != null, a.name);
            hostSteps.offerAnnotation(cat, a.name, a.start, a.dur);
        }
        annotationCandidates.clear();
        for (StepCandidate c : stepAnnotationCandidates) {
            if (deviceOf(c.pid) == null) hostSteps.offerStepAnnotation(c.number, c.start, c.dur);
        }
        stepAnnotationCandidates.clear();
        deviceSteps.values().forEach(StepWindows::seal);
        hostSteps.seal();
    }

    Integer deviceOf(String pid) {
        return pid == null ? null : deviceByPid.get(pid);
    }

    String lineName(String pid, String tid) {
        return lineNames.get(lineKey(pid, tid));
    }

    /** The step of a time on a device: its Steps line when it has one, else the host's step annotations. */
    Long stepAt(Integer device, Long ts) {
        StepWindows steps = device == null ? null : deviceSteps.get(device);
        return steps != null && steps.count() > 0 ? steps.stepAt(ts) : hostSteps.stepAt(ts);
    }

    int stepCount() {
        int n = hostSteps.count();
        for (StepWindows t : deviceSteps.values()) n = Math.max(n, t.count());
        return n;
    }

    private static String lineKey(String pid, String tid) {
        return pid + "\u0000" + tid;
    }
}
