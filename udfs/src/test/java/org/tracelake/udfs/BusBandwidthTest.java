package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class BusBandwidthTest {

    private static final double EPS = 1e-12;

    @Test
    void sizeIsOutForAllGatherAndInOtherwise() {
        assertEquals(402_176L, BusBandwidth.sizeBytes("all_gather", 50_272L, 402_176L));
        assertEquals(402_176L, BusBandwidth.sizeBytes("reduce_scatter", 402_176L, 50_272L));
        assertEquals(100L, BusBandwidth.sizeBytes("all_reduce", 100L, 100L));
        assertEquals(7L, BusBandwidth.sizeBytes("send_recv", 7L, null));
        assertNull(BusBandwidth.sizeBytes("all_gather", 50_272L, null));
        assertNull(BusBandwidth.sizeBytes(null, 1L, 1L));
    }

    @Test
    void sizeBucketIsTheLargestPowerOfTwoNotAboveTheSize() {
        assertEquals(0L, BusBandwidth.sizeBucket(0L));
        assertEquals(1L, BusBandwidth.sizeBucket(1L));
        assertEquals(262_144L, BusBandwidth.sizeBucket(402_176L)); // 2^18 <= 402,176 < 2^19
        assertEquals(1L << 20, BusBandwidth.sizeBucket(1L << 20));
        // exact where log2 in floating point is not: 2^53 - 1 lies in the bucket of 2^52
        assertEquals(1L << 52, BusBandwidth.sizeBucket((1L << 53) - 1));
        assertEquals(null, BusBandwidth.sizeBucket(-1L));
        assertEquals(null, BusBandwidth.sizeBucket(null));
    }

    @Test
    void factorsFollowNcclTests() {
        assertEquals(1.75, BusBandwidth.factor("all_reduce", 8), EPS); // 2*7/8
        assertEquals(1.0, BusBandwidth.factor("all_reduce", 2), EPS); // 2*1/2
        assertEquals(0.875, BusBandwidth.factor("all_gather", 8), EPS); // 7/8
        assertEquals(0.875, BusBandwidth.factor("reduce_scatter", 8), EPS);
        assertEquals(0.875, BusBandwidth.factor("all_to_all", 8), EPS);
        assertEquals(1.0, BusBandwidth.factor("broadcast", 8), EPS);
        assertEquals(1.0, BusBandwidth.factor("send_recv", 2), EPS);
        assertEquals(1.0, BusBandwidth.factor("other", 4), EPS);
        assertEquals(0.0, BusBandwidth.factor("all_reduce", 1), EPS); // a one-rank group moves nothing
        assertNull(BusBandwidth.factor("all_reduce", 0));
        assertNull(BusBandwidth.factor("all_reduce", null));
        assertNull(BusBandwidth.factor(null, 8));
    }

    @Test
    void algbwIsBytesPerNanosecond() {
        assertEquals(1.0, BusBandwidth.algbwGBps(1_000_000_000L, 1_000_000_000L), EPS); // 1 GB in 1 s
        assertEquals(2.5, BusBandwidth.algbwGBps(5_000L, 2_000L), EPS);
        assertNull(BusBandwidth.algbwGBps(5_000L, 0L));
        assertNull(BusBandwidth.algbwGBps(5_000L, -3L));
        assertNull(BusBandwidth.algbwGBps(null, 10L));
        assertNull(BusBandwidth.algbwGBps(10L, null));
    }

    @Test
    void busbwOfRealCollectives() {
        // hta-nccl-args AllReduce kernel: 6637568 Float = 26550272 B, Group size 2, dur 2636.669 us
        assertEquals(
                26_550_272.0 / 2_636_669 * 1.0,
                BusBandwidth.busbwGBps("all_reduce", 26_550_272L, 26_550_272L, 2, 2_636_669L),
                EPS);
        // FORMATS.md all-gather: out 201088 BFloat16 = 402176 B, 8 ranks, dur 21.953 us
        assertEquals(
                402_176.0 / 21_953 * 7 / 8, BusBandwidth.busbwGBps("all_gather", 50_272L, 402_176L, 8, 21_953L), EPS);
        assertNull(BusBandwidth.busbwGBps("all_gather", 50_272L, null, 8, 21_953L));
        assertNull(BusBandwidth.busbwGBps("all_reduce", 100L, 100L, null, 10L));
    }
}
