package org.tracelake.jobs.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.catalyst.InternalRow;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.common.RowStream;
import org.tracelake.jobs.readers.kineto.KinetoReader;
import org.tracelake.jobs.testing.ReaderTestSupport;
import org.tracelake.jobs.testing.SharedTraces;
import org.tracelake.jobs.warehouse.columnar.ColumnBlock;

/**
 * The per-rank pass reads a reader's blocks of columns ({@link BlockEvents}, what ingest hands it) into the same
 * events it reads out of the rows those blocks make ({@link RankEvent#of(InternalRow, StringTable)}, what the pass
 * read before): field for field, every event with a duration, on every real Kineto trace of ../shared and data/'s.
 */
class BlockEventsTest {
    @Test
    void blocksAndRowsGiveTheSameEvents() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(SharedTraces.path("kineto"))) {
            all.filter(p -> p.toString().endsWith(".json.gz")).sorted().forEach(files::add);
        }
        try (Stream<Path> all = Files.walk(Path.of("..", "data"))) {
            all.filter(p -> p.toString().endsWith(".pt.trace.json.gz")
                            || p.getFileName().toString().matches("rank\\d+_trace\\.json\\.gz"))
                    .sorted()
                    .forEach(files::add);
        }
        assertEquals(20, files.size(), "12 Kineto traces of ../shared/traces, 8 of data/");
        long events = 0;
        for (Path f : files) events += assertSameEvents(f);
        assertTrue(events > 10_000, "events compared: " + events);
    }

    private static long assertSameEvents(Path file) throws IOException {
        FileTask task = ReaderTestSupport.task(file, TraceFormat.KINETO);
        List<String> fromRows = new ArrayList<>();
        StringTable strings = new StringTable();
        try (EventStream rows = new KinetoReader().open(task, new Configuration())) {
            while (rows.hasNext()) {
                InternalRow r = rows.next();
                if (RankEvent.isInput(r)) fromRows.add(RankEvent.rankOf(r) + " " + fields(RankEvent.of(r, strings)));
            }
        }
        List<String> fromBlocks = new ArrayList<>();
        BlockEvents blocks = new BlockEvents();
        try (EventStream stream = new KinetoReader().open(task, new Configuration())) {
            ColumnBlock b;
            while ((b = ((RowStream) stream).nextBlock()) != null) {
                for (int i = 0; i < b.size(); i++) {
                    if (BlockEvents.isInput(b, i))
                        fromBlocks.add(BlockEvents.rankOf(b, i) + " " + fields(blocks.of(b, i)));
                }
            }
        }
        assertEquals(fromRows.size(), fromBlocks.size(), file.toString());
        for (int i = 0; i < fromRows.size(); i++)
            assertEquals(fromRows.get(i), fromBlocks.get(i), file + " event " + i);
        return fromRows.size();
    }

    /** Every field of the event, by name. */
    private static String fields(RankEvent e) {
        StringBuilder out = new StringBuilder();
        for (Field f : RankEvent.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            try {
                out.append(f.getName()).append('=').append(f.get(e)).append(' ');
            } catch (IllegalAccessException impossible) {
                throw new AssertionError(impossible);
            }
        }
        return out.toString();
    }
}
