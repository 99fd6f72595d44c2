package org.tracelake.jobs.ingest;

import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.rank.FileRankPass;
import org.tracelake.jobs.rank.RankParts;
import org.tracelake.jobs.rank.RankSummaryFiles;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.MultiTableRows;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.common.BlockRowStream;
import org.tracelake.jobs.source.FileOpening;
import org.tracelake.jobs.source.ReportSink;
import org.tracelake.jobs.warehouse.BlockFile;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.jobs.warehouse.RowFile;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;
import org.tracelake.schemas.Tables;

/**
 * One task of the ingest stage's Spark job, on an executor (how the stage's four classes divide it: the package's
 * doc). Ingest's work on an executor, one input file per call: read the file and write each of its rows straight into its
 * table's staged partition for the file's workload, one Parquet file per input file and table ({@link RowFile}), and
 * return what became of the file (its {@code trace_files} report). The rows go from the reader to parquet-hadoop's
 * column writers with nothing between: no Spark plan, no projection into another row, no sort, and every table of
 * every format in the same Spark job (a multi-table reader's rows are dealt to their tables as they come). A reader
 * that makes its events a block of columns at a time (the Kineto reader: {@link BlockRowStream}) has them written
 * column by column instead ({@link BlockFile}), no row ever made. The events of a file also pass through the
 * per-rank metric pass ({@link FileRankPass}) on their way, when the run asks for it.
 *
 * <p>Each input file's output files are named by a digest of its path, so a task Spark runs twice writes the same
 * names and the first whole file stays; its report comes back as the task's result, which Spark takes from one
 * attempt. A file's problems end up in its report, never as a failed task.
 */
final class FileIngest implements Function<FileIngest.Job, FileReport> {
    private static final Logger LOG = LogManager.getLogger(FileIngest.class);

    /** One file and the reader group it was routed to on the driver (the table named by its reader's first output). */
    record Job(FileTask task, String table) implements Serializable {}

    private final PartitionFiles staging;
    private final RowFile.Settings events;
    private final RowFile.Settings others;
    /** Where the per-rank pass leaves each file's summaries, or null when the run does not summarise at ingest. */
    private final String rankSummariesDir;
    /** The metric families' per-rank parts that pass runs (the metrics layer's list, handed down). */
    private final RankParts rankParts;

    /**
     * @param staging  the run's staging area
     * @param settings the staged tables' encoding (their codec: Spark's {@code spark.sql.parquet.compression.codec})
     */
    FileIngest(PartitionFiles staging, RowFile.Settings settings, String rankSummariesDir, RankParts rankParts) {
        this.staging = staging;
        this.events = RowFile.Settings.forEvents(settings.codec());
        this.others = RowFile.Settings.of(settings.codec());
        this.rankSummariesDir = rankSummariesDir;
        this.rankParts = rankParts;
    }

    @Override
    public FileReport call(Job job) throws IOException {
        FileTask task = job.task();
        Configuration conf = staging.conf();
        FileOpening.Outcome opened = FileOpening.open(task, conf, job.table());
        FileReport report = opened.report();
        if (report == null) report = write(job, opened.stream(), conf);
        if (report.isError()) LOG.warn("{}: {}", task.path(), report.error);
        return report;
    }

    private FileReport write(Job job, EventStream stream, Configuration conf) throws IOException {
        if (stream instanceof BlockRowStream blocks && job.table().equals(Tables.EVENTS)) {
            return writeBlocks(job, blocks, conf);
        }
        FileTask task = job.task();
        List<ReaderRegistry.Output> outputs = ReaderRegistry.outputsOf(job.table());
        boolean envelopes = outputs.size() > 1;
        String fileKey = ReportSink.fileKey(task.path());
        FileRankPass rankPass = rankSummariesDir != null && job.table().equals(Tables.EVENTS)
                ? new FileRankPass(RankSummaryFiles.maxEventsPerFile(), rankParts)
                : null;
        RowFile[] files = new RowFile[outputs.size()];
        FileReport report;
        try (stream) {
            while (stream.hasNext()) {
                InternalRow row = stream.next();
                int output = 0;
                if (envelopes) { // MultiTableRows: (index, t0, t1, ...) with only t<index> set
                    output = MultiTableRows.index(row);
                    row = MultiTableRows.unwrap(
                            row, outputs.get(output).schema().size());
                }
                if (rankPass != null) rankPass.accept(row);
                if (files[output] == null)
                    files[output] = open(outputs.get(output).table(), task, fileKey);
                files[output].write(row);
            }
            report = stream.report();
            for (RowFile f : files) if (f != null) f.commit();
        } finally {
            for (RowFile f : files) if (f != null) f.close(); // those not committed are dropped
        }
        if (rankPass != null) {
            RankSummaryFiles.write(rankSummariesDir, fileKey, report, task.workload(), rankPass, conf);
        }
        return report;
    }

    /**
     * The events of a reader that makes them a block of columns at a time: each block goes to the per-rank pass and,
     * column by column, to the file ({@link BlockFile}); no row is made.
     */
    private FileReport writeBlocks(Job job, BlockRowStream stream, Configuration conf) throws IOException {
        FileTask task = job.task();
        String fileKey = ReportSink.fileKey(task.path());
        FileRankPass rankPass =
                rankSummariesDir != null ? new FileRankPass(RankSummaryFiles.maxEventsPerFile(), rankParts) : null;
        BlockFile file = null;
        FileReport report;
        try (stream) {
            ColumnBlock block;
            while ((block = stream.nextBlock()) != null) {
                if (rankPass != null) rankPass.accept(block);
                if (file == null)
                    file = staging.openBlocks(Tables.EVENTS, task.workload(), fileName(fileKey, events), events);
                file.write(block);
            }
            report = stream.report();
            if (file != null) file.commit();
        } finally {
            if (file != null) file.close(); // not committed: dropped
        }
        if (rankPass != null) {
            RankSummaryFiles.write(rankSummariesDir, fileKey, report, task.workload(), rankPass, conf);
        }
        return report;
    }

    private static String fileName(String fileKey, RowFile.Settings settings) {
        return "part-" + fileKey + settings.codec().getExtension() + ".parquet";
    }

    private RowFile open(String table, FileTask task, String fileKey) throws IOException {
        RowFile.Settings settings = table.equals(Tables.EVENTS) ? events : others;
        return staging.open(table, task.workload(), fileName(fileKey, settings), settings);
    }
}
