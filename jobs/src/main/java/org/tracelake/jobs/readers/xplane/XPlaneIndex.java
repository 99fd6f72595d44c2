package org.tracelake.jobs.readers.xplane;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.tracelake.jobs.readers.common.StepWindows;
import org.tracelake.jobs.readers.xla.DeviceNames;
import org.tracelake.jobs.readers.xla.Picoseconds;
import org.tracelake.jobs.readers.xla.XlaLines;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;
import org.tracelake.jobs.readers.xplane.proto.XStat;

/**
 * What must be known before the first row of an XSpace: the epoch anchor (Task Environment plane), the devices,
 * each device's {@code Steps} windows and the host's step annotations, and for GPU profiles the runtime call that
 * launched each kernel ({@code correlation_id} on both sides) — its start dates the kernel's step, and the kernel's
 * device gives the launching call its rank. Times here are profile nanoseconds (line timestamp + offset).
 */
final class XPlaneIndex {
    static final String TASK_ENVIRONMENT = "Task Environment";
    static final String CORRELATION_ID = "correlation_id";

    Long profileStartNs;
    final Map<String, String> metadata = new LinkedHashMap<>();
    /** The device indexes whose planes hold events: the file's ranks. */
    final TreeSet<Integer> devices = new TreeSet<>();
    /** Device planes the profiler wrote without events (said in the file's metadata). */
    final TreeSet<Integer> devicesWithoutEvents = new TreeSet<>();

    private final Map<Integer, StepWindows> deviceSteps = new HashMap<>();
    final StepWindows hostSteps = new StepWindows();
    private final Map<Long, Long> launchStarts = new HashMap<>();
    private final Map<Long, Integer> kernelDevices = new HashMap<>();

    static XPlaneIndex build(XSpace space) {
        XPlaneIndex index = new XPlaneIndex();
        for (XPlane plane : space.getPlanesList()) index.learn(plane);
        index.deviceSteps.values().forEach(StepWindows::seal);
        index.hostSteps.seal();
        if (!index.devicesWithoutEvents.isEmpty()) {
            index.metadata.put(
                    "devices_without_events",
                    index.devicesWithoutEvents + ": device planes with no event, not counted as ranks");
        }
        if (space.getHostnamesCount() > 0) index.metadata.put("hostnames", String.join(",", space.getHostnamesList()));
        if (space.getErrorsCount() > 0) index.metadata.put("profiler_errors", String.join("\n", space.getErrorsList()));
        if (space.getWarningsCount() > 0)
            index.metadata.put("profiler_warnings", String.join("\n", space.getWarningsList()));
        return index;
    }

    private static boolean holdsEvents(XPlane plane) {
        for (XLine line : plane.getLinesList()) if (line.getEventsCount() > 0) return true;
        return false;
    }

    private void learn(XPlane plane) {
        if (plane.getName().equals(TASK_ENVIRONMENT)) {
            Map<String, String> env = XStats.of(plane, plane.getStatsList());
            env.forEach((k, v) -> metadata.put("task_environment." + k, v));
            for (XStat s : plane.getStatsList()) {
                if (XStats.statName(plane, s.getMetadataId()).equals("profile_start_time"))
                    profileStartNs = XStats.longValue(s);
            }
            return;
        }
        Integer device = DeviceNames.index(plane.getName());
        if (device != null) {
            // A device plane without a single event is no rank (issue 32 item 6: an XSpace of eight GPU planes, two
            // of them profiled, is two ranks, not eight): the profiler lists every device it saw, used or not.
            if (holdsEvents(plane)) devices.add(device);
            else devicesWithoutEvents.add(device);
            Map<String, String> props = XStats.of(plane, plane.getStatsList());
            if (!props.isEmpty()) metadata.put("device." + device, props.toString());
        }
        for (XLine line : plane.getLinesList()) {
            boolean steps = device != null && XlaLines.STEPS.equals(line.getName());
            boolean runtime =
                    device == null && XlaLines.CAT_RUNTIME.equals(XlaLines.category(line.getName(), false, ""));
            for (XEvent ev : line.getEventsList()) {
                if (ev.getDataCase() != XEvent.DataCase.OFFSET_PS) continue;
                long start = startNs(line, ev);
                long dur = Picoseconds.toNanos(ev.getDurationPs());
                Long correlation = correlation(plane, ev);
                if (device != null) {
                    if (steps) offerStep(device, plane, ev, start, dur);
                    if (correlation != null) kernelDevices.putIfAbsent(correlation, device);
                } else {
                    String name = eventName(plane, ev);
                    Long stepNum = XlaLines.stepNumber(stat(plane, ev, XlaLines.STEP_NUM));
                    if (stepNum != null) hostSteps.offerStepAnnotation(stepNum, start, dur);
                    else hostSteps.offerAnnotation(XlaLines.category(line.getName(), false, name), name, start, dur);
                    if (runtime && correlation != null) launchStarts.putIfAbsent(correlation, start);
                }
            }
        }
    }

