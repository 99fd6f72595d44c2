package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Records by id: dense ids by position, scattered ones in the sparse table, first record wins either way. */
class IdTableTest {
    @Test
    void denseIdsAreFoundWithTheirStartAndThread() {
        IdTable t = new IdTable();
        for (long id = 1; id <= 300_000; id++) t.putIfAbsent(id, id * 10, (int) (id % 7)); // crosses chunk borders
        assertEquals(300_000, t.size());
        assertEquals(10L, t.value(1));
        assertEquals(655_360L, t.value(65_536)); // the first slot of the second chunk
        assertEquals(3_000_000L, t.value(300_000));
        assertEquals(300_000 % 7, t.tag(300_000));
        assertEquals(IdTable.ABSENT, t.value(0));
        assertEquals(IdTable.ABSENT, t.value(300_001));
        assertEquals(IdTable.ABSENT, t.value(-5));
    }

    @Test
    void aChunkThatGrowsKeepsWhatItHeld() {
        IdTable t = new IdTable();
        t.putIfAbsent(10, 100, 1); // a short chunk
        t.putIfAbsent(5_000, 200, 2); // lengthens it
        t.putIfAbsent(3, 300, 3);
        t.putIfAbsent(65_535, 400, 4); // the chunk's last slot: full length
        t.putIfAbsent(10, 999, 9);
        assertEquals(100L, t.value(10));
        assertEquals(1, t.tag(10));
        assertEquals(200L, t.value(5_000));
        assertEquals(2, t.tag(5_000));
        assertEquals(300L, t.value(3));
        assertEquals(400L, t.value(65_535));
        assertEquals(4, t.tag(65_535));
        assertEquals(IdTable.ABSENT, t.value(4_999));
        assertEquals(IdTable.ABSENT, t.value(60_000));
        assertEquals(4, t.size());
    }

    @Test
    void theFirstRecordOfAnIdWins() {
        IdTable t = new IdTable();
        t.putIfAbsent(42, 100, 1);
        t.putIfAbsent(42, 200, 2);
        t.putIfAbsent(-42, 300, 3);
        t.putIfAbsent(-42, 400, 4);
        assertEquals(100L, t.value(42));
        assertEquals(1, t.tag(42));
        assertEquals(300L, t.value(-42));
        assertEquals(3, t.tag(-42));
        assertEquals(2, t.size());
    }

    @Test
    void scatteredAndHugeIdsGoToTheSparseTable() {
        IdTable t = new IdTable();
        // ids a million apart: a chunk each would be 64 K slots for one id; past the first chunks they go sparse
        for (long i = 0; i < 1_000; i++) t.putIfAbsent(i * 1_000_000L + 7, i, (int) i);
        t.putIfAbsent(Long.MAX_VALUE, 5, 9);
        t.putIfAbsent(1L << 40, 6, 10);
        assertEquals(1_002, t.size());
        for (long i = 0; i < 1_000; i++) {
            assertEquals(i, t.value(i * 1_000_000L + 7), "id " + (i * 1_000_000L + 7));
            assertEquals((int) i, t.tag(i * 1_000_000L + 7));
        }
        assertEquals(5L, t.value(Long.MAX_VALUE));
        assertEquals(10, t.tag(1L << 40));
        assertEquals(IdTable.ABSENT, t.value(8));
    }

    @Test
    void anIdHeldSparseKeepsItsRecordWhenItsChunkAppearsLater() {
        IdTable t = new IdTable();
        for (long i = 0; i < 40; i++) t.putIfAbsent(i * 10_000_000L + 3, 1, 1); // uses up the free chunks, then sparse
        long late = 39 * 10_000_000L + 5; // its chunk exists: dense
        t.putIfAbsent(late, 2, 2);
        assertEquals(2L, t.value(late));
        // fill the neighbourhood of a sparse id densely, so its chunk gets allocated, then record the sparse id again
        long sparseId = 30 * 10_000_000L + 3;
        for (long id = sparseId - 60_000; id < sparseId + 200_000; id++) t.putIfAbsent(id, 7, 7);
        assertEquals(1L, t.value(sparseId), "the first record (sparse) still wins");
        assertEquals(1, t.tag(sparseId));
        assertEquals(7L, t.value(sparseId + 1));
    }
}
