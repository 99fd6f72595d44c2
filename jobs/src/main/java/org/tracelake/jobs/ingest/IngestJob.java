package org.tracelake.jobs.ingest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.CollectionAccumulator;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.schemas.WorkloadSchema;

/**
 * Ingests one workload into the run's staging area: its card into {@code workloads}, every file into
 * {@code events} (read on executors, one task per file) and a row per file into {@code trace_files}.
 * Nothing becomes visible until the caller swaps the workload in.
 */
public final class IngestJob {
    private static final Logger LOG = LogManager.getLogger(IngestJob.class);

    /** Tables an ingest stages for a workload; swapped in together. */
    public static final List<String> TABLES = List.of(Tables.EVENTS, Tables.TRACE_FILES, Tables.WORKLOADS);

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final String runId;
    private final InputLimits limits;

    public IngestJob(SparkSession spark, Warehouse warehouse, String runId, InputLimits limits) {
        this.spark = spark;
        this.warehouse = warehouse;
        this.runId = runId;
        this.limits = limits;
    }

    public WorkloadIngest ingest(WorkloadFolder w) {
        long start = System.currentTimeMillis();
        WorkloadCards.Outcome card = WorkloadCards.read(w, warehouse.conf());
        List<FileTask> tasks = tasksFor(w);
        List<FileReport> reports = readEvents(w, tasks);
        reports.add(cardReport(w, card));
        DuplicateRanks.flag(reports);
        reports.sort(Comparator.comparing(r -> r.task.path()));

        writeStaged(Tables.TRACE_FILES, w.name(), rows(reports), TraceFileSchema.SCHEMA);
        writeStaged(Tables.WORKLOADS, w.name(), List.of(WorkloadCards.toRow(w.name(), card, runId)), WorkloadSchema.SCHEMA);
        long bytes = 0;
        long events = 0;
        for (FileReport r : reports) {
            bytes += r.task.sizeBytes();
            events += r.eventsRead;
        }
        return new WorkloadIngest(w.name(), card, reports, bytes, events, System.currentTimeMillis() - start);
    }

    /** One task per file; the rank of last resort is the file's position among the workload's files of its kind. */
    private List<FileTask> tasksFor(WorkloadFolder w) {
        Map<TraceFormat, Integer> positions = new HashMap<>();
        List<FileTask> tasks = new ArrayList<>();
        for (WorkloadFolder.InputFile f : w.files()) {
            TraceFormat named = FormatDetector.byName(f.fileName());
            int position = positions.merge(named == null ? TraceFormat.KINETO : named, 1, Integer::sum) - 1;
            tasks.add(new FileTask(w.name(), f.path(), f.sizeBytes(), f.modifiedAtMs(), named, position, limits, runId));
        }
        return tasks;
    }

    private List<FileReport> readEvents(WorkloadFolder w, List<FileTask> tasks) {
        String target = warehouse.stagingPartition(runId, Tables.EVENTS, w.name());
        if (tasks.isEmpty()) return new ArrayList<>();
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        CollectionAccumulator<FileReport> acc = spark.sparkContext().collectionAccumulator("trace files of " + w.name());
        JavaRDD<Row> rows = jsc.parallelize(tasks, tasks.size())
                .flatMap(new ReadEventFiles(new SerializableConf(warehouse.conf()), acc));
        spark.sparkContext().setJobDescription("ingest " + w.name() + ": " + tasks.size() + " files");
        spark.createDataFrame(rows, EventSchema.SCHEMA)
                .drop(EventSchema.WORKLOAD)
                .write().mode(SaveMode.Overwrite).parquet(target);
        spark.sparkContext().setJobDescription(null);
        List<FileReport> reports = new ArrayList<>(acc.value());
        LOG.debug("{}: {} file reports", w.name(), reports.size());
        return reports;
    }

    private FileReport cardReport(WorkloadFolder w, WorkloadCards.Outcome card) {
        String path = card.cardPath() != null ? card.cardPath() : w.path();
        WorkloadFolder.InputFile file = w.cards().stream().filter(c -> c.path().equals(path)).findFirst()
                .orElse(new WorkloadFolder.InputFile(path, 0, 0));
        FileReport r = new FileReport(new FileTask(w.name(), path, file.sizeBytes(), file.modifiedAtMs(),
                TraceFormat.WORKLOAD_CARD, 0, limits, runId));
        r.contentHash = card.cardHash();
        if (!card.ok()) r.fail(card.error());
        return r;
    }

    private static List<Row> rows(List<FileReport> reports) {
        List<Row> rows = new ArrayList<>(reports.size());
        for (FileReport r : reports) rows.add(r.toRow());
        return rows;
    }

    private void writeStaged(String table, String workload, List<Row> rows, StructType schema) {
        spark.createDataFrame(rows, schema).drop(Tables.PARTITION_COLUMN).coalesce(1)
                .write().mode(SaveMode.Overwrite).parquet(warehouse.stagingPartition(runId, table, workload));
    }
}
