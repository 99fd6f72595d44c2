package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * Issue 43: whether a file is read in one pass is decided from its size before reading, against the reader's budget
 * (a quarter of the heap): the generated 356 MB trace fits a 1 GB heap's budget, the 5 GB trace does not and is read
 * in two passes (the rows of both ways are held equal by {@link KinetoReaderEqualityTest}).
 */
class KinetoReaderBudgetTest {
    private static final long GB = 1L << 30;

    @Test
    void theFileSizeAgainstTheBudgetDecides() {
        KinetoReader oneGigabyteHeap = new KinetoReader((long) (GB * KinetoReader.HEAP_SHARE));
        assertTrue(oneGigabyteHeap.onePass(task("rank0_trace.json", 355_789_594L)), "356 MB: ~1.66 M entries, 223 MB");
        assertFalse(oneGigabyteHeap.onePass(task("rank0_trace.json", 5_200_000_000L)), "5.2 GB: two passes");
        // a gzipped file expands: judged by its estimated content, not its compressed size
        assertFalse(oneGigabyteHeap.onePass(task("rank0_trace.json.gz", 400_000_000L)), "400 MB of gzip: two passes");
        assertTrue(oneGigabyteHeap.onePass(task("rank0_trace.json.gz", 10_000_000L)), "10 MB of gzip: one pass");
    }

    private static FileTask task(String name, long size) {
        return new FileTask("w", "/archive/w/" + name, size, 0L, TraceFormat.KINETO, 0, InputLimits.defaults(), "t");
    }
}
