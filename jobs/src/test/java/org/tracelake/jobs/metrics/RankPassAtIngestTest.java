package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The per-rank pass runs as ingest reads each file ({@code spark.tracelake.metrics.rankPassAtIngest}, the default)
 * or in the metrics phase over the events read back and sorted by Spark; both must give the same tables, row for
 * row. One archive of every events format (the bundled Kineto workloads, a generated 3-rank run with a straggler, an
 * older-NCCL real trace, an Nsight export, rocprof, XLA traces and an XSpace) is refreshed both ways.
 */
@RealTraces({
    "nsys/perlmutter-cloverleaf-cuda.sqlite",
    "rocprofv3/aorta-mi350",
    "xplane/jax-conv-8xmi300",
    "kineto/hta-sampled-2rank"
})
class RankPassAtIngestTest {
    @TempDir
    static Path tmp;

    static SparkSession spark;
    static TestArchive archive;
    static Refresh.Result atIngest;
    static Path fromEvents;

    static final List<String> WORKLOADS = List.of(
            "dlrm-ddp-v100x4-legacy",
            "llama3-8b-fsdp-h100x4",
            "gen3",
            "hta2",
            "clover",
            "aorta",
            "xplane",
            "tpu",
            "tpu_async");

    @BeforeAll
    static void refreshBothWays() throws IOException, URISyntaxException {
        spark = SharedSpark.get();
        archive = new TestArchive(tmp.resolve("a"));
        for (String bundled : List.of("dlrm-ddp-v100x4-legacy", "llama3-8b-fsdp-h100x4")) {
            TestFiles.copyTree(
                    SampleWarehouse.projectHome().resolve("data").resolve(bundled), archive.workload(bundled));
        }
        archive.generated("gen3", 3, 4, 2, 300);
        archive.copyShared("hta2", "kineto/hta-sampled-2rank").card("hta2", "training", "unknown", "NVIDIA A100", 128);
        archive.copyShared("clover", "nsys/perlmutter-cloverleaf-cuda.sqlite")
                .card("clover", "simulation", "cloverleaf", "NVIDIA A100", 4);
        archive.copyShared("aorta", "rocprofv3/aorta-mi350")
                .card("aorta", "training", "aorta", "AMD Instinct MI350X", 8);
        archive.copyShared("xplane", "xplane/jax-conv-8xmi300")
                .card("xplane", "training", "jax-conv", "AMD Instinct MI300X", 8);
        archive.write("tpu", "tpu-v6e-4chip.trace.json", FormatMetricsTest.resource("/xla/tpu-v6e-4chip.trace.json"))
                .write("tpu", "tpu.yaml", FormatMetricsTest.tpuCard("training", 124_000_000L, 4));
        archive.write(
                        "tpu_async",
                        "tpu-async-2chip.trace.json",
                        FormatMetricsTest.resource("/metrics/tpu-async-2chip.trace.json"))
                .write("tpu_async", "tpu_async.yaml", FormatMetricsTest.tpuCard("inference", 2_000_000_000L, 2));

        atIngest = archive.refresh(spark);
        assertTrue(atIngest.allOk(), () -> "refresh: " + atIngest.workloads());
        fromEvents = tmp.resolve("from-events");
        spark.conf().set(Settings.RANK_PASS_AT_INGEST.name(), "false");
        try {
            Warehouse wh =
                    new Warehouse(fromEvents.toString(), spark.sparkContext().hadoopConfiguration());
            Refresh.Result r = new Refresh(new WarehouseTables(spark, wh), RunIds.newId(), InputLimits.defaults())
                    .run(archive.archive.toString(), Set.of(), false);
            assertTrue(r.allOk(), () -> "refresh from events: " + r.workloads());
        } finally {
            spark.conf().unset(Settings.RANK_PASS_AT_INGEST.name());
        }
    }

    @Test
    void everyWorkloadWasSummarisedAtIngest() {
        assertEquals(WORKLOADS.size(), atIngest.workloads().size());
        for (WorkloadIngest w : atIngest.workloads()) {
            assertTrue(RankSummaryFiles.cover(w.files()), w.workload() + ": " + w.files());
            assertTrue(
                    w.files().stream()
                            .anyMatch(f -> Boolean.TRUE.equals(f.ranksSummarised) && !f.summarisedRanks.isEmpty()),
                    w.workload() + " has no summarised file");
        }
    }

