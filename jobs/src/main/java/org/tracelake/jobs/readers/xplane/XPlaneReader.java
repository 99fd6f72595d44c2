package org.tracelake.jobs.readers.xplane;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
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
import org.tracelake.jobs.readers.rocprof.AmdKernelNames;
import org.tracelake.jobs.readers.xla.DeviceNames;
import org.tracelake.jobs.readers.xla.Picoseconds;
import org.tracelake.jobs.readers.xla.XlaCollectives;
import org.tracelake.jobs.readers.xla.XlaLines;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.StepNames;

/**
 * The XLA profiler's XSpace protobuf ({@code *.xplane.pb}, from {@code jax.profiler} / {@code torch_xla} /
 * TensorFlow): one row per XEvent of every plane and line. Device planes ({@code /device:GPU:N},
 * {@code /device:TPU:N}) give device N and its rank; their kernel / XLA-op lines are classified by the udfs; host
 * lines become runtime, Python or TraceMe rows ({@link XlaLines}). Start = Task Environment
 * {@code profile_start_time} (epoch ns, when present) + line {@code timestamp_ns} + event {@code offset_ps}; length =
 * {@code duration_ps}, both rounded to ns (the exact ps stay in args when rounding loses some).
 */
public final class XPlaneReader implements TraceReader {

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        XSpace space = XSpaceFile.parse(task, conf, report);
        XPlaneIndex index = XPlaneIndex.build(space);
        DeviceRanks ranks = new DeviceRanks(task.fileName(), index.devices);
        ranks.describe(report, index.devices);
        if (index.profileStartNs != null) {
            report.timeBase = TraceFileSchema.TIME_BASE_EPOCH;
            report.baseTimeNs = index.profileStartNs;
        } else {
            report.timeBase = TimeBases.PROFILE_START;
            report.metadata.put(
                    "time_base_note", "no Task Environment profile_start_time: ts_ns counts from the profile start");
        }
        report.metadata.putAll(index.metadata);
        report.metadata.put("devices", index.devices.toString());
        report.metadata.put("step_count", Integer.toString(index.stepCount()));
        return new Rows(task, report, space, index, ranks);
    }

    /** Walks planes, lines and events in file order, one row per pull. */
    private static final class Rows extends RowStream {
        private final XSpace space;
        private final XPlaneIndex index;
        private final DeviceRanks ranks;
        private final EventRow row = new EventRow();
        private int planeIdx;
        private int lineIdx;
        private int eventIdx;
        private long ordinal;
        private long aggregatesSkipped;
        /** The device ranks still to be given a copy of the host step annotation just read (see {@link #advance}). */
        private java.util.Iterator<Integer> stepCopies = java.util.Collections.emptyIterator();

        Rows(FileTask task, FileReport report, XSpace space, XPlaneIndex index, DeviceRanks ranks) {
            super(task, report);
            this.space = space;
            this.index = index;
            this.ranks = ranks;
        }

        /**
         * A host's step annotation ({@code StepTraceAnnotation}, METRICS.md §1) is every device's step: on a host
         * with one device its row is that device's rank, but with several it belongs to no rank, and no device rank
         * would have step windows (iter_time and every per-step figure missing). So the row is followed by one copy
         * per device rank, flagged with arg {@code copy_of = host step annotation}; the host's own row stays unranked
         * (the workload's wall time counts it once).
         */
        @Override
        protected InternalRow advance() {
            if (stepCopies.hasNext()) {
                row.rank = stepCopies.next();
                row.arg(COPY_OF, HOST_STEP_ANNOTATION);
                return row.build(task, report);
            }
            while (planeIdx < space.getPlanesCount()) {
                XPlane plane = space.getPlanes(planeIdx);
                if (lineIdx >= plane.getLinesCount()) {
                    planeIdx++;
                    lineIdx = 0;
                    continue;
                }
                XLine line = plane.getLines(lineIdx);
                if (eventIdx >= line.getEventsCount()) {
                    lineIdx++;
                    eventIdx = 0;
                    continue;
                }
                if (fill(plane, line, line.getEvents(eventIdx++), ordinal++)) {
                    InternalRow built = row.build(task, report);
                    if (row.rank == null && StepNames.CAT_STEP_ANNOTATION.equals(row.cat) && index.devices.size() > 1) {
                        java.util.List<Integer> deviceRanks = new java.util.ArrayList<>();
                        for (int d : index.devices) deviceRanks.add(ranks.forDevice(d));
                        stepCopies = deviceRanks.iterator();
                    }
                    return built;
                }
            }
            return null; // nothing to release: the parsed XSpace is garbage once the rows are consumed
        }

        private boolean fill(XPlane plane, XLine line, XEvent ev, long position) {
            if (ev.getDataCase() != XEvent.DataCase.OFFSET_PS) {
                // an aggregate (num_occurrences) has no start time: not an event row, and not a bad event either
                aggregatesSkipped++;
                report.metadata.put("aggregated_events_not_kept", Long.toString(aggregatesSkipped));
                return false;
            }
            row.clear();
            row.ordinal = position;
            XEventMetadata meta = plane.getEventMetadataMap().get(ev.getMetadataId());
            String rawName = meta == null ? null : meta.getName();
            Integer device = DeviceNames.index(plane.getName());
            String lineName = line.getDisplayName().isEmpty() ? line.getName() : line.getDisplayName();

            Map<String, String> stats = new LinkedHashMap<>();
            if (meta != null) XStats.putAll(plane, meta.getStatsList(), stats); // op-wide stats first (FORMATS.md §6)
            XStats.putAll(plane, ev.getStatsList(), stats);
            row.correlation = Numbers.wholeNumber(stats.remove(XPlaneIndex.CORRELATION_ID));

            long profileTs = XPlaneIndex.startNs(line, ev);
            row.pid = plane.getName();
            row.tid = Long.toUnsignedString(line.getId());
            row.ph = "X";
            row.name = device != null ? AmdKernelNames.withoutDescriptorSuffix(rawName) : rawName;
            row.cat = XlaLines.category(lineName, device != null, row.name, stats.get(XlaLines.STEP_NUM));
            row.tsNs = index.base() + profileTs;
            row.durNs = Picoseconds.toNanos(ev.getDurationPs());
            row.args.putAll(stats);
            row.arg("line", lineName);
            if (rawName != null && !rawName.equals(row.name)) row.arg("symbol", rawName);
            if (meta != null
                    && !meta.getDisplayName().isEmpty()
                    && !meta.getDisplayName().equals(rawName)) {
                row.arg("display_name", meta.getDisplayName());
            }
            if (Picoseconds.hasSubNanos(ev.getOffsetPs())) row.arg("offset_ps", ev.getOffsetPs());
            if (Picoseconds.hasSubNanos(ev.getDurationPs())) row.arg("duration_ps", ev.getDurationPs());

            if (device != null) {
                row.device = device;
                row.rank = ranks.forDevice(device);
                Long gpuStream = XlaLines.gpuStream(lineName);
                row.stream = gpuStream != null ? gpuStream : line.getId();
                Long launch = index.launchStart(row.correlation);
                if (launch != null) row.launchTsNs = index.base() + launch;
                row.step = index.stepAt(device, profileTs, launch);
            } else {
                Integer launched = index.kernelDevice(row.correlation);
                row.rank = launched != null ? ranks.forDevice(launched) : ranks.forHost(index.devices);
                row.step = index.stepAt(null, profileTs, null);
            }
            row.classify(stats.get(XlaCollectives.HLO_CATEGORY));
            XlaCollectives.fill(row, stats);
            return true;
        }

        static final String COPY_OF = "copy_of";
        static final String HOST_STEP_ANNOTATION = "host step annotation";
    }
}
