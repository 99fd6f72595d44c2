package org.tracelake.jobs.ingest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.ReaderTasks;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.rank.RankParts;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.et.EtSizes;
import org.tracelake.jobs.readers.et.KinetoLink;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.jobs.warehouse.RowFile;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;

/**
 * The ingest stage's Spark job, planned on the driver (how the stage's four classes divide it: the package's doc).
 * Ingests workloads into the run's staging area, all of them at once: their cards into {@code workloads} (filled from
 * a torchtitan TOML where the card lacks values), every other file into the tables its reader writes (events;
 * memory_events + memory_segments; iteration_telemetry; flight_recorder + process_group_status; et_nodes — see
 * {@link ReaderRegistry}) — one Spark job whose tasks are every file of every workload, each writing its own rows into
 * its workload's staged partitions ({@link FileIngest}), preceded by a job for the execution traces when there are any
 * (the Kineto readers take message sizes from them) — then a row per file into {@code trace_files}, written on the
 * driver. The reader of each file is the one of the format decided for it on the driver ({@link ReaderTasks}); a file
 * of no known format goes with the events files, whose read says what it is. The number of Spark jobs does not grow
 * with the number of workloads or tables, and nothing becomes visible until the caller swaps each workload in (one at
 * a time, so each stays atomic).
 */
public final class IngestStaging {
    private static final Logger LOG = LogManager.getLogger(IngestStaging.class);

    /**
     * Tables an ingest stages for a workload; swapped in together. A table with nothing staged for a workload (no
     * file of its kind) ends with no partition for it: the run's commit replaces the old one and has
     * nothing to put in its place.
     */
    public static final List<String> TABLES = TableCatalog.perWorkload(TableCatalog.Stage.INGEST);

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;
    private final String runId;
    private final InputLimits limits;
    private final RankParts rankParts;

    /** {@code rankParts}: the metric families' per-rank parts, for the pass ingest runs as it reads (Families). */
    public IngestStaging(WarehouseTables tables, String runId, InputLimits limits, RankParts rankParts) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
        this.runId = runId;
        this.limits = limits;
        this.rankParts = rankParts;
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
        Map<String, List<FileIngest.Job>> byTable = new LinkedHashMap<>();
        for (WorkloadFolder w : workloads) planned.put(w.name(), plan(w, byTable));

        // Execution traces first: the Kineto readers of the events read fill message sizes from their nodes
        // (EtSizes), so events are written once, already linked.
        List<FileIngest.Job> etFiles = byTable.getOrDefault(Tables.ET_NODES, List.of());
        List<FileIngest.Job> others = new ArrayList<>();
        for (Map.Entry<String, List<FileIngest.Job>> t : byTable.entrySet()) {
            if (!t.getKey().equals(Tables.ET_NODES)) others.addAll(t.getValue());
        }
        String etNodes = etFiles.isEmpty() ? null : warehouse.stagedTable(runId, Tables.ET_NODES);
        for (FileReport r : read(etFiles, null))
            planned.get(r.task.workload()).reports().add(r);
        for (FileReport r : read(others, etNodes))
            planned.get(r.task.workload()).reports().add(r);
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
            Long digest = listingDigest(w, reports);
            for (FileReport r : reports) {
                r.listingDigest = digest;
                fileRows.add(r.toRow());
            }
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
     * The folder's listing digest its ledger rows carry, or null while a file of it is unusable: such a workload is
     * compared file by file, and retried, every run (ChangePlan).
     */
    private static Long listingDigest(WorkloadFolder w, List<FileReport> reports) {
        for (FileReport r : reports) if (TraceFileSchema.unusable(r.status, r.eventsRead)) return null;
        return w.listingDigest();
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
    private Planned plan(WorkloadFolder w, Map<String, List<FileIngest.Job>> byTable) {
        WorkloadCards.Outcome card = WorkloadCards.read(w, warehouse.conf());
        List<FileTask> configs = new ArrayList<>();
        boolean hasEt = false;
        for (FileTask t : ReaderTasks.of(w, limits, runId, warehouse.conf())) {
            if (t.format() == TraceFormat.TORCHTITAN_TOML) {
                configs.add(t);
                continue;
            }
            ReaderRegistry.Entry entry = ReaderRegistry.entry(t.format());
            String table = entry == null ? Tables.EVENTS : entry.table();
            byTable.computeIfAbsent(table, k -> new ArrayList<>()).add(new FileIngest.Job(t, table));
            hasEt |= table.equals(Tables.ET_NODES);
        }
        WorkloadCards.Filled filled = WorkloadCards.fillFromTorchtitanConfigs(card, configs, warehouse.conf());
        return new Planned(w, filled.card(), new ArrayList<>(filled.reports()), hasEt);
    }

    /**
     * One Spark job: the given files, of every workload and table, one task each, largest first (so that a big file
     * does not start last and hold up the job while the other cores idle), each written into the staged tables from
     * its task ({@link FileIngest}); their reports come back as the job's result. {@code etNodes}: the staged et_nodes
     * whose sizes the Kineto readers take (null: none).
     */
    private List<FileReport> read(List<FileIngest.Job> jobs, String etNodes) {
        if (jobs.isEmpty()) return List.of();
        List<FileIngest.Job> ordered = new ArrayList<>(jobs);
        ordered.sort(Comparator.comparingLong((FileIngest.Job j) -> j.task().sizeBytes())
                .reversed()
                .thenComparing(j -> j.task().path()));
        Configuration conf = warehouse.conf();
        if (etNodes != null) {
            conf = new Configuration(conf);
            conf.set(EtSizes.ET_NODES, etNodes);
        }
        boolean rankPass = Settings.of(spark).get(Settings.RANK_PASS_AT_INGEST);
        String summaries = rankPass ? warehouse.stagedAside(runId, RankSummaryFiles.FOLDER) : null;
        // the codec Spark would write with (spark.sql.parquet.compression.codec: conf/spark-defaults.conf says zstd)
        RowFile.Settings encoding = RowFile.Settings.of(
                RowFile.Settings.codecNamed(spark.sessionState().conf().parquetCompressionCodec()));
        FileIngest ingest =
                new FileIngest(PartitionFiles.forRun(warehouse, runId).withConf(conf), encoding, summaries, rankParts);
        Set<String> tableNames = new TreeSet<>();
        for (FileIngest.Job j : ordered) tableNames.add(j.table());
        spark.sparkContext()
                .setJobDescription("ingest: " + ordered.size() + " files into " + String.join(", ", tableNames));
        try {
            List<FileReport> reports = JavaSparkContext.fromSparkContext(spark.sparkContext())
                    .parallelize(ordered, ordered.size())
                    .map(ingest)
                    .collect();
            LOG.debug("{} file reports for {}", reports.size(), tableNames);
            return new ArrayList<>(reports);
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
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
