package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.schemas.Tables;

/**
 * Issue 45, item 1: a workload folder name of 241–246 bytes passed the 255-byte check of its partition folder
 * ({@code workload=<name>}), was committed, and then its export failed on the checksum side file Hadoop writes beside
 * {@code <name>.json} ({@code .<name>.json.crc}, ten bytes longer than the name): exit 1, and the journal it left failed
 * every later run the same way. A name as long as the partition folder allows is now refreshed, exported and
 * refreshed again like any other.
 */
class LongWorkloadNameTest {
    /** {@code workload=} and this name are 255 bytes: the longest a folder name may be. */
    static final String LONGEST = "w".repeat(246);

    @TempDir
    Path tmp;

    @Test
    void aNameAsLongAsAFolderAllowsIsRefreshedExportedAndRefreshedAgain() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp.resolve("a"));
        a.generated(LONGEST, 2, 2, -1, 0).generated("short", 2, 2, -1, 0);
        for (int night = 1; night <= 2; night++) {
            Refresh.Result r = a.refresh(spark);
            assertTrue(r.allOk(), "night " + night + ": " + r.workloads());
            assertEquals(night == 1 ? 2 : 1, r.workloads().size(), "night " + night);
            Path export = a.warehouse.resolve(Tables.EXPORTS).resolve("metrics").resolve(LONGEST + ".json");
            assertTrue(Files.readString(export).contains("\"workload\" : \"" + LONGEST + "\""), "its export");
            assertTrue(spark.read()
                            .format("iceberg")
                            .load(a.table(Tables.METRICS))
                            .where(functions.col("workload").equalTo(LONGEST))
                            .count()
                    > 0);
            try (var left = Files.list(a.warehouse.resolve("_journal"))) {
                assertEquals(0, left.count(), "no journal left behind for the next run to trip on");
            } catch (java.nio.file.NoSuchFileException none) {
                // no journal folder at all: nothing left behind either
            }
            // the next night, a trace of the long-named workload changed
            Path trace = a.generatedTrace(LONGEST, 0, 2);
            Files.setLastModifiedTime(
                    trace,
                    java.nio.file.attribute.FileTime.fromMillis(
                            Files.getLastModifiedTime(trace).toMillis() + 60_000));
        }
    }
}
