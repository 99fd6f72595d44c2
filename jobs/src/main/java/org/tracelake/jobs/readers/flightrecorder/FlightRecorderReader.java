package org.tracelake.jobs.readers.flightrecorder;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.MultiTableRows;
import org.tracelake.jobs.readers.RegularFiles;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.RowBuilder;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.common.WholeFile;
import org.tracelake.jobs.readers.memory.PickleGuard;
import org.tracelake.jobs.readers.memory.PlainUnpickler;
import org.tracelake.jobs.readers.memory.SnapshotValues;
import org.tracelake.schemas.FlightRecorderSchema;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.RankFromFileName;

/**
 * PyTorch NCCL Flight Recorder dumps (FORMATS.md §9; {@code _dump_<rank>}, {@code nccl_trace_rank_<rank>},
 * {@code rank_<rank>}) into {@code flight_recorder} (output 0: one row per ring-buffer entry, oldest first) and
 * {@code process_group_status} (output 1: one row per process group the dump knows), as {@link MultiTableRows} envelopes.
 *
 * <p>Read whole, like the memory snapshot: a dump is one pickled dict (a few KB to a few MB: the ring buffer is
 * bounded), capped at {@link #MAX_BYTES}. A pickle passes {@link PickleGuard} first — any opcode that could name a
 * global, call or construct an object refuses the file before anything is built; the JSON form of the same
 * structure is read with Jackson into plain maps and lists. The rank is the number that ends the file name (the dump
 * has no rank key). A fault log beside the dumps ({@code *.log} in the same folder, as NVRx writes
 * {@code fault_injection.log}) is kept, first {@link #MAX_LOG_BYTES} bytes, in the file's {@code trace_files}
 * metadata under {@code fault_log} for the report.
 */
public final class FlightRecorderReader implements TraceReader {
    /** Largest decoded dump read: 256 MiB (real dumps are KB to a few MB). */
    public static final int MAX_BYTES = 256 << 20;

    static final int MAX_LOG_BYTES = 4096;

