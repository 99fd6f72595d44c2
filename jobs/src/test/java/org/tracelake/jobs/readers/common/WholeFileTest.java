package org.tracelake.jobs.readers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.InputRefusedException;

/**
 * The cap on the files read whole (the memory-snapshot and Flight Recorder pickles, capped at 1 GiB and 256 MiB): a
 * file of exactly the cap is read, one byte more is refused with a message naming the cap and the file, and the cap
 * counts decoded bytes, so a small gzip that inflates past it is refused too. The readers pass their own cap; the
 * test passes a small one so that nothing large is written.
 */
class WholeFileTest {
    private static final int CAP = 4096;

    @TempDir
    Path dir;

    private byte[] read(String name, byte[] content, FileReport report) throws IOException {
        Path f = Files.write(dir.resolve(name), content);
        FileTask task =
                new FileTask("w", f.toUri().toString(), Files.size(f), 0L, null, 0, InputLimits.defaults(), "r");
        return WholeFile.read(task, new Configuration(), CAP, report, "memory snapshot");
    }

    private static FileReport report() {
        return new FileReport(new FileTask("w", "file:/x", 1, 0L, null, 0, InputLimits.defaults(), "r"));
    }

    @Test
    void aFileOfExactlyTheCapIsReadAndHashed() throws IOException {
        FileReport r = report();
        assertEquals(CAP, read("at_cap.pickle", new byte[CAP], r).length);
        assertNotNull(r.contentHash);
    }

    @Test
    void oneByteMoreIsRefusedNamingTheCapAndTheFile() {
        FileReport r = report();
        InputRefusedException e =
                assertThrows(InputRefusedException.class, () -> read("over.pickle", new byte[CAP + 1], r));
        assertTrue(e.getMessage().startsWith("memory snapshot decodes to more than " + CAP + " bytes"), e.getMessage());
        assertTrue(e.getMessage().endsWith("over.pickle"), e.getMessage());
        assertNull(r.contentHash);
    }

    @Test
    void theCapCountsDecodedBytes() throws IOException {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(new byte[CAP * 4]);
        }
        assertTrue(gz.size() < CAP, "the compressed file is under the cap: " + gz.size());
        InputRefusedException e =
                assertThrows(InputRefusedException.class, () -> read("snapshot.pickle.gz", gz.toByteArray(), report()));
        assertTrue(e.getMessage().contains("more than " + CAP + " bytes"), e.getMessage());
    }
}
