package org.tracelake.jobs.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InvalidClassException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A blob reads back what the per-rank pass wrote, and nothing of a class outside tracelake and the JDK's values. */
class BlobsTest {
    @Test
    void aSummaryReadsBack() {
        RankSummary s = new RankSummary();
        s.rank = 3;
        s.putPart(new KernelTimePart.KernelTime(true, 1_500L, Map.of(), Map.of(), 0, Map.of(), Map.of()));
        s.whole.put("gpu_busy_ns", 42L);
        LeaderboardKernelPart.LeaderboardKernels kernels = new LeaderboardKernelPart.LeaderboardKernels(
                2, 3_000L, new HashMap<>(Map.of("gemm", 2_000L)), 0, 1, 1_000L, 0.5, false, 0);
        s.putPart(kernels);
        s.comm = List.of();
        RankSummary back = (RankSummary) Blobs.read(Blobs.write(s));
        assertEquals(3, back.rank);
        assertEquals(1_500L, back.part(KernelTimePart.KernelTime.class).ns());
        assertEquals(Map.of("gpu_busy_ns", 42L), back.whole);
        assertEquals(kernels, back.part(LeaderboardKernelPart.LeaderboardKernels.class));
        assertEquals(
                2_000L,
                back.part(LeaderboardKernelPart.LeaderboardKernels.class)
                        .byName()
                        .get("gemm"));
    }

    @Test
    void aForeignClassIsRefused() {
        // java.io.File is Serializable but neither tracelake's nor a JDK value the summaries use
        byte[] planted = Blobs.write(new File("/tmp/planted"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Blobs.read(planted));
        assertTrue(e.getCause() instanceof InvalidClassException, e.toString());
    }
}
