package org.tracelake.jobs.rank;

import static org.apache.spark.sql.functions.col;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.warehouse.PartitionFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * The rank summaries ingest computes as it reads each file ({@link FileRankPass}), left in the run's staging area as
 * one small Parquet file per input file (rows of {@link #SCHEMA}, named by the input's path, so a retried task
 * replaces its own file), and read by the metrics phase in place of the workload's events. Each file's report
 * says whether it was summarised and which ranks it summarised; a workload's summaries stand for its events only when
 * every file of its events read was summarised and no two files summarised one rank (two files of one rank meet
 * only in a sort of the events table: the metrics phase reads that workload's events instead).
 */
public final class RankSummaryFiles {
    /** Files more events than this (with a duration) are not summarised at ingest: ~200 bytes of heap each. */
    public static final long MAX_EVENTS_PER_FILE = 3_000_000;

    /**
     * Heap a held event takes: its RankEvent, the boxed numbers in it and its list slot (a class histogram of the
     * 5.24 GB generated trace's ingest: 2.57 M events held 349 MB of RankEvent and 106 MB of Long).
     */
    static final long BYTES_PER_EVENT = 200;

    /**
     * The share of the heap one file's pass may hold. The reader's one-pass buffer may take another quarter
     * ({@code KinetoReader.HEAP_SHARE}), and a file too big for that buffer is read twice with an index of its
     * launches and collectives that grows with the file: with 3 M events held beside it a 5 GB trace did not fit a
     * 1 GB heap.
     */
    static final double HEAP_SHARE = 0.2;

    /** The most events a file may have to be summarised at ingest with this JVM's heap: see {@link #HEAP_SHARE}. */
    public static long maxEventsPerFile() {
        long byHeap = (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE) / BYTES_PER_EVENT;
        return Math.min(MAX_EVENTS_PER_FILE, byHeap);
    }

    private RankSummaryFiles() {}

    /**
     * A summary file's rows, as the metrics phase's workload step takes its inputs: the workload, the kind of input
     * ({@link #KIND}) and the {@link RankSummary} serialised ({@link Blobs}).
     */
    public static final StructType SCHEMA = new StructType()
            .add("workload", DataTypes.StringType, false)
            .add("kind", DataTypes.StringType, false)
            .add("blob", DataTypes.BinaryType, false);

    /** The kind of input a rank summary is to the workload step. */
    public static final String KIND = "rank";

    /** One rank's summary as a row of {@link #SCHEMA}. */
    public static Row row(String workload, RankSummary summary) {
        return RowFactory.create(workload, KIND, Blobs.write(summary));
    }

    /** The folder of a run's staging area that holds its summaries ({@link Warehouse#stagedAside}). */
    public static final String FOLDER = "_rank_summaries";

    /**
     * Writes the summaries of one input file's ranks and records them in its report; a file the pass could not
     * summarise is recorded as such, and its workload's metrics read its events.
     */
    public static void write(
            String dir, String fileName, FileReport report, String workload, FileRankPass pass, Configuration conf)
            throws IOException {
        report.ranksSummarised = false;
        if (!pass.complete()) return;
        List<Row> rows = new ArrayList<>();
        List<Integer> ranks = new ArrayList<>();
        for (RankSummary s : pass.finish()) {
            rows.add(row(workload, s));
            ranks.add(s.rank);
        }
        if (!rows.isEmpty()) {
            PartitionFiles.writeFile(new Path(dir, fileName + ".parquet"), SCHEMA, null, rows, conf);
        }
        report.summarisedRanks.addAll(ranks);
        report.ranksSummarised = true;
    }

    /**
     * True when a workload's summaries stand for all its events: each file of its events read was summarised, and no
     * rank was summarised from two files.
     */
    public static boolean cover(List<FileReport> reports) {
        Set<Integer> ranks = new HashSet<>();
        for (FileReport r : reports) {
            if (r.ranksSummarised == null) continue; // not a file of the events read
            if (!r.ranksSummarised) return false;
            for (Integer rank : r.summarisedRanks) if (!ranks.add(rank)) return false;
        }
        return true;
    }

    /** The summaries of some workloads, as workload-step inputs; null when the run left none. */
    public static Dataset<Row> read(WarehouseTables tables, String runId, List<String> workloads) {
        Dataset<Row> all = tables.stagedAside(runId, FOLDER, SCHEMA);
        return all == null ? null : all.where(col("workload").isin(workloads.toArray()));
    }
}
