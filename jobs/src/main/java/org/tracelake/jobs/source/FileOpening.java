package org.tracelake.jobs.source;

import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.archive.InsideArchive;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.UnrecognisedFiles;
import org.tracelake.schemas.Tables;

/**
 * The first moments of reading one file, on an executor: take its format from the task, pick the reader of the
 * table being read, open it. The outcome is a stream of rows, or (empty file, unknown content, a file that belongs
 * to another table's reader, a reader that refuses it at open) a finished {@link FileReport} that says why not.
 * A failing file never fails the task.
 */
public final class FileOpening {
    private FileOpening() {}

    /** Exactly one of the two is set. */
    public record Outcome(EventStream stream, FileReport report) {}

    /**
     * @param table the table being read: a file whose content is another table's is not read here (the events read,
     *              which also gets the files whose name says nothing, skips it with the reason; another read reports
     *              the mismatch as an error); null reads every file with its own format's reader
     */
    public static Outcome open(FileTask task, Configuration conf, String table) {
        FileReport report = new FileReport(task);
        if (task.format() == TraceFormat.WORKLOAD_CARD) { // listed as the card by SourceFiles, as the refresh lists it
            return new Outcome(
                    null,
                    FileReport.skipped(
                            task,
                            "the workload card of " + task.workload()
                                    + ": it describes the workload and holds no events; refresh and ingest read it into workloads"));
        }
        if (task.renderingOf() != null) {
            return new Outcome(
                    null,
                    FileReport.skipped(
                            task,
                            "another rendering of the profile run in "
                                    + task.renderingOf()
                                            .substring(task.renderingOf().lastIndexOf('/') + 1)
                                    + ", which is read instead: one run is read once, on one clock (METRICS.md §1)"));
        }
        try {
            InsideArchive.Outside outside = InsideArchive.check(task.path(), task.archiveRoot(), conf);
            if (outside != null) { // a link planted after the scan: decided now, as the file is opened
                if (!outside.rankMayBeMissing()) return new Outcome(null, FileReport.skipped(task, outside.reason()));
                report.fail(outside.reason());
                return new Outcome(null, report);
            }
            if (task.sizeBytes() == 0) {
                report.fail("empty file (0 bytes): nothing to read; remove it or re-export the trace");
                return new Outcome(null, report);
            }
            TraceFormat named = FormatDetector.byName(task.fileName());
            // Decided on the driver (ReaderTasks) for every file of an ingest or a data source read; a task built
            // without one (a caller of TraceSource.read) is decided here, the one time.
            TraceFormat format = task.format();
            byte[] head = null;
            if (format == null) {
                head = TraceInput.head(task.path(), conf, FormatDetector.SNIFF_BYTES);
                format = FormatDetector.resolve(task.fileName(), head);
            }
            if (format == null) {
                if (named != null) {
                    report.fail("named like a " + named.id() + " file but its content is not: it is "
                            + UnrecognisedFiles.describe(task.fileName(), head));
                } else {
                    report = FileReport.skipped(task, UnrecognisedFiles.describe(task.fileName(), head));
                }
                return new Outcome(null, report);
            }
            ReaderRegistry.Entry entry = ReaderRegistry.entry(format);
            if (entry == null) {
                String what = Tables.EVENTS.equals(table) ? "no events reader" : "no reader";
                return new Outcome(
                        null, FileReport.skipped(withFormat(task, format), what + " for format " + format.id()));
            }
            if (table != null && !entry.table().equals(table)) {
                if (named == null) { // a read of another table: this file is fine, it just has other rows
                    return new Outcome(
                            null,
                            FileReport.skipped(
                                    withFormat(task, format),
                                    "a " + format.id() + " file: its rows belong to " + entry.table() + ", not "
                                            + table));
                }
                if (head == null) head = TraceInput.head(task.path(), conf, FormatDetector.SNIFF_BYTES);
                report.fail("named like a " + named.id() + " file but its content is "
                        + format.id() + " (first bytes: " + UnrecognisedFiles.printable(head)
                        + "); rename it to match its content");
                return new Outcome(null, report);
            }
            return new Outcome(entry.reader().open(withFormat(task, format), conf), null);
        } catch (Exception | StackOverflowError e) {
            report.fail(e);
            return new Outcome(null, report);
        }
    }

    private static FileTask withFormat(FileTask t, TraceFormat f) {
        return new FileTask(
                t.workload(),
                t.path(),
                t.sizeBytes(),
                t.modifiedAtMs(),
                f,
                t.fileOrderRank(),
                t.limits(),
                t.runId(),
                t.archiveRoot(),
                t.renderingOf());
    }
}
