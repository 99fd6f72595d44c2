package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 39: a nightly refresh costs what changed. A workload whose folder lists as it did (every file's path, size and
 * modification time) is recognised from the tables' metadata alone — the listing digest its ledger rows carry, read
 * from the column's bounds in the manifests — so a refresh where nothing changed reads no ledger row, no workload row
 * and no metric history, and the removal guard finds the last run's archive in the runs table's metadata; the run's
 * own row goes to runs without a Spark job (the driver writes it): no job at all, with 2 workloads as with 10.
 * (Before, the whole {@code trace_files} ledger, the {@code workloads} table and the runs table were read: three jobs,
 * the first two reading every workload's files; then one, the Spark append of the run's row.)
 */
class UnchangedArchiveTest {
    @TempDir
    Path tmp;

    @Test
    void aRefreshWithNothingChangedReadsNoLedgerRows() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp).generated("w00", 2, 2, -1, 0).generated("w01", 2, 2, -1, 0);
        assertTrue(archive.refresh(spark).allOk());
        SparkJobCounts two = SparkJobCounts.during(
                spark, () -> assertEquals(0, archive.refresh(spark).workloads().size()));

        for (int i = 2; i < 10; i++) archive.generated(String.format(Locale.ROOT, "w%02d", i), 2, 2, -1, 0);
        assertEquals(8, archive.refresh(spark).workloads().size(), "the 8 new workloads, the 2 others unchanged");
        SparkJobCounts ten = SparkJobCounts.during(spark, () -> {
            Refresh.Result r = archive.refresh(spark);
            assertEquals(0, r.workloads().size());
            assertEquals(10, r.unchanged().size());
        });
        assertEquals(two.jobs, ten.jobs, "2 workloads " + two + ", 10 workloads " + ten);
        // none: the removal guard reads the last run's archive from the runs table's metadata, and the run's row is
        // written by the driver and committed with Iceberg's API
        assertEquals(0, ten.jobs, "a refresh with nothing changed: " + ten);
    }
}
