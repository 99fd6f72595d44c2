package org.tracelake.jobs.readers.telemetry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Lines of a byte stream, one at a time, none longer than a limit: a file that is one endless line cannot fill the
 * heap. Knows whether the last line ended with a newline (a line cut short by a crash or a copy does not).
 */
final class BoundedLines {
    private final InputStream in;
    private final int maxBytes;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
    private boolean eof;

    /** What one call to {@link #next()} found. */
    record Line(byte[] bytes, boolean terminated, boolean tooLong) {}

    BoundedLines(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line without its line break, or null at the end of the stream. */
    Line next() throws IOException {
        if (eof) return null;
        line.reset();
        boolean tooLong = false;
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                return new Line(strip(tooLong), true, tooLong);
            }
            if (line.size() < maxBytes) line.write(b);
            else tooLong = true;
        }
        eof = true;
        if (line.size() == 0 && !tooLong) return null;
        return new Line(strip(tooLong), false, tooLong);
    }

    private byte[] strip(boolean tooLong) {
        byte[] bytes = line.toByteArray();
        int n = bytes.length;
        if (!tooLong && n > 0 && bytes[n - 1] == '\r') return java.util.Arrays.copyOf(bytes, n - 1);
        return bytes;
    }
}
