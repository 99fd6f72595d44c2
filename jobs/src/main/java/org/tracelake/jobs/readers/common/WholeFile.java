package org.tracelake.jobs.readers.common;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.TraceInput;

/**
 * A file read whole, for the formats that are one serialised object (pickles: nothing can be emitted before the
 * object is built): its decoded bytes, at most {@code maxBytes}, and the content hash put in the report.
 */
public final class WholeFile {
    private WholeFile() {}

    /**
     * @param what the kind of file, for the refusal ("memory snapshot")
     * @throws InputRefusedException when the decoded content is longer than {@code maxBytes}
     */
    public static byte[] read(FileTask task, Configuration conf, int maxBytes, FileReport report, String what)
            throws IOException {
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true)) {
            byte[] bytes = in.readNBytes(maxBytes);
            if (in.read() >= 0) {
                throw new InputRefusedException(what + " decodes to more than " + maxBytes + " bytes; a " + what
                        + " is read whole, and this one is beyond any real one: " + task.path());
            }
            report.contentHash = in.drainAndHash();
            return bytes;
        }
    }
}