    @Test
    void bothWaysGiveTheSameTables() {
        for (String table :
                List.of("metrics", "collectives", "collective_members", "all_to_all_pairs", "kernel_totals")) {
            boolean inA = Files.isDirectory(archive.warehouse.resolve(table));
            assertEquals(inA, Files.isDirectory(fromEvents.resolve(table)), table + " written one way only");
            if (!inA) continue; // no workload has rows of it (all_to_all_pairs here)
            Dataset<Row> a = read(archive.warehouse, table);
            Dataset<Row> b = read(fromEvents, table);
            long rows = a.count();
            assertTrue(rows > 0 || !table.equals("metrics"), table + " is empty");
            assertEquals(rows, b.count(), table + ": row count");
            assertEquals(0, a.exceptAll(b).count(), table + ": rows only when summarised at ingest");
            assertEquals(0, b.exceptAll(a).count(), table + ": rows only when computed from events");
        }
        long collectives = read(archive.warehouse, "collectives").count();
        assertTrue(collectives > 0, "no collective instance: the comparison would say little");
    }

    @Test
    void aFileOverTheEventCapIsNotSummarisedAndItsWorkloadReadsItsEvents() {
        FileReport notSummarised =
                new FileReport(atIngest.workloads().get(0).files().get(0).task);
        notSummarised.ranksSummarised = false;
        assertTrue(!RankSummaryFiles.cover(List.of(notSummarised)));
        FileReport a = new FileReport(notSummarised.task);
        a.ranksSummarised = true;
        a.summarisedRanks.add(0);
        FileReport b = new FileReport(notSummarised.task);
        b.ranksSummarised = true;
        b.summarisedRanks.add(0);
        assertTrue(!RankSummaryFiles.cover(List.of(a, b)), "two files of rank 0 meet only in a sort of the events");
        assertTrue(RankSummaryFiles.cover(List.of(a)));
    }

    /**
     * Issue 46: no metric row of this warehouse (data/'s two Kineto runs, a generated run, and the real hta, Nsight,
     * rocprofv3 and XSpace traces, the hand-written TPU ones) holds an impossible value: fractions outside [0, 1],
     * spans longer than the traces' clock range, GPU time above that range times the GPU timelines
     * (MetricRows.assertNoImpossibleValues). Link bandwidths are checked against each card's device.
     */
    @Test
    void noImpossibleValue() {
        MetricRows.load(spark, archive.table("metrics"))
                .assertNoImpossibleValues(java.util.Map.of(
                        "dlrm-ddp-v100x4-legacy", "NVIDIA V100",
                        "llama3-8b-fsdp-h100x4", "NVIDIA H100",
                        "hta2", "NVIDIA A100",
                        "clover", "NVIDIA A100",
                        "aorta", "AMD Instinct MI350X",
                        "xplane", "AMD Instinct MI300X"));
    }

    /**
     * Issue 46 (TraceLens issue 669): the rocprofv3 AORTA trace has dispatches whose end runs past the start of the
     * next dispatch on their stream. python3 over 908_results.json.gz, per (agent, stream_id) sorted by
     * start_timestamp: 1,275 dispatches end after the next one starts (never one inside the other), by 195,321 ns in
     * all (at most 568 ns): each is clipped there, so stream_overrun_ms = 0.195321 over 1,275 activities. No union
     * moves (the clipped part is the next dispatch's), so every overlap figure of FormatMetricsTest stays.
     */
    @Test
    void rocprofDispatchesRunningPastTheNextOnTheirStreamAreClipped() {
        MetricRows m = MetricRows.load(spark, archive.table("metrics"));
        m.workload(0.195321, "aorta", "stream_overrun_ms", null);
        m.workload(1_275, "aorta", "stream_overrun_ms", "activities");
    }

    private static Dataset<Row> read(Path warehouse, String table) {
        try {
            Dataset<Row> d =
                    spark.read().format("iceberg").load(warehouse.resolve(table).toString());
            return List.of(d.columns()).contains("computed_at") ? d.drop("computed_at") : d;
        } catch (RuntimeException e) {
            throw new UncheckedIOException(new IOException(table + " under " + warehouse, e));
        }
    }
}
