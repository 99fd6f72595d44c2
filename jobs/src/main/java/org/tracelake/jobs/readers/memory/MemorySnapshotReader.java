package org.tracelake.jobs.readers.memory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.MultiTableRows;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.RowBuilder;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.WholeFile;
import org.tracelake.schemas.MemorySchema;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.RankFromFileName;

/**
 * PyTorch CUDA memory snapshots ({@code *.pickle}, {@code *.pickle.gz}; FORMATS.md §5) into {@code memory_events}
 * (output 0: every device trace entry, in trace order) and {@code memory_segments} (output 1: the final segments and
 * their blocks), as {@link MultiTableRows} envelopes.
 *
 * <p><b>Not streamed, on purpose.</b> A snapshot is one pickled object: nothing can be emitted before the whole
 * object is built, so the decoded file (tens of MB in practice, capped at {@link #MAX_BYTES}) and the object graph
 * are held in memory while its rows are written. Before anything is built the opcode stream is checked by
 * {@link PickleGuard}: only plain-data opcodes pass, so the unpickler never sees a class name.
 *
 * <p>Rank: from the file name ({@code rank3_memory_snapshot.pickle}), else the file's position among the
 * workload's snapshots (the snapshot itself does not say).
 */
public final class MemorySnapshotReader implements TraceReader {
    /** Largest decoded snapshot read: 1 GiB (real ones are tens of MB; a JVM array cannot exceed 2 GiB anyway). */
    public static final int MAX_BYTES = 1 << 30;

