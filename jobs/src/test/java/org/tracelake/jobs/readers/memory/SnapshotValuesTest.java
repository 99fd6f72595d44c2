package org.tracelake.jobs.readers.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values of an unpickled snapshot, which may be anything the file says. */
class SnapshotValuesTest {
    @Test
    void aTupleHoldingNoneIsAListWithANull() {
        // Found by fuzzing (ReaderFuzzTestInputs/nsysSqlite/crash-af08…, a pickle named report.sqlite): a tuple with a
        // None in it made List.of throw a NullPointerException, reported as a reader bug.
        List<Object> l = SnapshotValues.asList(new Object[] {"a", null, 3L});
        assertEquals(Arrays.asList("a", null, 3L), l);
        assertNull(SnapshotValues.asList("not a list"));
    }
}
