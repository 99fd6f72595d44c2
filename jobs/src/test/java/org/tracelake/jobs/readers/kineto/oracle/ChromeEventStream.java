package org.tracelake.jobs.readers.kineto.oracle;

import java.io.IOException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.common.ChromeEvent;
import org.tracelake.jobs.readers.common.ChromeEventParser;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.jobs.readers.common.JsonArrayStream;
import org.tracelake.jobs.readers.common.JsonInput;

/**
 * Kept for the oracle only: both Chrome trace-event readers of main now read with the byte scanner (the XLA one since
 * issue 43's second part), so this class left main with them. The second pass of a Chrome trace-event reader: each {@code traceEvents} object parsed into
 * {@link #e}, then turned by the format into the {@link #row} it fills, or dropped.
 */
public abstract class ChromeEventStream extends JsonArrayStream {
    protected final ChromeEvent e = new ChromeEvent();
    protected final EventRow row = new EventRow();
    private final ChromeEventParser parser;

    protected ChromeEventStream(FileTask task, FileReport report, JsonInput input, boolean otherFieldsAsArgs) {
        super(task, report, input, "traceEvents");
        this.parser = new ChromeEventParser(otherFieldsAsArgs);
    }

    @Override
    protected final InternalRow advance() throws IOException {
        while (nextObject()) {
            parser.read(p, e);
            if (fill(position())) return row.build(task, report);
        }
        return null;
    }

    /** Fills {@link #row} from {@link #e}; false when the event is dropped (counted with its reason). */
    protected abstract boolean fill(long position) throws IOException;

    /** The event's {@code ts} or {@code dur} in nanoseconds, or null (the event is dropped, with its reason). */
    protected final Long nanos(String text, String field) {
        return ChromeEventParser.nanos(text, field.equals("ts") ? e.tsQuoted : e.durQuoted, field, report.drops);
    }
}
