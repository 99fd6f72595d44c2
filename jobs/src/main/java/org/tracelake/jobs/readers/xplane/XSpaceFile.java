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

    private static final int HEAD_BYTES = 65_536;

    /**
     * Whether a file that does not parse was binary once and went through a text conversion: every byte that was not
     * valid UTF-8 became U+FFFD (EF BF BD), so a protobuf's lengths and ids show as runs of it. A real XSpace holds a
     * few by chance at most; a re-encoded one, dozens in its first kilobytes.
     */
    static boolean reencodedAsText(byte[] head) {
        int replacements = 0;
        for (int i = 0; i + 2 < head.length; i++) {
            if ((head[i] & 0xff) == 0xef && (head[i + 1] & 0xff) == 0xbf && (head[i + 2] & 0xff) == 0xbd) {
                replacements++;
                i += 2;
            }
        }
        return replacements >= 16;
    }

    static XSpace parse(FileTask task, Configuration conf, FileReport report) throws IOException {
        XSpace space;
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true)) {
            CodedInputStream coded = CodedInputStream.newInstance(in);
            coded.setSizeLimit(Integer.MAX_VALUE); // the default 64 MiB limit would refuse larger real profiles
            try {
                space = XSpace.parseFrom(coded);
            } catch (InvalidProtocolBufferException e) {
                if (reencodedAsText(TraceInput.head(task.path(), conf, HEAD_BYTES))) {
                    throw new InputRefusedException(
                            "an XSpace re-encoded as text: its binary bytes were replaced by UTF-8 replacement"
                                    + " characters (EF BF BD), as a commit or a copy that treats the file as text does;"
                                    + " fetch the binary again (as a binary file, e.g. git's -text attribute)",
                            e);
                }
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
