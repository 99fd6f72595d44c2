package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A comm op keeps only the args CommDetails reads, as an array, and shows them as a map. */
class CommOpTest {
    @Test
    void keepsTheArgsCommDetailsReadsAndShowsThemAsAMap() {
        // a record_param_comms op as tracelake generate writes it (args as pass 1 sees them)
        Map<String, String> args = Map.of(
                "External id",
                "2",
                "Collective name",
                "_allgather_base",
                "In msg nelems",
                "13631488",
                "Out msg nelems",
                "13631488",
                "Group size",
                "1",
                "dtype",
                "BFloat16",
                "In split size",
                "[]",
                "Process Group Name",
                "0",
                "Seq",
                "1");
        CommOp op = CommOp.of("record_param_comms", "41000", 10, 29, args);
        Map<String, String> kept = op.args();
        assertEquals("13631488", kept.get(CommDetails.IN_NELEMS));
        assertEquals("BFloat16", kept.get(CommDetails.DTYPE));
        assertEquals("1", kept.get(CommDetails.SEQ));
        assertNull(kept.get("External id"), "not an arg CommDetails reads");
        assertNull(kept.get("In split size"));
        assertFalse(kept.containsKey(CommDetails.PG_RANKS));
        assertEquals(7, kept.entrySet().size());
        assertTrue(op.encloses(10) && op.encloses(29) && !op.encloses(30));
    }

    @Test
    void anOpWithoutArgsHasAnEmptyMap() {
        CommOp op = CommOp.of("nccl:all_reduce", "7", 0, 5, Map.of("External id", "3"));
        assertTrue(op.args().isEmpty());
        assertNull(op.args().get(CommDetails.COLLECTIVE_NAME));
    }
}
