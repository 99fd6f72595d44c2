package org.tracelake.jobs.readers.kineto;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.ActivityClassifier;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceReader;
import org.tracelake.jobs.readers.common.BlockRowStream;
import org.tracelake.jobs.readers.common.EventBlock;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.jobs.readers.et.EtSizes;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.RankFromFileName;

/**
 * PyTorch profiler (Kineto) JSON, plain or gzipped, read by the byte scanner ({@link KinetoScan}) once: the entries
 * that make rows are buffered in {@link EventColumns} while the {@link KinetoIndex} learns launches, steps, comm ops
 * and metadata; at the end of the file everything a row needs is known (launches written after their kernels, a time
 * base at the end) and the rows are made from the columns. A file whose buffer would not fit the memory budget (its
 * size is known before reading) is read twice by the same scanner instead: the first pass builds the index, the
 * second makes the rows as it streams, holding no events (a 5 GB trace in a 1 GB heap).
 */
public final class KinetoReader implements TraceReader {
    /** The share of the heap one file's buffered events may take: several files are read at once, one per task. */
    static final double HEAP_SHARE = 0.25;
    /** Bytes of a Kineto file per entry on average (real traces: 190–240), for the size of its buffer. */
    static final long FILE_BYTES_PER_EVENT = 214;
    /** What gzip leaves of a Kineto file, about: the expanded size of a compressed one is estimated with it. */
    static final long GZIP_RATIO = 12;

    private final long budgetBytes;

    public KinetoReader() {
        this((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE));
    }

