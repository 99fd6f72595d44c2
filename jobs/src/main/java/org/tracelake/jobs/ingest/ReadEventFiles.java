package org.tracelake.jobs.ingest;

import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.util.CollectionAccumulator;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.ReadErrors;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.schemas.Tables;

/**
 * Runs on an executor, one input file per call: confirms the format by content, streams the file's rows to
 * Spark's writer, and hands the file's {@link FileReport} to the driver through an accumulator when the file is
 * done — whether it ended well, was skipped or failed. A failing file never fails the task.
 *
 * <p>One instance serves one write job, named by its table ({@link ReaderRegistry.Entry#table()}): a file whose
 * content turns out to belong to another table's reader is not read here (the events job, which also gets the files
 * whose name says nothing, skips it with the reason; another job reports the mismatch as an error).
 */
public final class ReadEventFiles implements FlatMapFunction<FileTask, Row> {
    private final SerializableConf conf;
    private final CollectionAccumulator<FileReport> reports;
    private final String table;

    public ReadEventFiles(SerializableConf conf, CollectionAccumulator<FileReport> reports) {
        this(conf, reports, Tables.EVENTS);
    }

    public ReadEventFiles(SerializableConf conf, CollectionAccumulator<FileReport> reports, String table) {
        this.conf = conf;
        this.reports = reports;
        this.table = table;
    }

    @Override
    public Iterator<Row> call(FileTask task) {
        FileReport report = new FileReport(task);
        try {
            if (task.sizeBytes() == 0) {
                report.fail("empty file (0 bytes): nothing to read; remove it or re-export the trace");
                reports.add(report);
                return Collections.emptyIterator();
            }
            byte[] head = TraceInput.head(task.path(), conf.get(), FormatDetector.SNIFF_BYTES);
            TraceFormat named = FormatDetector.byName(task.fileName());
            TraceFormat format = FormatDetector.resolve(task.fileName(), head);
            if (format == null) {
                if (named != null) {
                    report.fail("named like a " + named.id() + " file but its content is not (first bytes: "
                            + printable(head) + ")");
                } else {
                    report = FileReport.skipped(task, "not a recognised trace format (first bytes: " + printable(head) + ")");
                }
                reports.add(report);
                return Collections.emptyIterator();
            }
            ReaderRegistry.Entry entry = ReaderRegistry.entry(format);
            if (entry == null) {
                String what = table.equals(Tables.EVENTS) ? "no events reader" : "no reader";
                reports.add(FileReport.skipped(withFormat(task, format), what + " for format " + format.id()));
                return Collections.emptyIterator();
            }
            if (!entry.table().equals(table)) {
                if (table.equals(Tables.EVENTS) && named == null) {
                    reports.add(FileReport.skipped(withFormat(task, format), "the content is a " + format.id()
                            + " file but its name does not say so; rename it as that format is named (FORMATS.md §0) "
                            + "to ingest it into " + entry.table()));
                } else {
                    report.fail("named like a " + (named == null ? "trace" : named.id()) + " file but its content is "
                            + format.id() + " (first bytes: " + printable(head) + "); rename it to match its content");
                    reports.add(report);
                }
                return Collections.emptyIterator();
            }
            return new Reporting(entry.reader().open(withFormat(task, format), conf.get()));
        } catch (Exception | StackOverflowError e) {
            report.fail(ReadErrors.describe(e));
            reports.add(report);
            return Collections.emptyIterator();
        }
    }

    private static FileTask withFormat(FileTask t, TraceFormat f) {
        return new FileTask(t.workload(), t.path(), t.sizeBytes(), t.modifiedAtMs(), f, t.fileOrderRank(), t.limits(), t.runId());
    }

    static String printable(byte[] head) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(16, head.length); i++) {
            int b = head[i] & 0xff;
            sb.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return sb.length() == 0 ? "none" : "'" + sb + "'";
    }

    /** Passes rows through; reports the file exactly once, when it ends or fails. */
    private final class Reporting implements Iterator<Row> {
        private final EventStream stream;
        private boolean finished;

        Reporting(EventStream stream) {
            this.stream = stream;
        }

        @Override
        public boolean hasNext() {
            if (finished) return false;
            try {
                if (stream.hasNext()) return true;
            } catch (RuntimeException | StackOverflowError e) {
                stream.report().fail(ReadErrors.describe(e));
            }
            finish();
            return false;
        }

        @Override
        public Row next() {
            if (!hasNext()) throw new NoSuchElementException();
            return stream.next();
        }

        private void finish() {
            finished = true;
            try {
                stream.close();
            } catch (Exception ignored) {
                // the report already says what matters
            }
            stream.report().flagDroppedEvents();
            reports.add(stream.report());
        }
    }
}