    static final int EVENTS = 0;
    static final int SEGMENTS = 1;
    private static final int OUTPUTS = 2;

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        byte[] bytes = WholeFile.read(task, conf, MAX_BYTES, report, "memory snapshot");
        long opcodes = PickleGuard.check(bytes, bytes.length, task.path());
        Object root = new PlainUnpickler().loadChecked(new ByteArrayInputStream(bytes));
        bytes = null; // only the object graph is needed from here on
        Snapshot s = Snapshot.of(root, task.path());
        report.resolveRank(null, RankFromFileName.rank(task.fileName()));
        report.metadata.put("pickle_opcodes", Long.toString(opcodes));
        s.describe(report);
        return new Rows(task, report, s);
    }

    /** The parts of a snapshot the tables need. */
    record Snapshot(
            List<Object> segments,
            List<Object> deviceTraces,
            Map<Object, Object> allocatorSettings,
            List<Object> annotations) {
        static Snapshot of(Object root, String path) throws IOException {
            Map<Object, Object> top = SnapshotValues.asMap(root);
            if (top == null) {
                List<Object> list = SnapshotValues.asList(root);
                if (list != null) return new Snapshot(list, List.of(), null, null); // PyTorch < 2.1: segments only
                throw new InputRefusedException("not a CUDA memory snapshot: the pickle holds a "
                        + (root == null ? "None" : root.getClass().getSimpleName()) + ", not a dict: " + path);
            }
            List<Object> segments = SnapshotValues.asList(top.get("segments"));
            if (segments == null) {
                throw new InputRefusedException(
                        "not a CUDA memory snapshot: no \"segments\" list (keys: " + keys(top) + "): " + path);
            }
            List<Object> traces = SnapshotValues.asList(top.get("device_traces"));
            return new Snapshot(
                    segments,
                    traces == null ? List.of() : traces,
                    SnapshotValues.asMap(top.get("allocator_settings")),
                    SnapshotValues.asList(top.get("external_annotations")));
        }

        private static String keys(Map<Object, Object> m) {
            List<String> k = new ArrayList<>();
            for (Object o : m.keySet()) if (k.size() < 10) k.add(String.valueOf(o));
            return String.join(", ", k);
        }

        void describe(FileReport report) {
            long blocks = 0;
            for (Object seg : segments) {
                List<Object> b = SnapshotValues.asList(
                        SnapshotValues.asMap(seg) == null
                                ? null
                                : SnapshotValues.asMap(seg).get("blocks"));
                if (b != null) blocks += b.size();
            }
            Map<String, Long> perDevice = new TreeMap<>();
            for (int d = 0; d < deviceTraces.size(); d++) {
                List<Object> t = SnapshotValues.asList(deviceTraces.get(d));
                if (t != null && !t.isEmpty()) perDevice.put("cuda:" + d, (long) t.size());
            }
            report.metadata.put("segments", Integer.toString(segments.size()));
            report.metadata.put("blocks", Long.toString(blocks));
            report.metadata.put("trace_entries", perDevice.isEmpty() ? "none" : perDevice.toString());
            if (allocatorSettings != null) {
                for (String k : List.of("expandable_segments", "max_split_size", "PYTORCH_CUDA_ALLOC_CONF")) {
                    String v = SnapshotValues.asText(allocatorSettings.get(k));
                    if (v != null) report.metadata.put("allocator." + k, v);
                }
            }
            if (annotations != null) report.metadata.put("external_annotations", Integer.toString(annotations.size()));
            if (deviceTraces.isEmpty()) {
                report.metadata.put(
                        "trace_warning",
                        "no device_traces: the snapshot was taken without "
                                + "_record_memory_history, so only the final segments are known (no peak replay)");
            }
        }
    }

    /** Trace entries device by device, then segments and their blocks: one row at a time from the object graph. */
    private static final class Rows extends RowStream {
        private final Snapshot s;
        private final RowBuilder event = new RowBuilder(MemorySchema.EVENTS);
        private final RowBuilder segmentOrBlock = new RowBuilder(MemorySchema.SEGMENTS);
        private int device;
        private int entry;
        private int segment;
        private int block = -1;
        private Long blockCursor;

        Rows(FileTask task, FileReport report, Snapshot s) {
            super(task, report);
            this.s = s;
        }

        /** Trace entries device by device, then each segment followed by its blocks (nothing to release: read whole). */
        @Override
        protected InternalRow advance() {
            while (true) {
                if (device < s.deviceTraces().size()) {
                    List<Object> trace = SnapshotValues.asList(s.deviceTraces().get(device));
                    if (trace == null || entry >= trace.size()) {
                        device++;
                        entry = 0;
                        continue;
                    }
                    int position = entry++;
                    InternalRow r = traceRow(device, position, trace.get(position));
                    if (r != null) return MultiTableRows.wrap(EVENTS, OUTPUTS, r);
                    continue;
                }
                if (segment >= s.segments().size()) return null;
                Map<Object, Object> seg = SnapshotValues.asMap(s.segments().get(segment));
                if (seg == null) {
                    report.drops.drop("segment is not a mapping");
                    segment++;
                    block = -1;
                    continue;
                }
                if (block < 0) {
                    block = 0;
                    blockCursor = Numbers.wholeNumber(seg.get("address"));
                    return MultiTableRows.wrap(SEGMENTS, OUTPUTS, segmentRow(segment, seg));
                }
                List<Object> blocks = SnapshotValues.asList(seg.get("blocks"));
                if (blocks == null || block >= blocks.size()) {
                    segment++;
                    block = -1;
                    continue;
                }
                int position = block++;
                InternalRow r = blockRow(segment, seg, position, blocks.get(position));
                if (r != null) return MultiTableRows.wrap(SEGMENTS, OUTPUTS, r);
            }
        }

        private InternalRow traceRow(int dev, long position, Object value) {
            Map<Object, Object> e = SnapshotValues.asMap(value);
            if (e == null) {
                report.drops.drop("device trace entry is not a mapping");
                return null;
            }
            Long timeUs = Numbers.wholeNumber(e.get("time_us"));
            Long tsNs = null;
            if (timeUs != null) {
                try {
                    tsNs = Math.multiplyExact(timeUs, 1000L);
                } catch (ArithmeticException overflow) {
                    tsNs = null;
                }
            }
            List<Object> frames = SnapshotValues.asList(e.get("frames"));
            return event.set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("device", dev)
                    .set("ordinal", position)
                    .set("action", SnapshotValues.asText(e.get("action")))
                    .set("address", Numbers.wholeNumber(e.get("addr")))
                    .set("size", Numbers.wholeNumber(e.get("size")))
                    .set("stream", Numbers.wholeNumber(e.get("stream")))
                    .set("time_us", timeUs)
                    .set("ts_ns", tsNs)
                    .set("frame", SnapshotValues.frameSummary(frames))
                    .set("frame_count", frames == null ? null : frames.size())
                    .set("device_free", Numbers.wholeNumber(e.get("device_free")))
                    .set("compile_context", SnapshotValues.asText(e.get("compile_context")))
                    .set("user_metadata", SnapshotValues.asText(e.get("user_metadata")))
                    .build();
        }

        private InternalRow segmentRow(long position, Map<Object, Object> seg) {
            Long address = Numbers.wholeNumber(seg.get("address"));
            return segmentColumns(seg)
                    .set("row_kind", MemorySchema.KIND_SEGMENT)
                    .set("segment_ordinal", position)
                    .set("address", address)
                    .set("size", Numbers.wholeNumber(seg.get("total_size")))
                    .set("requested_size", Numbers.wholeNumber(seg.get("requested_size")))
                    .set("allocated_size", Numbers.wholeNumber(seg.get("allocated_size")))
                    .set("active_size", Numbers.wholeNumber(seg.get("active_size")))
                    .set("frame", SnapshotValues.frameSummary(seg.get("frames")))
                    .build();
        }

        private InternalRow blockRow(long segPosition, Map<Object, Object> seg, long position, Object value) {
            Map<Object, Object> b = SnapshotValues.asMap(value);
            if (b == null) {
                report.drops.drop("block is not a mapping");
                return null;
            }
            // PyTorch 2.0 blocks have no address: it is the segment's plus the sizes of the blocks before.
            Long size = Numbers.wholeNumber(b.get("size"));
            Long address = Numbers.wholeNumber(b.containsKey("address") ? b.get("address") : b.get("addr"));
            if (address == null) address = blockCursor;
            blockCursor = address == null || size == null ? null : address + size;
            return segmentColumns(seg)
                    .set("row_kind", MemorySchema.KIND_BLOCK)
                    .set("segment_ordinal", segPosition)
                    .set("block_ordinal", position)
                    .set("address", address)
                    .set("size", size)
                    .set("requested_size", Numbers.wholeNumber(b.get("requested_size")))
                    .set("state", SnapshotValues.asText(b.get("state")))
                    .set("frame", SnapshotValues.frameSummary(b.get("frames")))
                    .build();
        }

        /** The columns a segment row and its blocks' rows share. */
        private RowBuilder segmentColumns(Map<Object, Object> seg) {
            return segmentOrBlock
                    .set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("device", deviceOf(seg))
                    .set("segment_address", Numbers.wholeNumber(seg.get("address")))
                    .set("stream", Numbers.wholeNumber(seg.get("stream")))
                    .set("segment_type", SnapshotValues.asText(seg.get("segment_type")))
                    .set("segment_pool_id", SnapshotValues.asText(seg.get("segment_pool_id")))
                    .set("is_expandable", SnapshotValues.asBool(seg.get("is_expandable")));
        }

        private int deviceOf(Map<Object, Object> seg) {
            Integer d = Numbers.wholeInt(seg.get("device"));
            return d == null ? 0 : d;
        }
    }
}
