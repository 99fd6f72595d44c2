package org.tracelake.jobs.readers.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Lines of a byte stream, one at a time, none longer than a limit: a file that is one endless line cannot fill the
 * heap. Knows whether the last line ended with a newline (a line cut short by a crash or a copy does not). Reads
 * the stream a block at a time and scans the block for line breaks itself: a read call per byte cost a quarter of
 * the reader's time.
 */
final class BoundedLines {
    private final InputStream in;
    private final int maxBytes;
    private final byte[] block = new byte[1 << 16];
    private int pos;
    private int end;
    private byte[] line = new byte[256];
    private int length;
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
        length = 0;
        boolean tooLong = false;
        while (true) {
            if (pos == end && !fill()) break;
            int from = pos;
            while (pos < end && block[pos] != '\n') pos++;
            tooLong |= !append(from, pos);
            if (pos < end) { // at the line break
                pos++;
                return new Line(strip(tooLong), true, tooLong);
            }
        }
        eof = true;
        if (length == 0 && !tooLong) return null;
        return new Line(strip(tooLong), false, tooLong);
    }

    private boolean fill() throws IOException {
        int n = in.read(block, 0, block.length);
        if (n <= 0) return false; // a stream that returns 0 for a non-empty buffer is at its end as far as we care
        pos = 0;
        end = n;
        return true;
    }

    /** Adds block[from, to) to the line up to the limit; false when something was left out. */
    private boolean append(int from, int to) {
        int n = Math.min(to - from, maxBytes - length);
        if (length + n > line.length)
            line = Arrays.copyOf(line, Math.max(length + n, Math.min(maxBytes, line.length * 2)));
        System.arraycopy(block, from, line, length, n);
        length += n;
        return n == to - from;
    }

    private byte[] strip(boolean tooLong) {
        int n = length;
        if (!tooLong && n > 0 && line[n - 1] == '\r') n--;
        return Arrays.copyOf(line, n);
    }
}
