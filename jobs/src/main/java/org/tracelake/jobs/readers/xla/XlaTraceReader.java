package org.tracelake.jobs.readers.xla;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.readers.common.ChromeEventStream;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.jobs.readers.common.JsonInput;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.udfs.Numbers;

/**
 * XLA / TPU profiler trace JSON ({@code *.trace.json[.gz]} from xprof/TensorBoard, {@code perfetto_trace.json.gz}
 * from JAX), streamed twice with Jackson's token parser: the first pass builds an {@link XlaTraceIndex} (devices,
 * line names, steps), the second emits one row per event. Ops on a device's {@code XLA Ops} lines become
 * {@code kernel} rows on that device and rank; times are nanoseconds since the profile started (the JSON has no
 * epoch anchor, FORMATS.md §6).
 */
public final class XlaTraceReader implements TraceReader {
    static final String DEVICE_DURATION_PS = "device_duration_ps";

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        XlaTraceIndex index = JsonInput.firstPass(task, conf, ChromeEventParser.FACTORY, report, XlaTraceIndex::build);
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not an XLA profiler trace");
        }
        DeviceRanks ranks = new DeviceRanks(task.fileName(), index.devices);
        describe(index, ranks, report);
        JsonInput input =
                JsonInput.open(task, conf, ChromeEventParser.FACTORY, false, ChromeEventParser::seekTraceEvents);
        return new Rows(task, report, index, ranks, input);
    }

    private static void describe(XlaTraceIndex index, DeviceRanks ranks, FileReport report) {
        ranks.describe(report, index.devices);
        report.timeBase = TimeBases.PROFILE_START;
        report.metadata.put(
                "time_base_note",
                "ts_ns counts from the profile start: the JSON has no epoch anchor "
                        + "(the .xplane.pb of the same run has one, in its Task Environment plane)");
        index.metadata.forEach(report.metadata::putIfAbsent);
        report.metadata.put("devices", index.devices.toString());
        report.metadata.put("step_count", Integer.toString(index.stepCount()));
    }

    /** The second pass: one row per event, pulled by Spark as it writes. */
    private static final class Rows extends ChromeEventStream {
        private final XlaTraceIndex index;
        private final DeviceRanks ranks;
        private long countersSkipped;

        Rows(FileTask task, FileReport report, XlaTraceIndex index, DeviceRanks ranks, JsonInput input) {
            super(task, report, input, true);
            this.index = index;
            this.ranks = ranks;
        }

        @Override
        protected boolean fill(long position) {
            row.clear();
            row.ordinal = position;
            Long ts = null;
            if (e.ts != null) {
                ts = nanos(e.ts, "ts");
                if (ts == null) return false;
            } else if ("C".equals(e.ph)) {
                // xprof's counter series ({"ph":"C","entries":[[ts,value],…]}) are not events; not kept, not an error
                countersSkipped++;
                report.metadata.put("counter_series_not_kept", Long.toString(countersSkipped));
                return false;
            } else if (e.isEmpty()) {
                return false; // JAX's trailing {} (METRICS.md §1): no event, nothing dropped
            } else if (!e.isMetadata()) {
                report.drops.drop("event without ts (ph " + e.ph + ")");
                return false;
            }
            Long dur = duration();
            if (dur == null && e.dur != null) return false;
            Integer device = index.deviceOf(e.pid);
            String line = index.lineName(e.pid, e.tid);

            row.pid = e.pid;
            row.tid = e.tid;
            row.ph = e.ph;
            row.name = e.name;
            row.tsNs = ts;
            row.durNs = dur;
            row.args.putAll(e.args);
            row.arg("line", line);
            if (!e.isMetadata()) {
                row.cat = XlaLines.category(line, device != null, e.name, e.args.get(XlaLines.STEP_NUM));
                if (e.cat != null) row.arg("cat", e.cat);
                row.step = index.stepAt(device, ts);
            }
            if (device != null) {
                row.device = device;
                row.rank = ranks.forDevice(device);
                Long gpuStream = XlaLines.gpuStream(line);
                row.stream = gpuStream != null ? gpuStream : Numbers.wholeNumber(e.tid);
            } else {
                row.rank = ranks.forHost(index.devices);
            }
            row.correlation = Numbers.wholeNumber(row.args.remove("correlation_id"));
            row.classify(e.args.get(XlaCollectives.HLO_CATEGORY));
            XlaCollectives.fill(row, e.args);
            return true;
        }

        /** device_duration_ps when the op has it (the device's own clock), else dur µs; null when absent or bad. */
        private Long duration() {
            Long ps = Numbers.wholeNumber(e.args.get(DEVICE_DURATION_PS));
            if (ps != null && ps >= 0) return Picoseconds.toNanos(ps);
            if (e.dur == null) return null;
            Long dur = nanos(e.dur, "dur");
            if (dur != null && dur < 0) {
                report.drops.drop("negative dur");
                return null;
            }
            return dur;
        }
    }
}
