package org.tracelake.jobs.readers.xla;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.DeviceRanks;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.TimeBases;
import org.tracelake.jobs.readers.common.json.JsonScanner;
import org.tracelake.udfs.Numbers;

/**
 * XLA / TPU profiler trace JSON ({@code *.trace.json[.gz]} from xprof/TensorBoard, {@code perfetto_trace.json.gz}
 * from JAX), streamed twice with the byte scanner the Kineto reader shares ({@link XlaScan}): the first pass builds an
 * {@link XlaTraceIndex} (devices, line names, steps; {@code M} events may follow the ops they name), the second emits
 * one row per event. Ops on a device's {@code XLA Ops} lines become
 * {@code kernel} rows on that device and rank; times are nanoseconds since the profile started (the JSON has no
 * epoch anchor, FORMATS.md §6).
 */
public final class XlaTraceReader implements TraceReader {
    static final String DEVICE_DURATION_PS = "device_duration_ps";

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        XlaTraceIndex index;
        try (XlaScan scan = XlaScan.open(task, conf, true)) {
            index = XlaTraceIndex.build(scan);
            report.contentHash = scan.drainAndHash(); // every byte, also any after the JSON
        }
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not an XLA profiler trace");
        }
        DeviceRanks ranks = new DeviceRanks(task.fileName(), index.devices);
        describe(index, ranks, report);
        return new Rows(task, report, index, ranks, seekTraceEvents(XlaScan.open(task, conf, false)));
    }

    /** The scan moved into the first traceEvents array, where the rows are; closed when the seek fails. */
    private static XlaScan seekTraceEvents(XlaScan scan) throws IOException {
        try {
            scan.begin();
            String key;
            while ((key = scan.nextKey()) != null) {
                if (key.equals("traceEvents") && scan.value() == JsonScanner.START_ARRAY) {
                    return scan;
                }
                scan.skipValue();
            }
            throw new IOException("traceEvents vanished between the two passes: was the file being rewritten?");
        } catch (IOException | RuntimeException e) {
            scan.close();
            throw e;
        }
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
    private static final class Rows extends RowStream {
        private final XlaTraceIndex index;
        private final DeviceRanks ranks;
        private final XlaScan scan;
        private final XlaEvent e = new XlaEvent();
        private final EventRow row = new EventRow();
        /** Index in the traceEvents array of the next entry, objects or not. */
        private long ordinal;

        private long countersSkipped;

        Rows(FileTask task, FileReport report, XlaTraceIndex index, DeviceRanks ranks, XlaScan scan) {
            super(task, report);
            this.index = index;
            this.ranks = ranks;
            this.scan = scan;
        }

        @Override
        protected InternalRow advance() throws IOException {
            while (true) {
                int entry = scan.nextEntry(e);
                if (entry == XlaScan.END) return null;
                long position = ordinal++;
                if (entry == XlaScan.NOT_OBJECT) {
                    report.drops.drop("traceEvents entry is not an object");
                } else if (fill(position)) {
                    return row.build(task, report);
                }
            }
        }

        @Override
        protected void release() throws IOException {
            scan.close();
        }

        /** Fills {@link #row} from {@link #e}; false when the entry makes no row (a drop counted with its reason). */
        private boolean fill(long position) {
            row.clear();
            row.ordinal = position;
            Long ts = null;
            if (e.ts.present()) {
                ts = e.ts.nanosOrDrop("ts", report.drops);
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
            if (dur == null && e.dur.present()) return false;
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
            if (!e.dur.present()) return null;
            Long dur = e.dur.nanosOrDrop("dur", report.drops);
            if (dur != null && dur < 0) {
                report.drops.drop("negative dur");
                return null;
            }
            return dur;
        }
    }
}
