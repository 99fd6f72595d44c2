package org.tracelake.jobs.ingest;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FileTasks;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TableRows;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.et.KinetoLink;
import org.tracelake.jobs.source.ReportSink;
import org.tracelake.jobs.source.TraceSource;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.schemas.WorkloadSchema;

/**
 * Ingests one workload into the run's staging area: its card into {@code workloads} (filled from a torchtitan
 * TOML where the card lacks values), every other file into the table its reader writes (read on executors, one task
 * per file, one Spark write job per table that has files: events, memory_events + memory_segments,
 * iteration_telemetry, et_nodes — see {@link ReaderRegistry}), then the execution-trace link, and a row per file
 * into {@code trace_files}. Tasks are grouped by the format their file NAME suggests; a file whose name says nothing
 * goes to the events job, which sniffs it and skips what it cannot read. Nothing becomes visible until the caller
 * swaps the workload in.
 */
public final class IngestJob {
    private static final Logger LOG = LogManager.getLogger(IngestJob.class);

    /**
     * Tables an ingest stages for a workload; swapped in together. A table with nothing staged for a workload (no
     * file of its kind) ends with no partition for it: {@link Warehouse#swapIn} moves the old one aside and has
     * nothing to put in its place.
     */
    public static final List<String> TABLES = List.of(Tables.EVENTS, Tables.MEMORY_EVENTS, Tables.MEMORY_SEGMENTS,
            Tables.ITERATION_TELEMETRY, Tables.ET_NODES, Tables.TRACE_FILES, Tables.WORKLOADS);

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

    public WorkloadIngest ingest(WorkloadFolder w) throws IOException {
        long start = System.currentTimeMillis();
        WorkloadCards.Outcome card = WorkloadCards.read(w, warehouse.conf());
        List<FileTask> tasks = FileTasks.of(w.name(), w.files(), limits, runId);

        // The driver reads torchtitan configs (a few KB) to fill the card; every other file goes to a write job.
        List<FileTask> configs = new ArrayList<>();
        Map<String, List<FileTask>> byTable = new LinkedHashMap<>();
        byTable.put(Tables.EVENTS, new ArrayList<>()); // always staged, so every workload has an events partition
        for (FileTask t : tasks) {
            if (t.format() == TraceFormat.TORCHTITAN_TOML) {
                configs.add(t);
                continue;
            }
            ReaderRegistry.Entry entry = ReaderRegistry.entry(t.format());
            byTable.computeIfAbsent(entry == null ? Tables.EVENTS : entry.table(), k -> new ArrayList<>()).add(t);
        }
        WorkloadCards.Filled filled = WorkloadCards.fillFromTorchtitanConfigs(card, configs, warehouse.conf());
        card = filled.card();

        List<FileReport> reports = new ArrayList<>(filled.reports());
        for (Map.Entry<String, List<FileTask>> group : byTable.entrySet()) {
            reports.addAll(readInto(w, group.getKey(), group.getValue()));
        }
        if (!byTable.getOrDefault(Tables.ET_NODES, List.of()).isEmpty()) linkExecutionTraces(w, reports);
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


    /**
     * One Spark job: the files of one table read on executors through the {@code tracelake} data source and written to
     * that table's staged partition (each output of a multi-table reader to its own table, from envelopes cached
     * once, so each file is parsed once). Each file's report comes back through a {@link ReportSink} folder, once
     * per file however often Spark ran its task.
     */
    private List<FileReport> readInto(WorkloadFolder w, String table, List<FileTask> tasks) throws IOException {
        List<ReaderRegistry.Output> outputs = ReaderRegistry.outputsOf(table);
        String reportsDir = warehouse.root() + "/_staging/" + runId + "/_reports/" + table + "/" + Warehouse.partitionDir(w.name());
        spark.sparkContext().setJobDescription("ingest " + w.name() + ": " + tasks.size() + " files into " + table);
        try {
            if (outputs.size() == 1) {
                write(TraceSource.read(spark, tasks, table, false, reportsDir), table, w.name());
            } else {
                Dataset<Row> envelopes = TraceSource.read(spark, tasks, table, true, reportsDir)
                        .persist(StorageLevel.MEMORY_AND_DISK());
                try {
                    for (int i = 0; i < outputs.size(); i++) {
                        Dataset<Row> part = envelopes.where(col(TableRows.INDEX).equalTo(i))
                                .select(col(TableRows.column(i) + ".*"));
                        write(part, outputs.get(i).table(), w.name());
                    }
                } finally {
                    envelopes.unpersist();
                }
            }
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
        List<FileReport> reports = ReportSink.readAll(reportsDir, warehouse.conf());
        LOG.debug("{}: {} file reports for {}", w.name(), reports.size(), table);
        return reports;
    }

    private void write(Dataset<Row> rows, String table, String workload) {
        DataFrameWriter<Row> writer = rows.drop(Tables.PARTITION_COLUMN).write().mode(SaveMode.Overwrite);
        if (table.equals(Tables.EVENTS)) {
            // parquet-hadoop's per-column setting ("key#column"), handed to the writer through the write's options
            for (String c : EventSchema.NEAR_UNIQUE_COLUMNS) writer = writer.option("parquet.enable.dictionary#" + c, "false");
        }
        writer.parquet(warehouse.stagingPartition(runId, table, workload));
    }

    /** Fills message sizes of Kineto comm kernels from the workload's execution traces (see {@link KinetoLink}). */
    private void linkExecutionTraces(WorkloadFolder w, List<FileReport> reports) {
        try {
            long n = KinetoLink.link(spark, warehouse.fs(), warehouse.stagingPartition(runId, Tables.EVENTS, w.name()),
                    warehouse.stagingPartition(runId, Tables.ET_NODES, w.name()), reports);
            LOG.debug("{}: {} kernels sized from execution traces", w.name(), n);
        } catch (IOException | RuntimeException e) {
            String why = "not linked: the link step failed (" + e.getMessage() + "); events kept as read";
            for (FileReport r : reports) {
                if (TraceFormat.PYTORCH_ET.id().equals(r.format)) r.metadata.put(KinetoLink.METADATA_KEY, why);
            }
            LOG.warn("{}: {}", w.name(), why);
        }
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
