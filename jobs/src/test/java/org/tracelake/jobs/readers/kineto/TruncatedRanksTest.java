package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 46: PyTorch cuts Process Group Ranks after 30 entries with ", ...]"; the group is expanded by its stride. */
class TruncatedRanksTest {
    /** The 30 entries PyTorch keeps of a data-parallel group of 64 ranks with stride 8, as it writes them. */
    private static String cutAfter30(long first, long stride) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < 30; i++) kept.add(Long.toString(first + i * stride));
        return "[" + String.join(", ", kept) + ", ...]";
    }

    @Test
    void aCutListIsExpandedToTheGroupSizeByItsStride() {
        String expanded = TruncatedRanks.expand(cutAfter30(3, 8), 64);
        List<String> want = new ArrayList<>();
        for (int i = 0; i < 64; i++) want.add(Long.toString(3 + i * 8L));
        assertEquals("[" + String.join(", ", want) + "]", expanded);
    }

    @Test
    void whatCannotBeExpandedIsKeptAsWritten() {
        assertEquals("[0, 1, 2, 3]", TruncatedRanks.expand("[0, 1, 2, 3]", 4)); // not cut
        assertEquals("[0, 1, 5, ...]", TruncatedRanks.expand("[0, 1, 5, ...]", 64)); // uneven: no stride
        assertEquals(cutAfter30(0, 1), TruncatedRanks.expand(cutAfter30(0, 1), null)); // no group size
        assertNull(TruncatedRanks.expand(null, 8));
    }
}
