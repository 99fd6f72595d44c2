package org.tracelake.jobs.readers.xplane;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.TraceInput;
import org.tracelake.jobs.readers.xplane.proto.XSpace;

/**
 * Parses a whole {@code *.xplane.pb} (plain or gzipped). An XSpace is one protobuf message, which protobuf cannot
 * stream; profiler output is typically well under 100 MB (xprof itself loads it whole), so holding the parsed
 * message is accepted here, and rows are still produced lazily from it. The gzip expansion limit of
 * {@link TraceInput} bounds what a hostile file can make us allocate.
 */
final class XSpaceFile {
    private XSpaceFile() {}

    static XSpace parse(FileTask task, Configuration conf, FileReport report) throws IOException {
        XSpace space;
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true)) {
            CodedInputStream coded = CodedInputStream.newInstance(in);
            coded.setSizeLimit(Integer.MAX_VALUE); // the default 64 MiB limit would refuse larger real profiles
            try {
                space = XSpace.parseFrom(coded);
            } catch (InvalidProtocolBufferException e) {
                throw new InputRefusedException(
                        "not a readable XSpace protobuf (" + e.getMessage()
                                + "): the file is truncated or is not an XLA profiler .xplane.pb",
                        e);
            }
            report.contentHash = in.drainAndHash();
        }
        if (space.getPlanesCount() == 0) {
            throw new InputRefusedException(
                    "the XSpace has no planes: an empty profile, or not an XLA profiler " + ".xplane.pb at all"
                            + (space.getErrorsCount() > 0 ? " (profiler errors: " + space.getErrorsList() + ")" : ""));
        }
        return space;
    }
}
