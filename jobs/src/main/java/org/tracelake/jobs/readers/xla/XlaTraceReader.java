package org.tracelake.jobs.readers.xla;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.MicrosText;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.TimeBases;

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
        XlaTraceIndex index;
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
             JsonParser p = XlaEventParser.FACTORY.createParser(in)) {
            index = XlaTraceIndex.build(p);
            report.contentHash = in.drainAndHash();
        }
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not an XLA profiler trace");
        }
        DeviceRanks ranks = new DeviceRanks(task.fileName());
        describe(index, ranks, report);
        TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), false);
        JsonParser p = XlaEventParser.FACTORY.createParser(in);
        try {
            seekTraceEvents(p);
        } catch (IOException | RuntimeException e) {
            p.close();
            in.close();
            throw e;
        }
        return new Rows(task, report, index, ranks, p, in);
    }

    private static void describe(XlaTraceIndex index, DeviceRanks ranks, FileReport report) {
        ranks.describe(report, index.devices);
        report.timeBase = TimeBases.PROFILE_START;
        report.metadata.put("time_base_note", "ts_ns counts from the profile start: the JSON has no epoch anchor "
                + "(the .xplane.pb of the same run has one, in its Task Environment plane)");
        index.metadata.forEach(report.metadata::putIfAbsent);
        report.metadata.put("devices", index.devices.toString());
        report.metadata.put("step_count", Integer.toString(index.stepCount()));
    }

    private static void seekTraceEvents(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("not a JSON object");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            if (key.equals("traceEvents") && v == JsonToken.START_ARRAY) return;
            p.skipChildren();
        }
        throw new IOException("traceEvents vanished between the two passes: was the file being rewritten?");
    }

    /** The second pass: one row per event, pulled by Spark as it writes. */
    private static final class Rows extends RowStream {
        private final XlaTraceIndex index;
        private final DeviceRanks ranks;
        private final JsonParser p;
        private final TraceInput.Opened in;
        private final XlaEventParser parser = new XlaEventParser();
        private final XlaEvent e = new XlaEvent();
        private final EventRow row = new EventRow();
        private long ordinal;
        private long countersSkipped;

        Rows(FileTask task, FileReport report, XlaTraceIndex index, DeviceRanks ranks, JsonParser p,
             TraceInput.Opened in) {
            super(task, report);
            this.index = index;
            this.ranks = ranks;
            this.p = p;
            this.in = in;
        }

        @Override
        protected InternalRow advance() throws IOException {
            while (true) {
                JsonToken t = p.nextToken();
                if (t == null) throw new IOException("file ends inside traceEvents");
                if (t == JsonToken.END_ARRAY) return null;
                long position = ordinal++;
                if (t != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    report.drops.drop("traceEvents entry is not an object");
                    continue;
                }
                parser.read(p, e);
                if (fill(position)) return row.build(task, report);
            }
        }

        @Override
        protected void release() throws IOException {
            try {
                p.close();
            } finally {
                in.close();
            }
        }

        /** Fills the row from the current event; false when it is dropped (counted with its reason). */
        private boolean fill(long position) {
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
                row.cat = XlaLines.category(line, device != null, e.name);
                if (e.cat != null) row.arg("cat", e.cat);
                row.step = index.stepAt(device, ts);
            }
            if (device != null) {
                row.device = device;
                row.rank = ranks.forDevice(device);
                Long gpuStream = XlaLines.gpuStream(line);
                row.stream = gpuStream != null ? gpuStream : XlaCollectives.wholeNumber(e.tid);
            } else {
                row.rank = ranks.forHost(index.devices);
            }
            row.correlation = XlaCollectives.wholeNumber(row.args.remove("correlation_id"));
            row.classify(e.args.get(XlaCollectives.HLO_CATEGORY));
            XlaCollectives.fill(row, e.args);
            return true;
        }

        /** device_duration_ps when the op has it (the device's own clock), else dur µs; null when absent or bad. */
        private Long duration() {
            Long ps = XlaCollectives.wholeNumber(e.args.get(DEVICE_DURATION_PS));
            if (ps != null && ps >= 0) return Picoseconds.toNanos(ps);
            if (e.dur == null) return null;
            Long dur = nanos(e.dur, "dur");
            if (dur != null && dur < 0) {
                report.drops.drop("negative dur");
                return null;
            }
            return dur;
        }

        private Long nanos(String text, String field) {
            if (text.equals("NaN") || text.endsWith("Infinity") || text.endsWith("inf")) {
                report.drops.drop("non-finite " + field + " (" + text + ")");
                return null;
            }
            try {
                return MicrosText.toNanos(text);
            } catch (MicrosText.NotANumber bad) {
                report.drops.drop("unreadable " + field);
                return null;
            }
        }
    }
}
