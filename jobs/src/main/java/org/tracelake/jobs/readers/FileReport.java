package org.tracelake.jobs.readers;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.tracelake.schemas.TraceFileSchema;

/** What became of one input file: the {@code trace_files} row, filled in by the reader as it goes. */
public final class FileReport implements Serializable {
    public final FileTask task;
    public String format;
    public Integer rank;
    public String rankSource;
    public String contentHash;
    public long eventsRead;
    public final DropCounter drops = new DropCounter();
    public String status = TraceFileSchema.STATUS_OK;
    public String error;
    public String timeBase;
    public Long baseTimeNs;
    public Integer worldSize;
    public final Map<String, String> metadata = new LinkedHashMap<>();

    public FileReport(FileTask task) {
        this.task = task;
        this.format = task.format() == null ? null : task.format().id();
    }

    public static FileReport skipped(FileTask task, String reason) {
        FileReport r = new FileReport(task);
        r.status = TraceFileSchema.STATUS_SKIPPED;
        r.error = reason;
        return r;
    }

    /** True when the file could not be used at all; its workload keeps its previous tables. */
    public boolean fatal;

    public void fail(String message) {
        status = TraceFileSchema.STATUS_ERROR;
        error = message;
        fatal = true;
    }

    /**
     * A file read to its end whose bad events were dropped: it is reported as an error (someone should look),
     * but its good events are kept and its workload is refreshed.
     */
    public void flagDroppedEvents() {
        if (drops.total() == 0 || isError()) return;
        status = TraceFileSchema.STATUS_ERROR;
        StringBuilder why = new StringBuilder();
        drops.byReason().forEach((reason, n) -> why.append(why.length() == 0 ? "" : "; ").append(n).append(" × ").append(reason));
        error = "kept " + eventsRead + " events, dropped " + drops.total() + " bad ones: " + why
                + " (fix the producer, or ignore if these events do not matter)";
    }

    public boolean isError() {
        return TraceFileSchema.STATUS_ERROR.equals(status);
    }

    /** Rank as METRICS.md §1 orders the sources: content, then file name, then file order. */
    public void resolveRank(Integer fromContent, Integer fromFileName) {
        if (fromContent != null) {
            rank = fromContent;
            rankSource = TraceFileSchema.RANK_FROM_DISTRIBUTED_INFO;
        } else if (fromFileName != null) {
            rank = fromFileName;
            rankSource = TraceFileSchema.RANK_FROM_FILE_NAME;
        } else {
            rank = task.fileOrderRank();
            rankSource = TraceFileSchema.RANK_FROM_FILE_ORDER;
        }
    }

    public Row toRow() {
        return RowFactory.create(
                task.workload(), task.path(), format, rank, rankSource, task.sizeBytes(),
                new Timestamp(task.modifiedAtMs()), contentHash, eventsRead, drops.total(),
                drops.byReason().isEmpty() ? null : ScalaMaps.of(new LinkedHashMap<>(drops.byReason())),
                status, error, timeBase, baseTimeNs, worldSize,
                metadata.isEmpty() ? null : ScalaMaps.of(metadata), task.runId());
    }

    static {
        // Keep toRow() and the schema in step: a mismatch is a programming error, caught on first load.
        if (TraceFileSchema.SCHEMA.size() != 18) {
            throw new IllegalStateException("FileReport.toRow() is out of step with TraceFileSchema");
        }
    }
}
