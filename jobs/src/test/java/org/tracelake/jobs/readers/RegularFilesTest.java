package org.tracelake.jobs.readers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 45 item 2's last window: a FIFO swapped in between the type check and the open blocked the open itself. The
 * open that {@link RegularFiles} watches is given a FIFO directly (as if it had been swapped in after the check): it
 * must give up with the "not a regular file" refusal within a few watch periods instead of waiting for a writer that
 * never comes, and a regular file must still open and read as before.
 */
class RegularFilesTest {
    @TempDir
    Path tmp;

    @Test
    void anOpenHeldUpByAFifoIsGivenUp() throws Exception {
        Path fifo = tmp.resolve("rank0_trace.json");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        FileSystem fs = FileSystem.getLocal(new Configuration());
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(fifo.toUri());
        InputRefusedException e = assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> assertThrows(InputRefusedException.class, () -> RegularFiles.watchedOpen(fs, p, fifo, 4096)));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "not a regular file (a FIFO, socket or device took the place of" + " rank0_trace.json"),
                e.getMessage());
        // and the front door refuses it before opening, as before
        assertThrows(InputRefusedException.class, () -> RegularFiles.open(fs, p));

        Path regular = Files.writeString(tmp.resolve("card.yaml"), "workload: x\n", StandardCharsets.UTF_8);
        try (InputStream in = RegularFiles.open(fs, new org.apache.hadoop.fs.Path(regular.toUri()))) {
            assertEquals("workload: x\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
