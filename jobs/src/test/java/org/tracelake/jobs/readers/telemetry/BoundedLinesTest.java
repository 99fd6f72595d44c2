package org.tracelake.jobs.readers.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines split by the reader's own scan: across block borders, short reads, CRLF, a cut last line, a line too long. */
class BoundedLinesTest {
    /** A stream that hands out at most 7 bytes a call, as a network file system may. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
    }

    private static List<BoundedLines.Line> all(BoundedLines lines) throws IOException {
        List<BoundedLines.Line> out = new ArrayList<>();
        for (BoundedLines.Line l = lines.next(); l != null; l = lines.next()) out.add(l);
        assertNull(lines.next(), "stays at its end");
        return out;
    }

    private static String text(BoundedLines.Line l) {
        return new String(l.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void linesBreaksAndTheCutLastLine() throws IOException {
        byte[] in = "{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":".getBytes(StandardCharsets.UTF_8);
        List<BoundedLines.Line> lines = all(new BoundedLines(trickle(in), 100));
        assertEquals(4, lines.size());
        assertEquals("{\"a\":1}", text(lines.get(0))); // the \r of a CRLF goes
        assertEquals("", text(lines.get(1)));
        assertEquals("{\"b\":2}", text(lines.get(2)));
        assertEquals("{\"c\":", text(lines.get(3)));
        assertTrue(lines.get(2).terminated());
        assertFalse(lines.get(3).terminated(), "no newline after the last line");
    }

    @Test
    void aLineAcrossTheBlockBorderAndOneTooLong() throws IOException {
        String longLine = "x".repeat(70_000); // longer than the 64 kB block
        String tooLong = "y".repeat(300_000);
        byte[] in = (longLine + "\n" + tooLong + "\nend\n").getBytes(StandardCharsets.UTF_8);
        List<BoundedLines.Line> lines = all(new BoundedLines(new ByteArrayInputStream(in), 100_000));
        assertEquals(3, lines.size());
        assertEquals(longLine, text(lines.get(0)));
        assertFalse(lines.get(0).tooLong());
        assertTrue(lines.get(1).tooLong());
        assertEquals(100_000, lines.get(1).bytes().length, "kept up to the limit, the rest skipped");
        assertArrayEquals("end".getBytes(StandardCharsets.UTF_8), lines.get(2).bytes());
    }

    @Test
    void anEmptyStreamHasNoLines() throws IOException {
        assertEquals(List.of(), all(new BoundedLines(new ByteArrayInputStream(new byte[0]), 10)));
    }
}
