package org.tracelake.jobs.rank;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;

/**
 * The per-rank pass run while ingest reads a file, over the {@code events} rows the reader produces: it keeps the
 * file's events per rank ({@link RankEvent}, strings held once), then sorts each rank's events as the metrics phase's
 * Spark sort would ({@link RankEvent#ORDER}) and accumulates its {@link RankSummary}. A file's rows are in memory
 * here anyway, one at a time, on their way to Parquet; summarising them now spares the metrics phase reading two
 * million events back, shuffling and sorting them (most of its cost on a large archive). A file with more events
 * than {@code maxEvents} is not summarised (its memory would be the executor's), and its workload's metrics read
 * the events table instead.
 */
public final class FileRankPass {
    private final long maxEvents;
    private final RankParts parts;
    private final StringTable strings = new StringTable();
    private final BlockEvents blockEvents = new BlockEvents();
    private final Map<Integer, List<RankEvent>> byRank = new TreeMap<>();
    private long held;
    private boolean overflowed;

    public FileRankPass(long maxEvents, RankParts parts) {
        this.maxEvents = maxEvents;
        this.parts = parts;
    }

    /** The file's next row of the events table (in {@link org.tracelake.schemas.EventSchema#SCHEMA}). */
    public void accept(InternalRow event) {
        if (overflowed || !RankEvent.isInput(event)) return;
        if (++held > maxEvents) {
            overflowed = true;
            byRank.clear();
            return;
        }
        byRank.computeIfAbsent(RankEvent.rankOf(event), k -> new ArrayList<>()).add(RankEvent.of(event, strings));
    }

    /** The rows of a reader's block of {@code events} columns, as {@link #accept(InternalRow)} takes each. */
    public void accept(ColumnBlock block) {
        for (int row = 0; row < block.size() && !overflowed; row++) {
            if (!BlockEvents.isInput(block, row)) continue;
            if (++held > maxEvents) {
                overflowed = true;
                byRank.clear();
                return;
            }
            byRank.computeIfAbsent(BlockEvents.rankOf(block, row), k -> new ArrayList<>())
                    .add(blockEvents.of(block, row));
        }
    }

    /** False when the file had too many events to summarise here. */
    public boolean complete() {
        return !overflowed;
    }

    /** The summary of each rank the file's events carry, by rank; the events are let go as each rank is done. */
    public List<RankSummary> finish() {
        List<RankSummary> out = new ArrayList<>(byRank.size());
        for (Map.Entry<Integer, List<RankEvent>> rank : byRank.entrySet()) {
            List<RankEvent> events = rank.getValue();
            events.sort(RankEvent.ORDER);
            RankAccumulator acc = new RankAccumulator(rank.getKey(), parts);
            for (RankEvent e : events) acc.accept(e);
            rank.setValue(List.of());
            out.add(acc.finish());
        }
        return out;
    }
}
