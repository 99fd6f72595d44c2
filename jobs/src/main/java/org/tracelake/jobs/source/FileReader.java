package org.tracelake.jobs.source;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.MultiTableRows;

/**
 * Reads one file on an executor: its rows (or, for {@code trace_files}, the one row saying what became of it), then
 * hands its report to the {@link ReportSink} when the plan has one. The file's problems end up in the report, never
 * as a failed task.
 */
final class FileReader implements PartitionReader<InternalRow> {
    private static final Logger LOG = LogManager.getLogger(FileReader.class);

    private final ReadPlan plan;
    private final Configuration conf;
    private final EventStream stream;

    private FileReport report;
    private InternalRow current;
    private boolean done;

    FileReader(FileTask task, ReadPlan plan, Configuration conf) {
        this.plan = plan;
        this.conf = conf;
        FileOpening.Outcome opened = FileOpening.open(task, conf, plan.readerTable());
        this.stream = opened.stream();
        this.report = opened.report();
    }

    @Override
    public boolean next() throws IOException {
        if (done) return false;
        if (plan.readsTraceFiles()) {
            if (stream != null) {
                while (stream.hasNext()) stream.next();
            }
            current = end().toInternalRow();
            return true;
        }
        while (stream != null && stream.hasNext()) {
            InternalRow row = stream.next();
            if (plan.output() >= 0) { // one table of a multi-table reader: unwrap its envelopes, pass the others by
                if (MultiTableRows.index(row) != plan.output()) continue;
                row = MultiTableRows.unwrap(row, plan.width());
            }
            current = row;
            return true;
        }
        end();
        return false;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() throws IOException {
        if (stream != null) stream.close();
    }

    /** The file is done: its report is final, published once per read of this partition. */
    private FileReport end() throws IOException {
        done = true;
        if (report == null) report = stream.report();
        if (report.isError()) LOG.warn("{}: {}", report.task.path(), report.error);
        if (plan.reportsDir() != null) ReportSink.write(plan.reportsDir(), report, conf);
        return report;
    }
}