    static final int ENTRIES = 0;
    static final int GROUPS = 1;
    private static final int OUTPUTS = 2;
    private static final String WHAT = "an NCCL Flight Recorder dump";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        byte[] bytes = WholeFile.read(task, conf, MAX_BYTES, report, "flight recorder dump");
        Object root;
        if (bytes.length > 0 && (bytes[0] & 0xff) == 0x80) {
            long opcodes = PickleGuard.check(bytes, bytes.length, task.path(), WHAT);
            root = new PlainUnpickler().loadChecked(new ByteArrayInputStream(bytes));
            report.metadata.put("pickle_opcodes", Long.toString(opcodes));
        } else {
            root = JSON.readValue(bytes, Object.class);
            report.metadata.put("encoding", "json");
        }
        FlightRecorderDump dump = FlightRecorderDump.of(root, task.path());
        report.resolveRank(null, RankFromFileName.rank(task.fileName()));
        dump.describe(report);
        faultLog(task, conf, report);
        return new Rows(task, report, dump);
    }

    /** The first {@code *.log} beside the dump (by name), if any: what the launcher says went wrong. */
    private static void faultLog(FileTask task, Configuration conf, FileReport report) {
        try {
            Path dir = new Path(task.path()).getParent();
            if (dir == null) return;
            FileSystem fs = dir.getFileSystem(conf);
            List<Path> logs = new ArrayList<>();
            for (FileStatus f : fs.listStatus(dir)) {
                if (f.isFile() && f.getPath().getName().endsWith(".log")) logs.add(f.getPath());
            }
            if (logs.isEmpty()) return;
            logs.sort(null);
            byte[] head;
            try (InputStream in = RegularFiles.open(fs, logs.get(0))) {
                head = in.readNBytes(MAX_LOG_BYTES);
            }
            report.metadata.put("fault_log_file", logs.get(0).getName());
            report.metadata.put("fault_log", new String(head, StandardCharsets.UTF_8).strip());
        } catch (IOException | RuntimeException e) {
            report.metadata.put("fault_log_error", String.valueOf(e.getMessage()));
        }
    }

    /** Entries in dump order, then the process groups. */
    private static final class Rows extends RowStream {
        private final FlightRecorderDump dump;
        private final RowBuilder entry = new RowBuilder(FlightRecorderSchema.ENTRIES);
        private final RowBuilder group = new RowBuilder(FlightRecorderSchema.GROUPS);
        private int nextEntry;
        private int nextGroup;

        Rows(FileTask task, FileReport report, FlightRecorderDump dump) {
            super(task, report);
            this.dump = dump;
        }

        @Override
        protected InternalRow advance() {
            while (nextEntry < dump.entries().size()) {
                int position = nextEntry++;
                InternalRow r = entryRow(position, dump.entries().get(position));
                if (r != null) return MultiTableRows.wrap(ENTRIES, OUTPUTS, r);
            }
            if (nextGroup < dump.groups().size()) {
                return MultiTableRows.wrap(
                        GROUPS, OUTPUTS, groupRow(dump.groups().get(nextGroup++)));
            }
            return null;
        }

        private InternalRow entryRow(long position, Object value) {
            Map<Object, Object> e = SnapshotValues.asMap(value);
            if (e == null) {
                report.drops.drop("entry is not a mapping");
                return null;
            }
            return entry.set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("ordinal", position)
                    .set("record_id", Numbers.wholeNumber(e.get("record_id")))
                    .set("pg_id", Numbers.wholeNumber(e.get("pg_id")))
                    .set("pg_name", FlightRecorderDump.groupName(e))
                    .set("pg_desc", FlightRecorderDump.groupDesc(e))
                    .set("collective_seq_id", Numbers.wholeNumber(e.get("collective_seq_id")))
                    .set("p2p_seq_id", Numbers.wholeNumber(e.get("p2p_seq_id")))
                    .set("op_id", Numbers.wholeNumber(e.get("op_id")))
                    .set("op", SnapshotValues.asText(e.get("profiling_name")))
                    .set("is_p2p", SnapshotValues.asBool(e.get("is_p2p")))
                    .set("input_sizes", sizes(e.get("input_sizes")))
                    .set("input_dtypes", texts(e.get("input_dtypes")))
                    .set("output_sizes", sizes(e.get("output_sizes")))
                    .set("output_dtypes", texts(e.get("output_dtypes")))
                    .set("state", SnapshotValues.asText(e.get("state")))
                    .set("time_created_ns", Numbers.wholeNumber(e.get("time_created_ns")))
                    .set("time_started_ns", Numbers.wholeNumber(e.get("time_discovered_started_ns")))
                    .set("time_completed_ns", Numbers.wholeNumber(e.get("time_discovered_completed_ns")))
                    .set("retired", SnapshotValues.asBool(e.get("retired")))
                    .set("timeout_ms", Numbers.wholeNumber(e.get("timeout_ms")))
                    .set("thread_name", SnapshotValues.asText(e.get("thread_name")))
                    .set("thread_id", SnapshotValues.asText(e.get("thread_id")))
                    .build();
        }

        private InternalRow groupRow(FlightRecorderDump.Group g) {
            return group.set("workload", task.workload())
                    .set("rank", report.rank)
                    .set("source_file", task.path())
                    .set("pg_id", g.pgId())
                    .set("pg_name", g.name())
                    .set("pg_desc", g.desc())
                    .set("pg_ranks", g.ranks())
                    .set("last_enqueued_collective", g.enqueued())
                    .set("last_started_collective", g.started())
                    .set("last_completed_collective", g.completed())
                    .build();
        }

        /** Each tensor's dims ([[4096, 5120]]); a dim that is not a whole number is null, a tensor that is not a list too. */
        private static List<List<Long>> sizes(Object value) {
            List<Object> tensors = SnapshotValues.asList(value);
            if (tensors == null) return null;
            List<List<Long>> out = new ArrayList<>(tensors.size());
            for (Object t : tensors) {
                List<Object> dims = SnapshotValues.asList(t);
                if (dims == null) {
                    out.add(null);
                    continue;
                }
                List<Long> d = new ArrayList<>(dims.size());
                for (Object x : dims) d.add(Numbers.wholeNumber(x));
                out.add(d);
            }
            return out;
        }

        private static List<String> texts(Object value) {
            List<Object> list = SnapshotValues.asList(value);
            if (list == null) return null;
            List<String> out = new ArrayList<>(list.size());
            for (Object x : list) out.add(SnapshotValues.asText(x));
            return out;
        }
    }
}
