package org.tracelake.jobs.readers;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.readers.common.RowBuilder;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.RankFromFileName;

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
    /** The digest of the listing of the file's workload folder, set when the workload's rows are written. */
    public Long listingDigest;

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

    /**
     * For a file of ingest's events read: whether its rows were summarised per rank as they were read (null for any
     * other read), and the ranks summarised ({@code org.tracelake.jobs.rank.RankSummaryFiles}).
     */
    public Boolean ranksSummarised;

    public final TreeSet<Integer> summarisedRanks = new TreeSet<>();

    /** True when the file could not be used at all; its workload keeps its previous tables. */
    public boolean fatal;

    /**
     * A Kineto file's part in the execution-trace link ({@link org.tracelake.jobs.readers.et.EtSizes}), from which
     * the driver words the ET files' notes: communication kernels sized from an ET node, those left without a size,
     * and whether any CPU op carried a {@code Record function id}.
     */
    public long etLinkedKernels;

    public long unsizedCommKernels;
    public boolean recordFunctionIds;

    /**
     * For a file of several devices without a single rank ({@link org.tracelake.jobs.readers.common.DeviceRanks}):
     * the device indexes its rows carry as ranks. Empty otherwise.
     */
    public final TreeSet<Integer> deviceRanks = new TreeSet<>();

    /** The ranks this file's rows carry: its rank, or each of its devices' (an XSpace of devices 0–7: eight). */
    public SortedSet<Integer> ranksHeld() {
        if (rank != null) return new TreeSet<>(Set.of(rank));
        return Collections.unmodifiableSortedSet(deviceRanks);
    }

    public void fail(String message) {
        status = TraceFileSchema.STATUS_ERROR;
        error = message;
        fatal = true;
    }

    /** Metadata key set when the reader itself failed on the file (ReadErrors.readerBug): what to report, and where. */
    public static final String READER_BUG = "reader_bug";

    /**
     * Metadata keys tracelake writes with a meaning of its own. Readers that keep a file's top-level fields (Kineto,
     * XLA trace JSON) store a field of one of these names under {@link #fileKey}: a trace with {@code "reader_bug": 1}
     * at its top (found by fuzzing) must not pass for a reader failure, nor a {@code "ranks"} field for the ranks read.
     */
    private static final Set<String> OWN_KEYS = Set.of(
            READER_BUG,
            "step_count",
            "ranks",
            "rank_note",
            "rank_warning",
            "devices",
            "time_base_warning",
            "time_base_note",
            "et_link",
            "filled",
            "encoding",
            "lines",
            "entries");

    /** The metadata key for a file's own top-level field: its name, or "trace." + its name if tracelake uses it. */
    public static String fileKey(String field) {
        return OWN_KEYS.contains(field) ? "trace." + field : field;
    }

    /** The file could not be read because of what the reader threw: the reason in words, and a reader bug flagged. */
    public void fail(Throwable e) {
        fail(ReadErrors.describe(e));
        String bug = ReadErrors.readerBug(e);
        if (bug != null) metadata.put(READER_BUG, bug);
    }

    /**
     * A file read to its end whose bad events were dropped: it is reported as an error (someone should look),
     * but its good events are kept and its workload is refreshed.
     */
    public void flagDroppedEvents() {
        if (drops.total() == 0 || isError()) return;
        status = TraceFileSchema.STATUS_ERROR;
        StringBuilder why = new StringBuilder();
        drops.byReason().forEach((reason, n) -> why.append(why.length() == 0 ? "" : "; ")
                .append(n)
                .append(" × ")
                .append(reason));
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
            String oversized = RankFromFileName.oversizedRank(task.fileName());
            if (oversized != null) {
                flagRank("the file name says rank " + oversized + ", beyond the largest rank there can be (2147483647):"
                        + " ranked by file order (" + rank + ") instead; rename the file with its real rank");
            }
        }
    }

    /**
     * A rank the file claims but cannot have (issue 29 item 10): the file is read and kept, under the rank of the
     * next source, but reported as an error so the run says someone should look; not silently replaced.
     */
    public void flagRank(String message) {
        if (isError()) return;
        status = TraceFileSchema.STATUS_ERROR;
        error = message;
    }

    /** The {@code trace_files} row, in Spark's internal form, filled by column name. */
    public InternalRow toInternalRow() {
        return new RowBuilder(TraceFileSchema.SCHEMA)
                .set("workload", task.workload())
                .set("path", task.path())
                .set("format", format)
                .set("rank", rank)
                .set("rank_source", rankSource)
                .set("size_bytes", task.sizeBytes())
                .set("modified_at", new Timestamp(task.modifiedAtMs()))
                .set("content_hash", contentHash)
                .set("events_read", eventsRead)
                .set("events_dropped", drops.total())
                .set("drop_reasons", drops.byReason().isEmpty() ? null : drops.byReason())
                .set("status", status)
                .set("error", error)
                .set("time_base", timeBase)
                .set("base_time_ns", baseTimeNs)
                .set("world_size", worldSize)
                .set("metadata", metadata.isEmpty() ? null : metadata)
                .set("ingest_run_id", task.runId())
                .set("listing_digest", listingDigest)
                .build();
    }

    /** The same row as an external {@link Row}, for the driver's small {@code trace_files} writes. */
    public Row toRow() {
        return (Row) TO_ROW.apply(toInternalRow());
    }

    private static final scala.Function1<Object, Object> TO_ROW =
            CatalystTypeConverters.createToScalaConverter(TraceFileSchema.SCHEMA);
}
