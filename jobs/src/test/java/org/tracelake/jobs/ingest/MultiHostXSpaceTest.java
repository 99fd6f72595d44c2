package org.tracelake.jobs.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Two hosts' XSpace files in one workload, as JAX writes them (one file per host, named by the host, its eight
 * devices inside with local indexes 0–7): the real 8×MI300 file of ../shared/traces/xplane/jax-conv-8xmi300 under the
 * names worker0.xplane.pb and worker1.xplane.pb. The names' numbers are hosts, not ranks (issue 14 item 8), so both
 * files claim ranks 0–7: the workload fails with that message rather than mixing two hosts' devices on one rank.
 */
@RealTraces("xplane/jax-conv-8xmi300")
class MultiHostXSpaceTest {
    @TempDir
    Path tmp;

    @Test
    void twoHostsWithLocalDeviceIndexesClaimTheSameRanks() throws Exception {
        SparkSession spark = SharedSpark.get();
        Path real = TestArchive.shared("xplane/jax-conv-8xmi300/tw003.xplane.pb");
        byte[] bytes = java.nio.file.Files.readAllBytes(real);
        TestArchive archive = new TestArchive(tmp)
                .write("jax2", "worker0.xplane.pb", bytes)
                .write("jax2", "worker1.xplane.pb", bytes)
                .card("jax2", "training", "jax-conv", "AMD Instinct MI300X", 16);
        var result = archive.refresh(spark);
        assertFalse(result.allOk());
        List<Row> files = spark.read()
                .format("iceberg")
                .load(archive.table("trace_files"))
                .where("workload = 'jax2' AND format = 'xplane_pb'")
                .orderBy("path")
                .collectAsList();
        assertEquals(2, files.size());
        for (Row f : files) {
            assertEquals("error", f.getAs("status"));
            assertEquals(
                    "two files claim ranks [0, 1, 2, 3, 4, 5, 6, 7] (device): worker0.xplane.pb, worker1.xplane.pb; keep"
                            + " one file per rank in a workload (move repeated captures to their own workload)",
                    f.getAs("error"));
        }
    }
}
