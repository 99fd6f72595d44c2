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
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.tracelake.jobs.archive.ReaderTasks;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.MultiTableRows;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.et.KinetoLink;
import org.tracelake.jobs.source.ReportSink;
import org.tracelake.jobs.source.TraceSource;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;

/**
 * Ingests workloads into the run's staging area, all of them at once: their cards into {@code workloads} (filled from
 * a torchtitan TOML where the card lacks values), every other file into the table its reader writes — one Spark job per
 * table whose tasks are every file of every workload, largest first (events; memory_events + memory_segments;
 * iteration_telemetry; et_nodes — see {@link ReaderRegistry}), written partitioned by workload — then the
 * execution-trace link, and a row per file into {@code trace_files}. Tasks are grouped by the format decided for each
 * file on the driver ({@link ReaderTasks}); a file of no known format goes to the events job, which says what it is.
 * The number of Spark jobs does not grow with the number of workloads, and nothing becomes visible until the caller
 * swaps each workload in (one at a time, so each stays atomic).
 */
public final class IngestStaging {
    private static final Logger LOG = LogManager.getLogger(IngestStaging.class);

    /**
     * Tables an ingest stages for a workload; swapped in together. A table with nothing staged for a workload (no
     * file of its kind) ends with no partition for it: {@link Warehouse#swapIn} moves the old one aside and has
     * nothing to put in its place.
     */
    public static final List<String> TABLES = TableCatalog.perWorkload(TableCatalog.Stage.INGEST);

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;
    private final String runId;
    private final InputLimits limits;