    /** A Steps-line event: named by its step number, or carrying step_num / group_id. */
    private void offerStep(int device, XPlane plane, XEvent ev, long start, long dur) {
        Long number = null;
        String name = eventName(plane, ev);
        if (name != null && name.matches("\\d{1,18}")) number = Long.valueOf(name);
        for (XStat s : ev.getStatsList()) {
            String stat = XStats.statName(plane, s.getMetadataId());
            if (number == null && (stat.equals("step_num") || stat.equals("group_id"))) number = XStats.longValue(s);
        }
        if (number != null)
            deviceSteps.computeIfAbsent(device, d -> new StepWindows()).offerNumbered(number, start, dur);
    }

    static long startNs(XLine line, XEvent ev) {
        return line.getTimestampNs() + Picoseconds.toNanos(ev.getOffsetPs());
    }

    static String eventName(XPlane plane, XEvent ev) {
        XEventMetadata m = plane.getEventMetadataMap().get(ev.getMetadataId());
        return m == null ? null : m.getName();
    }

    /** A stat of the event, or of its metadata when the event has none of that name; null when neither has it. */
    static String stat(XPlane plane, XEvent ev, String name) {
        for (XStat s : ev.getStatsList()) {
            if (XStats.statName(plane, s.getMetadataId()).equals(name)) return XStats.value(plane, s);
        }
        XEventMetadata m = plane.getEventMetadataMap().get(ev.getMetadataId());
        if (m != null) {
            for (XStat s : m.getStatsList()) {
                if (XStats.statName(plane, s.getMetadataId()).equals(name)) return XStats.value(plane, s);
            }
        }
        return null;
    }

    static Long correlation(XPlane plane, XEvent ev) {
        for (XStat s : ev.getStatsList()) {
            if (XStats.statName(plane, s.getMetadataId()).equals(CORRELATION_ID)) return XStats.longValue(s);
        }
        return null;
    }

    /** Start (profile ns) of the runtime call that launched the kernel with this correlation id, or null. */
    Long launchStart(Long correlation) {
        return correlation == null ? null : launchStarts.get(correlation);
    }

    /** Device of the kernel a runtime call with this correlation id launched, or null. */
    Integer kernelDevice(Long correlation) {
        return correlation == null ? null : kernelDevices.get(correlation);
    }

    /**
     * The step of an event: its device's Steps line at its own start when the device has one; else the host's step
     * annotations at the start of the call that launched it (METRICS.md §1), or at its own start.
     */
    Long stepAt(Integer device, long ts, Long launchTs) {
        StepWindows steps = device == null ? null : deviceSteps.get(device);
        if (steps != null && steps.count() > 0) return steps.stepAt(ts);
        return hostSteps.stepAt(launchTs != null ? launchTs : ts);
    }

    int stepCount() {
        int n = hostSteps.count();
        for (StepWindows t : deviceSteps.values()) n = Math.max(n, t.count());
        return n;
    }

    long base() {
        return profileStartNs == null ? 0L : profileStartNs;
    }
}
