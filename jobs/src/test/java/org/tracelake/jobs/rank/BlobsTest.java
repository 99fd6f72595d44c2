package org.tracelake.jobs.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InvalidClassException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A blob reads back what the per-rank pass wrote, and nothing of a class outside tracelake and the JDK's values. */
class BlobsTest {
    @Test
    void aSummaryReadsBack() {
        RankSummary s = new RankSummary();
        s.rank = 3;
        s.kernelTimeNs = 1_500L;
        s.whole.put("gpu_busy_ns", 42L);
        s.gpuTotals.put(new RankSummary.GpuKey("gemm", "compute", "gemm"), new long[] {1, 2});
        s.comm = List.of();
        RankSummary back = (RankSummary) Blobs.read(Blobs.write(s));
        assertEquals(3, back.rank);
        assertEquals(1_500L, back.kernelTimeNs);
        assertEquals(Map.of("gpu_busy_ns", 42L), back.whole);
        assertEquals(2L, back.gpuTotals.get(new RankSummary.GpuKey("gemm", "compute", "gemm"))[1]);
    }

    @Test
    void aForeignClassIsRefused() {
        // java.io.File is Serializable but neither tracelake's nor a JDK value the summaries use
        byte[] planted = Blobs.write(new File("/tmp/planted"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Blobs.read(planted));
        assertTrue(e.getCause() instanceof InvalidClassException, e.toString());
    }
}