    public IngestStaging(WarehouseTables tables, String runId, InputLimits limits) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
        this.runId = runId;
        this.limits = limits;
    }

    /** A workload between the driver's part (card, configs, planned files) and the executors' (its rows). */
    private record Planned(
            WorkloadFolder folder, WorkloadCards.Outcome card, List<FileReport> reports, boolean hasEt) {}

    public List<WorkloadIngest> ingest(List<WorkloadFolder> all) throws IOException {
        long start = System.currentTimeMillis();
        List<WorkloadIngest> unnameable = new ArrayList<>();
        List<WorkloadFolder> workloads = new ArrayList<>();
        for (WorkloadFolder w : all) {
            String why = PartitionNames.tooLong(w.name());
            if (why == null) workloads.add(w);
            else unnameable.add(unnameable(w, why));
        }
        Map<String, Planned> planned = new LinkedHashMap<>();
        Map<String, List<FileTask>> byTable = new LinkedHashMap<>();
        byTable.put(Tables.EVENTS, new ArrayList<>()); // always staged, so every workload has an events partition
        for (WorkloadFolder w : workloads) planned.put(w.name(), plan(w, byTable));

        // Execution traces first: the Kineto readers of the events read fill message sizes from their nodes
        // (EtSizes), so events is written once, already linked.
        List<String> order = new ArrayList<>(byTable.keySet());
        if (order.remove(Tables.ET_NODES)) order.add(0, Tables.ET_NODES);
        String etNodes = byTable.containsKey(Tables.ET_NODES) ? warehouse.stagedTable(runId, Tables.ET_NODES) : null;
        for (String table : order) {
            List<FileTask> tasks = byTable.get(table);
            if (tasks.isEmpty()) continue;
            for (FileReport r : readInto(table, tasks, table.equals(Tables.EVENTS) ? etNodes : null)) {
                planned.get(r.task.workload()).reports().add(r);
            }
        }
        tables.stageEmptyPartitions(runId, Tables.EVENTS, planned.keySet());

        List<WorkloadIngest> results = new ArrayList<>();
        List<Row> fileRows = new ArrayList<>();
        List<Row> cardRows = new ArrayList<>();
        for (Planned p : planned.values()) {
            WorkloadFolder w = p.folder();
            List<FileReport> reports = p.reports();
            if (p.hasEt()) LOG.debug("{}: {} kernels sized from execution traces", w.name(), KinetoLink.note(reports));
            reports.add(cardReport(w, p.card()));
            for (WorkloadFolder.Refused refused : w.refused()) reports.add(refusedReport(w, refused));
            DuplicateRanks.flag(reports);
            reports.sort(Comparator.comparing(r -> r.task.path()));
            for (FileReport r : reports) fileRows.add(r.toRow());
            cardRows.add(WorkloadCards.toRow(w.name(), p.card(), runId));
            long bytes = 0;
            long events = 0;
            for (FileReport r : reports) {
                bytes += r.task.sizeBytes();
                events += r.eventsRead;
            }
            results.add(
                    new WorkloadIngest(w.name(), p.card(), reports, bytes, events, System.currentTimeMillis() - start));
        }
        // a workload whose name cannot be a folder gets its row too, under a stand-in name that can (PartitionNames)
        for (WorkloadIngest u : unnameable) for (FileReport r : u.files()) fileRows.add(r.toRow());
        tables.stageSmall(runId, Tables.TRACE_FILES, fileRows);
        tables.stageSmall(runId, Tables.WORKLOADS, cardRows);
        results.addAll(unnameable);
        return results;
    }

    /**
     * A workload whose name cannot be a table folder (issue 29 item 3: one such folder made every night's run fail
     * with "Mkdirs failed"): nothing of it is read; it fails alone with its reason, which the run's errors, its
     * progress line, its summary and one trace_files row carry — the row under {@link PartitionNames#ledgerName}, a
     * stand-in that fits a folder, with the workload folder's own path.
     */
    private WorkloadIngest unnameable(WorkloadFolder w, String why) {
        FileReport r = new FileReport(new FileTask(
                PartitionNames.ledgerName(w.name()), w.path(), 0, 0, TraceFormat.WORKLOAD_CARD, 0, limits, runId));
        r.fail(why);
        WorkloadCards.Outcome card = new WorkloadCards.Outcome(null, w.path(), null, why);
        return new WorkloadIngest(w.name(), card, new ArrayList<>(List.of(r)), 0, 0, 0);
    }

    /**
     * The driver's part of a workload: its card, filled from torchtitan configs (a few KB, read here), and its other
     * files added to the read of the table their name suggests.
     */
    private Planned plan(WorkloadFolder w, Map<String, List<FileTask>> byTable) {
        WorkloadCards.Outcome card = WorkloadCards.read(w, warehouse.conf());
        List<FileTask> configs = new ArrayList<>();
        boolean hasEt = false;
        for (FileTask t : ReaderTasks.of(w.name(), w.files(), limits, runId, warehouse.conf())) {
            if (t.format() == TraceFormat.TORCHTITAN_TOML) {
                configs.add(t);
                continue;
            }
            ReaderRegistry.Entry entry = ReaderRegistry.entry(t.format());
            String table = entry == null ? Tables.EVENTS : entry.table();
            byTable.computeIfAbsent(table, k -> new ArrayList<>()).add(t);
            hasEt |= table.equals(Tables.ET_NODES);
        }
        WorkloadCards.Filled filled = WorkloadCards.fillFromTorchtitanConfigs(card, configs, warehouse.conf());
        return new Planned(w, filled.card(), new ArrayList<>(filled.reports()), hasEt);
    }

    /**
     * One Spark job: the files of one table, of every workload, read on executors through the {@code tracelake} data
     * source and written to that table's staging folder partitioned by workload (each output of a multi-table reader
     * to its own table, from envelopes cached once, so each file is parsed once). Each file's report comes back
     * through a {@link ReportSink} folder, once per file however often Spark ran its task. {@code etNodes}: the staged
     * et_nodes whose sizes the Kineto readers take (null: none).
     */
    private List<FileReport> readInto(String table, List<FileTask> tasks, String etNodes) throws IOException {
        List<ReaderRegistry.Output> outputs = ReaderRegistry.outputsOf(table);
        String reportsDir = warehouse.stagedAside(runId, "_reports/" + table);
        spark.sparkContext().setJobDescription("ingest: " + tasks.size() + " files into " + table);
        try {
            if (outputs.size() == 1) {
                // the events read also runs the per-rank metric pass over each file as it is read
                boolean rankPass =
                        table.equals(Tables.EVENTS) && Settings.of(spark).get(Settings.RANK_PASS_AT_INGEST);
                String summaries = rankPass ? warehouse.stagedAside(runId, RankSummaryFiles.FOLDER) : null;
                write(TraceSource.read(spark, tasks, table, false, reportsDir, etNodes, summaries), table);
            } else {
                Dataset<Row> envelopes = TraceSource.read(spark, tasks, table, true, reportsDir, etNodes, null)
                        .persist(StorageLevel.MEMORY_AND_DISK());
                try {
                    for (int i = 0; i < outputs.size(); i++) {
                        Dataset<Row> part = envelopes
                                .where(col(MultiTableRows.INDEX).equalTo(i))
                                .select(col(MultiTableRows.column(i) + ".*"));
                        write(part, outputs.get(i).table());
                    }
                } finally {
                    envelopes.unpersist();
                }
            }
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
        List<FileReport> reports = ReportSink.readAll(reportsDir, warehouse.conf());
        LOG.debug("{} file reports for {}", reports.size(), table);
        return reports;
    }

    private void write(Dataset<Row> rows, String table) {
        // events: the columns whose values are nearly all distinct gain nothing from a dictionary
        tables.stage(runId, table, rows, table.equals(Tables.EVENTS) ? EventSchema.NEAR_UNIQUE_COLUMNS : List.of());
    }

    private FileReport cardReport(WorkloadFolder w, WorkloadCards.Outcome card) {
        String path = card.cardPath() != null ? card.cardPath() : w.path();
        WorkloadFolder.InputFile file = w.cards().stream()
                .filter(c -> c.path().equals(path))
                .findFirst()
                .orElse(new WorkloadFolder.InputFile(path, 0, 0));
        FileReport r = new FileReport(new FileTask(
                w.name(), path, file.sizeBytes(), file.modifiedAtMs(), TraceFormat.WORKLOAD_CARD, 0, limits, runId));
        r.contentHash = card.cardHash();
        if (!card.ok()) r.fail(card.error());
        return r;
    }

    /**
     * An entry the archive scan never opened (a link out of the archive, a dangling link, a loop, a FIFO): a row of
     * its own, size and time 0. Skipped when it merely is not the workload's; an error, not fatal, when a rank may be
     * missing: the rest of the workload is read, and the run says someone should look.
     */
    private FileReport refusedReport(WorkloadFolder w, WorkloadFolder.Refused refused) {
        FileTask task = new FileTask(w.name(), refused.path(), 0, 0, null, 0, limits, runId);
        FileReport r = FileReport.skipped(task, refused.reason());
        if (refused.error()) r.status = TraceFileSchema.STATUS_ERROR;
        return r;
    }
}
