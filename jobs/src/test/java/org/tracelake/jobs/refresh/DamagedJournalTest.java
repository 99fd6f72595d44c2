package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.schemas.Tables;

/**
 * Issue 45, item 7 (the journal's half): a damaged {@code _journal/*.json} failed every later run with a Jackson error
 * or a NullPointerException naming neither the file nor the fix, until someone deleted it by hand. Now it is moved to
 * {@code _journal/damaged/} with a warning naming it, and the run goes on.
 */
class DamagedJournalTest {
    @TempDir
    Path tmp;

    @Test
    void aDamagedJournalIsSetAsideAndTheRunGoesOn() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp.resolve("a"));
        a.generated("w1", 2, 2, -1, 0);
        assertTrue(a.refresh(spark).allOk());
        Path journals = Files.createDirectories(a.warehouse.resolve(RunJournal.DIR));
        // cut short, valid JSON of another shape, and empty: each failed every run before
        List<String> names =
                List.of("20200101T000000Z-0001.json", "20200101T000001Z-0002.json", "20200101T000002Z-0003.json");
        Files.writeString(journals.resolve(names.get(0)), "{\"run_id\": \"20200101T000000Z-0001\", \"ok\": [\"w");
        Files.writeString(journals.resolve(names.get(1)), "{\"run_id\": \"20200101T000001Z-0002\"}");
        Files.writeString(journals.resolve(names.get(2)), "");

        Refresh.Result r = a.refresh(spark);
        assertTrue(r.allOk(), r.workloads()::toString);
        for (String name : names) {
            assertFalse(Files.exists(journals.resolve(name)), name + " no longer in the way");
            assertTrue(Files.exists(journals.resolve(RunJournal.DAMAGED).resolve(name)), name + " kept for a person");
        }
        assertEquals(
                2L, spark.read().format("iceberg").load(a.table(Tables.RUNS)).count(), "both runs recorded");
        assertTrue(a.refresh(spark).allOk(), "and the run after it too");
    }
}
