package org.tracelake.jobs.readers.kineto.oracle;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.ChromeEvent;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.readers.common.JsonInput;
import org.tracelake.jobs.readers.et.EtSizes;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.RankFromFileName;

/**
 * The frozen oracle of issue 43: the two-pass Jackson reader production had before the one-pass byte-level reader
 * (package {@code readers.kineto}), kept unchanged, with the classes it used, only for
 * {@code KinetoReaderEqualityTest} to hold the new reader to its rows and reports.
 *
 * <p>PyTorch profiler (Kineto) JSON, plain or gzipped, streamed twice with Jackson's token parser: the first pass
 * builds a {@link KinetoIndex}, the second emits one row per event. Neither pass holds the events. Runtime launches
 * are indexed by the first pass only when the file writes GPU activities before their launches ({@link Launches}:
 * how that is detected, and what happens when the order turns out wrong midway).
 */
public final class KinetoReader implements TraceReader {

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        KinetoIndex index = KinetoIndex.read(task, conf, report);
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not a PyTorch profiler trace");
        }
        describe(index, report);
        JsonInput input =
                JsonInput.open(task, conf, ChromeEventParser.FACTORY, false, ChromeEventParser::seekTraceEvents);
        return new Rows(task, report, index, input, conf);
    }

    private static void describe(KinetoIndex index, FileReport report) {
        report.resolveRank(index.distributedRank, RankFromFileName.rank(report.task.fileName()));
        if (index.distributedRankOutOfRange != null) {
            report.flagRank("distributedInfo.rank is " + index.distributedRankOutOfRange
                    + ", beyond the largest rank there"
                    + " can be (2147483647): ranked by " + report.rankSource.replace('_', ' ') + " (" + report.rank
                    + ") instead; check the profiler's distributed setup");
        }
        report.worldSize = index.worldSize;
        report.baseTimeNs = index.baseTimeNs;
        report.metadata.putAll(index.metadata);
        report.metadata.put("step_count", Integer.toString(index.steps.count()));
    }

    /** What the times are relative to; without baseTimeNanoseconds, told by the largest ts of the file. */
    private static void describeTimeBase(KinetoIndex index, long maxRelTsNs, FileReport report) {
        if (index.baseTimeNs != null) {
            report.timeBase = TraceFileSchema.TIME_BASE_NANOSECONDS_KEY;
        } else if (index.baseUnknown(maxRelTsNs)) {
            report.timeBase = TraceFileSchema.TIME_BASE_UNKNOWN;
            report.metadata.put(
                    "time_base_warning",
                    "no baseTimeNanoseconds and largest ts below 1e15 us: times are "
                            + "relative to an unknown start (2024 profiler builds); cross-rank alignment is not meaningful");
        } else {
            report.timeBase = TraceFileSchema.TIME_BASE_EPOCH;
        }
    }

    /** Whole-file launch scans a stream of this reader made so far (0 or 1; {@link Launches}): for tests. */
    static int launchScans(EventStream rows) {
        return ((Rows) rows).index.launches.scans;
    }

    /** The second pass: one row per event, pulled by Spark as it writes. */
    private static final class Rows extends ChromeEventStream {
        private final KinetoIndex index;
        private final long base;
        /** The largest ts read (relative ns): the first pass does not see every event. */
        private long maxRelTsNs = Long.MIN_VALUE;

        private final Configuration conf;
        /** The workload's execution-trace sizes of this rank, read when a kernel first needs them. */
        private EtSizes etSizes;

        Rows(FileTask task, FileReport report, KinetoIndex index, JsonInput input, Configuration conf) {
            super(task, report, input, false);
            this.conf = conf;
            this.index = index;
            this.base = index.base();
        }

        @Override
        protected boolean fill(long position) throws IOException {
            Launches launches = index.launches;
            if (!launches.complete()) launches.learn(e); // whether or not the event is kept: as the first pass would
            Long relTs = null;
            if (e.ts != null) {
                relTs = nanos(e.ts, "ts");
                if (relTs == null) return false;
                if (relTs > maxRelTsNs) maxRelTsNs = relTs;
            } else if (e.isEmpty()) {
                return false; // JAX's trailing {}: no event, nothing dropped
            } else if (!"M".equals(e.ph)) {
                report.drops.drop("event without ts (ph " + e.ph + ")");
                return false;
            }
            Long dur = null;
            if (e.dur != null) {
                dur = nanos(e.dur, "dur");
                if (dur == null) return false;
                if (dur < 0) {
                    report.drops.drop("negative dur");
                    return false;
                }
            } else if ("X".equals(e.ph)) {
                report.drops.drop("complete event (ph X) without dur");
                return false;
            }

            Map<String, String> args = e.args;
            row.clear();
            row.rank = report.rank;
            row.ordinal = position;
            row.pid = e.pid;
            row.tid = e.tid;
            row.ph = e.ph;
            row.cat = e.cat;
            row.name = e.name;
            row.tsNs = relTs == null ? null : base + relTs;
            row.durNs = dur;
            row.correlation = e.longArg("correlation");
            row.externalId = e.longArg("External id");
            row.classify(null);
            boolean gpu = row.activityClass != null;
            Long launchRel = null;
            if (gpu) {
                Long dev = e.longArg("device");
                row.device = dev != null ? Integer.valueOf(dev.intValue()) : toInt(e.pid);
                row.stream = e.longArg("stream");
                if (row.stream == null) row.stream = Numbers.wholeNumber(e.tid);
                if (launches.missing(row.correlation)) indexAllLaunches();
                launchRel = index.launchStart(row.correlation);
                if (launchRel != null) row.launchTsNs = base + launchRel;
            }
            row.step = relTs == null ? null : index.steps.stepAt(launchRel != null ? launchRel : relTs);

            CommDetails comm = null;
            if (row.isComm()) {
                comm = CommDetails.forKernel(e.name, args, linkedOps(row.externalId, row.correlation), index);
                if (comm.inBytes == null && comm.outBytes == null) sizeFromExecutionTrace(comm, row.externalId);
            } else if (!gpu && (index.isCommOp(e.name) || args.containsKey(CommDetails.COLLECTIVE_NAME))) {
                comm = CommDetails.forCpuOp(e.name, args, index);
            }
            if (comm != null) {
                row.collective = comm.kind;
                row.inNelems = comm.inNelems;
                row.outNelems = comm.outNelems;
                row.dtype = comm.dtype;
                row.inBytes = comm.inBytes;
                row.outBytes = comm.outBytes;
                row.bytesSource = comm.bytesSource;
                row.groupSize = comm.groupSize;
                row.pgName = comm.pgName;
                row.pgRanks = comm.pgRanks;
                row.seq = comm.seq;
            }
            if (!gpu && row.externalId != null && args.containsKey(EtSizes.RF_ID_ARG)) report.recordFunctionIds = true;
            otherArgs(args, gpu, comm != null);
            return true;
        }

        /**
         * A GPU activity whose launch this pass has not met: the launches of the whole file, indexed once, as the
         * first pass indexes them (the same sieve, the same rule), before the activity's row is built.
         */
        private void indexAllLaunches() throws IOException {
            SievedInput.scan(task, conf, ChromeEventParser.FACTORY, LaunchScan::new);
            index.launches.scanned();
        }

        /** One attempt at the launch scan: every traceEvents array of the document, only its launches parsed. */
        private final class LaunchScan implements SievedInput.SievedPass<Void> {
            @Override
            public boolean keep(TraceEventsSieve.Entry entry) {
                return Launches.isLaunch(entry.cat());
            }

            @Override
            public Void read(JsonParser p) throws IOException {
                if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("not a JSON object");
                ChromeEventParser events = new ChromeEventParser(false);
                ChromeEvent launch = new ChromeEvent();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonToken v = p.nextToken();
                    if (key.equals("traceEvents")) {
                        events.forEachEvent(p, v, launch, ev -> Launches.isLaunch(ev.cat), index.launches::learn);
                    } else {
                        p.skipChildren();
                    }
                }
                return null;
            }
        }

        /** A comm kernel without a size: the ET node its CPU op's Record function id names, if one has a size. */
        private void sizeFromExecutionTrace(CommDetails comm, Long externalId) {
            report.unsizedCommKernels++;
            CommOp op = index.commOpByExternalId(externalId);
            Long rfId = op == null ? null : Numbers.wholeNumber(op.args().get(CommDetails.RECORD_FUNCTION_ID));
            if (rfId == null) return;
            if (etSizes == null) {
                try {
                    etSizes = EtSizes.load(conf, task.workload(), report.rank);
                } catch (IOException | RuntimeException e) {
                    etSizes = EtSizes.NONE; // the kernels keep what Kineto says; the trace_files row says why
                    report.metadata.put("et_link", "execution-trace sizes not read: " + e.getMessage());
                }
            }
            EtSizes.Node node = etSizes.node(rfId);
            if (node == null) return;
            comm.takeEtNode(node);
            report.unsizedCommKernels--;
            report.etLinkedKernels++;
        }

        @Override
        protected void finish() {
            describeTimeBase(index, maxRelTsNs, report);
        }

        /** The CPU op with the kernel's External id, then the comm ops enclosing its launch, innermost first. */
        private List<CommOp> linkedOps(Long externalId, Long correlation) {
            List<CommOp> ops = new ArrayList<>(4);
            CommOp byId = index.commOpByExternalId(externalId);
            if (byId != null) ops.add(byId);
            Long launch = index.launchStart(correlation);
            if (launch != null) {
                for (CommOp op : index.enclosingCommOps(index.launchThread(correlation), launch)) {
                    if (op != byId) ops.add(op);
                }
            }
            return ops;
        }

        private static Integer toInt(String s) {
            Long v = Numbers.wholeNumber(s);
            return v == null ? null : v.intValue();
        }

        /**
         * Every arg not already in a column of this row goes to the row's args. The collective's name is in the
         * {@code collective} column only when that names a kind: a name it cannot place ({@code wait}, {@code gather}
         * become {@code other}) stays in the args, or the trace's word would be lost.
         */
        private void otherArgs(Map<String, String> args, boolean gpu, boolean comm) {
            boolean kindNamed = row.collective != null && !CollectiveKind.OTHER.equals(row.collective);
            for (Map.Entry<String, String> a : args.entrySet()) {
                String key = a.getKey();
                if (key.equals("correlation") || key.equals("External id")) continue;
                if (gpu && (key.equals("device") || key.equals("stream"))) continue;
                if (key.equals(CommDetails.COLLECTIVE_NAME) && !kindNamed) {
                    row.args.put(key, a.getValue());
                    continue;
                }
                if (comm && CommDetails.COMM_ARGS.contains(key)) continue;
                row.args.put(key, a.getValue());
            }
        }
    }
}
