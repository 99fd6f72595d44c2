package org.tracelake.jobs.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.sql.SqlStatementSplitter;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;

/**
 * The {@code tracelake} data source as a Spark user meets it: a plain SparkSession (no tracelake job, no warehouse),
 * {@code spark.read.format("tracelake")} over the sample archive's DLRM folder (four gzipped Kineto traces and the
 * workload card, data/dlrm-ddp-v100x4-legacy).
 */
class TraceDataSourceTest {
    private static final Path DLRM = SampleWarehouse.projectHome().resolve("data/dlrm-ddp-v100x4-legacy");

    private final SparkSession spark = SharedSpark.get();

    @Test
    void aFolderReadsAsTheEventsTable() {
        Dataset<Row> events = spark.read().format("tracelake").load(DLRM.toString());
        assertEquals(EventSchema.SCHEMA, events.schema());
        events.createOrReplaceTempView("ds_events");
        List<Row> perRank = spark.sql("SELECT workload, rank, format, count(*) AS n, "
                        + "count_if(activity_class = 'comm') AS comm FROM ds_events GROUP BY ALL ORDER BY rank")
                .collectAsList();
        assertEquals(4, perRank.size(), "one rank per worker file");
        for (int r = 0; r < 4; r++) {
            Row row = perRank.get(r);
            assertEquals("dlrm-ddp-v100x4-legacy", row.getString(0), "workload: the folder's name");
            assertEquals(r, row.getInt(1));
            assertEquals("kineto", row.getString(2));
            assertTrue(row.getLong(3) > 0 && row.getLong(4) > 0, "events and NCCL kernels on rank " + r);
        }

        // The same files as trace_files: one row per file, the card skipped with its reason, events counted alike.
        Dataset<Row> files =
                spark.read().format("tracelake").option("table", "trace_files").load(DLRM.toString());
        assertEquals(TraceFileSchema.SCHEMA, files.schema());
        Map<String, Row> byName = new HashMap<>();
        for (Row f : files.collectAsList())
            byName.put(Path.of(f.getString(f.fieldIndex("path"))).getFileName().toString(), f);
        assertEquals(5, byName.size());
        Row card = byName.get("dlrm-ddp-v100x4-legacy.yaml");
        assertEquals("skipped", card.getString(card.fieldIndex("status")));
        long read = 0;
        for (Map.Entry<String, Row> e : byName.entrySet()) {
            if (e.getKey().endsWith(".yaml")) continue;
            assertEquals("ok", e.getValue().getString(e.getValue().fieldIndex("status")), e.getKey());
            read += e.getValue().getLong(e.getValue().fieldIndex("events_read"));
        }
        assertEquals(events.count(), read);
    }

    /** The spark-sql lines of docs/SQL.md ("Raw traces in your own Spark session") run as written. */
    @Test
    void theDocumentedSparkSqlWorks() throws IOException {
        String doc = Files.readString(SampleWarehouse.projectHome().resolve("docs/SQL.md"));
        Matcher block =
                Pattern.compile("```sql source\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertTrue(block.find(), "docs/SQL.md has a sql source block");
        String archive = SampleWarehouse.projectHome().resolve("data").toString();
        Dataset<Row> last = null;
        for (String statement : SqlStatementSplitter.split(block.group(1).replace("/archive", archive)))
            last = spark.sql(statement);
        List<Row> rows = last.collectAsList();
        assertEquals(
                4, rows.stream().map(r -> r.getInt(0)).distinct().count(), "comm kernels on all four ranks: " + rows);
        assertEquals(5, spark.sql("SELECT count(*) FROM raw_files").first().getLong(0));
    }

    @Test
    void aWritePartitionedByWorkloadNeedsNoSort(@TempDir Path out) throws Exception {
        // each partition is one file of one workload: the source says its rows are sorted by workload, so neither a
        // sort by workload nor the write partitioned by it (ingest's) adds a sort of every row
        Dataset<Row> events = spark.read().format("tracelake").load(DLRM.toString());
        String plan = events.sortWithinPartitions("workload")
                .queryExecution()
                .executedPlan()
                .toString();
        assertFalse(plan.contains("Sort ["), plan);
        java.util.concurrent.atomic.AtomicReference<String> written =
                new java.util.concurrent.atomic.AtomicReference<>();
        org.apache.spark.sql.util.QueryExecutionListener listener =
                new org.apache.spark.sql.util.QueryExecutionListener() {
                    @Override
                    public void onSuccess(
                            String funcName, org.apache.spark.sql.execution.QueryExecution qe, long durationNs) {
                        written.set(qe.executedPlan().toString());
                    }

                    @Override
                    public void onFailure(
                            String funcName, org.apache.spark.sql.execution.QueryExecution qe, Exception e) {}
                };
        spark.listenerManager().register(listener);
        try {
            events.write().partitionBy("workload").parquet(out.resolve("events").toString());
            spark.sparkContext().listenerBus().waitUntilEmpty();
        } finally {
            spark.listenerManager().unregister(listener);
        }
        assertTrue(
                written.get() != null && written.get().contains("InsertIntoHadoopFsRelation"),
                String.valueOf(written.get()));
        assertFalse(written.get().contains("Sort ["), written.get());
        assertEquals(
                events.count(),
                spark.read().parquet(out.resolve("events").toString()).count());
    }

    @Test
    void globsAndTheWorkloadOption() {
        Dataset<Row> two = spark.read()
                .format("tracelake")
                .option("workload", "mine")
                .load(DLRM.resolve("worker[01]_*.json.gz").toString());
        List<Row> ranks =
                two.groupBy("workload", "rank").count().orderBy("rank").collectAsList();
        assertEquals(2, ranks.size());
        assertEquals("mine", ranks.get(0).getString(0));
        assertEquals(List.of(0, 1), List.of(ranks.get(0).getInt(1), ranks.get(1).getInt(1)));
    }

    @Test
    void aBrokenFileLosesOnlyItself(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("rank0_trace.json");
        Files.writeString(
                good,
                "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", "
                        + "\"pid\": 0, \"tid\": 7, \"ts\": 1000, \"dur\": 5}], \"baseTimeNanoseconds\": 1700000000000000000}");
        Path cut = dir.resolve("rank1_trace.json");
        Files.writeString(cut, "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ge");
        assertEquals(1, spark.read().format("tracelake").load(dir.toString()).count());
        Row broken = spark.read()
                .format("tracelake")
                .option("table", "trace_files")
                .load(cut.toString())
                .first();
        assertEquals("error", broken.getString(broken.fieldIndex("status")));
        assertTrue(
                broken.getString(broken.fieldIndex("error")).startsWith("truncated JSON"),
                broken.getString(broken.fieldIndex("error")));
    }
}
