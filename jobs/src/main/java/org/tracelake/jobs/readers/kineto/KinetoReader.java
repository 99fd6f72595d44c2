package org.tracelake.jobs.readers.kineto;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.jobs.readers.ActivityClassifier;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.MicrosText;
import org.tracelake.jobs.readers.ScalaMaps;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CommOpNames;
import org.tracelake.udfs.RankFromFileName;

/**
 * PyTorch profiler (Kineto) JSON, plain or gzipped, streamed twice with Jackson's token parser: the first pass
 * builds a {@link KinetoIndex}, the second emits one row per event. Neither pass holds the events.
 */
public final class KinetoReader implements TraceReader {

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        KinetoIndex index;
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
             JsonParser p = KinetoEventParser.FACTORY.createParser(in)) {
            index = KinetoIndex.build(p);
            report.contentHash = in.drainAndHash();
        }
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not a PyTorch profiler trace");
        }
        describe(index, report);
        TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), false);
        JsonParser p = KinetoEventParser.FACTORY.createParser(in);
        try {
            seekTraceEvents(p);
        } catch (IOException | RuntimeException e) {
            p.close();
            in.close();
            throw e;
        }
        return new Rows(task, report, index, p, in);
    }

    private static void describe(KinetoIndex index, FileReport report) {
        report.resolveRank(index.distributedRank, RankFromFileName.rank(report.task.fileName()));
        report.worldSize = index.worldSize;
        report.baseTimeNs = index.baseTimeNs;
        if (index.baseTimeNs != null) {
            report.timeBase = TraceFileSchema.TIME_BASE_NANOSECONDS_KEY;
        } else if (index.baseUnknown()) {
            report.timeBase = TraceFileSchema.TIME_BASE_UNKNOWN;
            report.metadata.put("time_base_warning", "no baseTimeNanoseconds and largest ts below 1e15 us: times are "
                    + "relative to an unknown start (2024 profiler builds); cross-rank alignment is not meaningful");
        } else {
            report.timeBase = TraceFileSchema.TIME_BASE_EPOCH;
        }
        report.metadata.putAll(index.metadata);
        report.metadata.put("step_count", Integer.toString(index.steps.count()));
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
    private static final class Rows implements EventStream {
        private final FileTask task;
        private final FileReport report;
        private final KinetoIndex index;
        private final JsonParser p;
        private final TraceInput.Opened in;
        private final KinetoEventParser parser = new KinetoEventParser();
        private final KinetoEvent e = new KinetoEvent();
        private final ActivityClassifier classifier = new ActivityClassifier();
        private final long base;
        private long ordinal;
        private Row next;
        private boolean done;

        Rows(FileTask task, FileReport report, KinetoIndex index, JsonParser p, TraceInput.Opened in) {
            this.task = task;
            this.report = report;
            this.index = index;
            this.p = p;
            this.in = in;
            this.base = index.base();
        }

        @Override
        public FileReport report() {
            return report;
        }

        @Override
        public boolean hasNext() {
            if (next != null) return true;
            if (done) return false;
            try {
                while (next == null) {
                    JsonToken t = p.nextToken();
                    if (t == JsonToken.END_ARRAY || t == null) {
                        if (t == null) throw new IOException("file ends inside traceEvents");
                        done = true;
                        close();
                        return false;
                    }
                    long position = ordinal++;
                    if (t != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        report.drops.drop("traceEvents entry is not an object");
                        continue;
                    }
                    parser.read(p, e);
                    next = toRow(position);
                }
                return true;
            } catch (IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        }

        @Override
        public Row next() {
            if (!hasNext()) throw new NoSuchElementException();
            Row r = next;
            next = null;
            return r;
        }

        @Override
        public void close() throws IOException {
            try {
                p.close();
            } finally {
                in.close();
            }
        }

        /** The row for the current event, or null when it is dropped (counted with its reason). */
        private Row toRow(long position) {
            Long relTs = null;
            if (e.ts != null) {
                relTs = nanos(e.ts, "ts");
                if (relTs == null) return null;
            } else if (!"M".equals(e.ph)) {
                report.drops.drop("event without ts (ph " + e.ph + ")");
                return null;
            }
            Long dur = null;
            if (e.dur != null) {
                dur = nanos(e.dur, "dur");
                if (dur == null) return null;
                if (dur < 0) {
                    report.drops.drop("negative dur");
                    return null;
                }
            } else if ("X".equals(e.ph)) {
                report.drops.drop("complete event (ph X) without dur");
                return null;
            }

            Map<String, String> args = e.args;
            Long correlation = e.longArg("correlation");
            Long externalId = e.longArg("External id");
            Integer device = null;
            Long stream = null;
            Long launchRel = null;
            ActivityClassifier.Classes classes = classifier.classify(e.cat, e.name, null);
            String activityClass = classes.activityClass();
            boolean gpu = activityClass != null;
            if (gpu) {
                Long dev = e.longArg("device");
                device = dev != null ? Integer.valueOf(dev.intValue()) : toInt(e.pid);
                stream = e.longArg("stream");
                if (stream == null) stream = KinetoEvent.parseLong(e.tid);
                launchRel = index.launchStart(correlation);
            }
            Long step = relTs == null ? null : index.steps.stepAt(launchRel != null ? launchRel : relTs);

            CommDetails comm = null;
            if (ActivityClass.COMM.equals(activityClass)) {
                comm = CommDetails.forKernel(e.name, args, linkedOps(externalId, correlation), index);
            } else if (!gpu && (CommOpNames.isCommOp(e.name) || args.containsKey(CommDetails.COLLECTIVE_NAME))) {
                comm = CommDetails.forCpuOp(e.name, args, index);
            }

            report.eventsRead++;
            return RowFactory.create(
                    task.workload(), report.rank, task.path(), report.format, position,
                    e.pid, e.tid, device, stream, e.ph, e.cat, e.name,
                    relTs == null ? null : base + relTs, dur, step, correlation, externalId,
                    launchRel == null ? null : base + launchRel,
                    activityClass, classes.kernelCategory(),
                    comm == null ? null : comm.kind,
                    comm == null ? null : comm.inNelems, comm == null ? null : comm.outNelems,
                    comm == null ? null : comm.dtype,
                    comm == null ? null : comm.inBytes, comm == null ? null : comm.outBytes,
                    comm == null ? null : comm.bytesSource, comm == null ? null : comm.groupSize,
                    comm == null ? null : comm.pgName, comm == null ? null : comm.pgRanks,
                    comm == null ? null : comm.seq,
                    ScalaMaps.of(otherArgs(args, gpu, comm != null)));
        }

        /** The CPU op with the kernel's External id, then the comm ops enclosing its launch, innermost first. */
        private List<CommOp> linkedOps(Long externalId, Long correlation) {
            List<CommOp> ops = new ArrayList<>(4);
            CommOp byId = externalId == null ? null : index.commOpsByExternalId.get(externalId);
            if (byId != null) ops.add(byId);
            Long launch = index.launchStart(correlation);
            if (launch != null) {
                for (CommOp op : index.enclosingCommOps(index.launchThread(correlation), launch)) {
                    if (op != byId) ops.add(op);
                }
            }
            return ops;
        }

        private Long nanos(String text, String field) {
            boolean quoted = field.equals("ts") ? e.tsQuoted : e.durQuoted;
            if (text.equals("NaN") || text.endsWith("Infinity")) {
                report.drops.drop("non-finite " + field + " (" + text + ")");
                return null;
            }
            try {
                return MicrosText.toNanos(text);
            } catch (MicrosText.NotANumber bad) {
                report.drops.drop((quoted ? "non-numeric " : "unreadable ") + field);
                return null;
            }
        }

        private static Integer toInt(String s) {
            Long v = KinetoEvent.parseLong(s);
            return v == null ? null : v.intValue();
        }

        /** Every arg not already in a column of this row. */
        private static Map<String, String> otherArgs(Map<String, String> args, boolean gpu, boolean comm) {
            if (args.isEmpty()) return null;
            Map<String, String> rest = new HashMap<>(args);
            rest.remove("correlation");
            rest.remove("External id");
            if (gpu) {
                rest.remove("device");
                rest.remove("stream");
            }
            if (comm) CommDetails.COMM_ARGS.forEach(rest::remove);
            return rest.isEmpty() ? null : rest;
        }
    }

    static {
        if (EventSchema.SCHEMA.size() != 32) {
            throw new IllegalStateException("KinetoReader's row layout is out of step with EventSchema");
        }
    }
}