    /** With a budget of its own for the buffered events: tests force the two passes with a small one. */
    KinetoReader(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    /** Entries a file is expected to hold, from its size (a gzipped one judged by its name: the content decides later). */
    static long expectedEvents(FileTask task) {
        long bytes = task.fileName().endsWith(".gz") ? task.sizeBytes() * GZIP_RATIO : task.sizeBytes();
        return bytes / FILE_BYTES_PER_EVENT + 1;
    }

    /** Whether the file is read in one pass: its buffered entries fit the budget. */
    boolean onePass(FileTask task) {
        return expectedEvents(task) * EventColumns.BYTES_PER_EVENT <= budgetBytes;
    }

    @Override
    public EventStream open(FileTask task, Configuration conf) throws IOException {
        FileReport report = new FileReport(task);
        KinetoIndex index = new KinetoIndex();
        StringTable strings = new StringTable();
        KinetoEvent e = new KinetoEvent();
        EventColumns columns = null;
        long maxRelTsNs;
        boolean onePass = onePass(task);
        try (KinetoScan scan =
                KinetoScan.open(task, conf, true, strings, index, onePass ? report.drops : null, false)) {
            if (onePass) columns = new EventColumns((int) Math.min(expectedEvents(task), 1 << 24));
            while (scan.next(e)) {
                index.learn(e, strings);
                if (columns != null && makesRow(e)) columns.add(e);
            }
            report.contentHash = scan.drainAndHash();
            maxRelTsNs = scan.maxRelTsNs;
        }
        if (!index.sawTraceEvents) {
            throw new IOException("no traceEvents array: this JSON object is not a PyTorch profiler trace");
        }
        index.seal();
        describe(index, report);
        Source source = columns != null
                ? new Buffered(columns, strings, maxRelTsNs)
                : new Streamed(KinetoScan.open(task, conf, false, new StringTable(), null, report.drops, true));
        return new Rows(task, report, index, source, conf);
    }

    /** A first-array entry the scan kept. */
    static boolean makesRow(KinetoEvent e) {
        return e.firstArray && !e.notObject && !e.dropped && !e.empty;
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

    /** Whether a stream of this reader reads the file a second time to make its rows (the budget said no): for tests. */
    static boolean twoPasses(EventStream rows) {
        return ((Rows) rows).source instanceof Streamed;
    }

    /** Where the rows' entries come from: the buffer of one pass, or a second scan. */
    private interface Source {
        /** The next entry that makes a row into {@code e}, false after the last. */
        boolean next(KinetoEvent e) throws IOException;

        StringTable strings();

        /** The largest relative ts of the rows' entries, once {@link #next} said false. */
        long maxRelTsNs();

        void close() throws IOException;
    }

    private static final class Buffered implements Source {
        private final EventColumns columns;
        private final StringTable strings;
        private final long maxRelTsNs;
        private int next;

        Buffered(EventColumns columns, StringTable strings, long maxRelTsNs) {
            this.columns = columns;
            this.strings = strings;
            this.maxRelTsNs = maxRelTsNs;
        }

        @Override
        public boolean next(KinetoEvent e) {
            if (next == columns.size()) return false;
            columns.load(next++, e);
            return true;
        }

        @Override
        public StringTable strings() {
            return strings;
        }

        @Override
        public long maxRelTsNs() {
            return maxRelTsNs;
        }

        @Override
        public void close() {}
    }

    private static final class Streamed implements Source {
        private final KinetoScan scan;

        Streamed(KinetoScan scan) {
            this.scan = scan;
        }

        @Override
        public boolean next(KinetoEvent e) throws IOException {
            while (scan.next(e)) {
                if (makesRow(e)) return true;
            }
            return false;
        }

        @Override
        public StringTable strings() {
            return scan.strings;
        }

        @Override
        public long maxRelTsNs() {
            return scan.maxRelTsNs;
        }

        @Override
        public void close() throws IOException {
            scan.close();
        }
    }

    /** The rows a stream makes per block: one page of each column of the events file. */
    static final int BLOCK_ROWS = 16_384;

    /**
     * A block for the file's size: a full one holds ~3 MB of columns, zeroed when made, which a file of a few kB (a
     * card-sized trace, a fuzzer's input) would pay for hundreds of rows. An event takes at least 16 bytes of JSON
     * (gzipped files only get the full block sooner); a file with more rows refills its block as a big one does.
     */
    static int blockRows(long fileBytes) {
        return (int) Math.max(256, Math.min(BLOCK_ROWS, fileBytes / 16));
    }

    /**
     * One row per entry the source gives, every column known from the index, made a block at a time ({@link
     * EventBlock}): ingest writes the blocks column by column, a Spark scan reads the same rows one at a time.
     */
    private static final class Rows extends BlockRowStream {
        private final KinetoIndex index;
        private final Source source;
        private final long base;
        private final Configuration conf;
        private final KinetoEvent scanned = new KinetoEvent();
        private final EventBlock events;
        private final ActivityClassifier classifier = new ActivityClassifier();
        private final Map<String, String> commArgs = new LinkedHashMap<>();
        // the ids of the args the columns take, in the source's table
        private final int correlation;
        private final int externalId;
        private final int device;
        private final int stream;
        private final int collectiveName;
        private final int recordFunctionId;
        /** The workload's execution-trace sizes of this rank, read when a kernel first needs them. */
        private EtSizes etSizes;

        Rows(FileTask task, FileReport report, KinetoIndex index, Source source, Configuration conf)
                throws IOException {
            this(task, report, index, source, conf, new EventBlock(source.strings(), blockRows(task.sizeBytes())));
        }

        private Rows(
                FileTask task, FileReport report, KinetoIndex index, Source source, Configuration conf, EventBlock b)
                throws IOException {
            super(task, report, b.block());
            this.events = b;
            this.index = index;
            this.source = source;
            this.conf = conf;
            this.base = index.base();
            StringTable strings = source.strings();
            correlation = strings.intern("correlation");
            externalId = strings.intern("External id");
            device = strings.intern("device");
            stream = strings.intern("stream");
            collectiveName = strings.intern(CommDetails.COLLECTIVE_NAME);
            recordFunctionId = strings.intern(EtSizes.RF_ID_ARG);
            events.file(task, report.format);
        }

        @Override
        protected void fill(ColumnBlock block) throws IOException {
            while (!block.isFull() && source.next(scanned)) {
                int row = events.newRow(report.rank);
                try {
                    fill(scanned, row);
                } catch (IOException | RuntimeException e) {
                    block.dropLastRow();
                    throw e;
                }
            }
        }

        @Override
        protected void finish() {
            describeTimeBase(index, source.maxRelTsNs(), report);
        }

        @Override
        protected void release() throws IOException {
            source.close();
        }

        private void fill(KinetoEvent scanned, int row) throws IOException {
            StringTable strings = source.strings();
            String name = strings.get(scanned.name);
            String pid = strings.get(scanned.pid);
            String tid = strings.get(scanned.tid);
            String cat = strings.get(scanned.cat);
            Long relTs = scanned.hasTs ? scanned.ts : null;
            events.ordinal(row, scanned.ordinal);
            events.string(row, EventBlock.PID, scanned.pid);
            events.string(row, EventBlock.TID, scanned.tid);
            events.string(row, EventBlock.PH, scanned.ph);
            events.string(row, EventBlock.CAT, scanned.cat);
            events.string(row, EventBlock.NAME, scanned.name);
            if (relTs != null) events.number(row, EventBlock.TS_NS, base + relTs);
            if (scanned.hasDur) events.number(row, EventBlock.DUR_NS, scanned.dur);
            // the args with columns of their own, found in one walk over the args (the last of a key wins)
            int atCorrelation = -1, atExternalId = -1, atDevice = -1, atStream = -1, atCollective = -1, atRfId = -1;
            for (int i = 0; i < scanned.argCount; i++) {
                int key = scanned.argKeys[i];
                if (key == correlation) atCorrelation = i;
                else if (key == externalId) atExternalId = i;
                else if (key == device) atDevice = i;
                else if (key == stream) atStream = i;
                else if (key == collectiveName) atCollective = i;
                else if (key == recordFunctionId) atRfId = i;
            }
            Long rowCorrelation = scanned.longArgAt(atCorrelation, strings);
            Long rowExternalId = scanned.longArgAt(atExternalId, strings);
            events.number(row, EventBlock.CORRELATION, rowCorrelation);
            events.number(row, EventBlock.EXTERNAL_ID, rowExternalId);
            ActivityClassifier.Classes classes = classifier.classify(cat, name, null);
            boolean gpu = classes.activityClass() != null;
            events.text(row, EventBlock.ACTIVITY_CLASS, classes.activityClass());
            events.text(row, EventBlock.KERNEL_CATEGORY, classes.kernelCategory());
            Long launchRel = null;
            if (gpu) {
                Long dev = scanned.longArgAt(atDevice, strings);
                Integer rowDevice = dev != null ? Integer.valueOf(dev.intValue()) : toInt(pid);
                if (rowDevice != null) events.number(row, EventBlock.DEVICE, rowDevice.longValue());
                Long rowStream = scanned.longArgAt(atStream, strings);
                if (rowStream == null) rowStream = Numbers.wholeNumber(tid);
                events.number(row, EventBlock.STREAM, rowStream);
                launchRel = index.launchStart(rowCorrelation);
                if (launchRel != null) events.number(row, EventBlock.LAUNCH_TS_NS, base + launchRel);
            }
            if (relTs != null) {
                events.number(row, EventBlock.STEP, index.steps.stepAt(launchRel != null ? launchRel : relTs));
            }

            CommDetails comm = null;
            if (ActivityClass.COMM.equals(classes.activityClass())) {
                Map<String, String> args = args(scanned, strings);
                comm = CommDetails.forKernel(name, args, linkedOps(rowExternalId, rowCorrelation), index);
                if (comm.inBytes == null && comm.outBytes == null) sizeFromExecutionTrace(comm, rowExternalId);
            } else if (!gpu && (index.isCommOp(name) || atCollective >= 0)) {
                comm = CommDetails.forCpuOp(name, args(scanned, strings), index);
            }
            if (comm != null) {
                events.text(row, EventBlock.COLLECTIVE, comm.kind);
                events.number(row, EventBlock.IN_NELEMS, comm.inNelems);
                events.number(row, EventBlock.OUT_NELEMS, comm.outNelems);
                events.text(row, EventBlock.DTYPE, comm.dtype);
                events.number(row, EventBlock.IN_BYTES, comm.inBytes);
                events.number(row, EventBlock.OUT_BYTES, comm.outBytes);
                events.text(row, EventBlock.BYTES_SOURCE, comm.bytesSource);
                if (comm.groupSize != null) events.number(row, EventBlock.GROUP_SIZE, comm.groupSize.longValue());
                events.text(row, EventBlock.PG_NAME, comm.pgName);
                events.text(row, EventBlock.PG_RANKS, comm.pgRanks);
                events.number(row, EventBlock.SEQ, comm.seq);
            }
            if (!gpu && rowExternalId != null && atRfId >= 0) {
                report.recordFunctionIds = true;
            }
            otherArgs(scanned, row, gpu, comm);
        }

        /** The entry's args as a map (the last value of a key at its first place): for the comm rows' details. */
        private Map<String, String> args(KinetoEvent scanned, StringTable strings) {
            scanned.argsInto(commArgs, strings);
            return commArgs;
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
                } catch (IOException | RuntimeException failed) {
                    etSizes = EtSizes.NONE; // the kernels keep what Kineto says; the trace_files row says why
                    report.metadata.put("et_link", "execution-trace sizes not read: " + failed.getMessage());
                }
            }
            EtSizes.Node node = etSizes.node(rfId);
            if (node == null) return;
            comm.takeEtNode(node);
            report.unsizedCommKernels--;
            report.etLinkedKernels++;
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
         * Every arg not already in a column of this row goes to the row's args, put in the file's order (a key written
         * twice keeps its first place and its last value, as in a map of the args). The collective's name is in the
         * {@code collective} column only when that names a kind: a name it cannot place ({@code wait}, {@code gather}
         * become {@code other}) stays in the args, or the trace's word would be lost.
         */
        private void otherArgs(KinetoEvent scanned, int row, boolean gpu, CommDetails comm) {
            boolean kindNamed = comm != null && comm.kind != null && !CollectiveKind.OTHER.equals(comm.kind);
            StringTable strings = source.strings();
            EventBlock.Args args = events.args(row);
            for (int i = 0; i < scanned.argCount; i++) {
                int key = scanned.argKeys[i];
                if (key == correlation || key == externalId) continue;
                if (gpu && (key == device || key == stream)) continue;
                if (comm != null
                        && !(key == collectiveName && !kindNamed)
                        && CommDetails.COMM_ARGS.contains(strings.get(key))) continue;
                if (scanned.argKinds[i] == KinetoEvent.LONG) args.putNumber(key, scanned.argValues[i]);
                else args.putString(key, (int) scanned.argValues[i]);
            }
            args.end();
        }
    }
}
