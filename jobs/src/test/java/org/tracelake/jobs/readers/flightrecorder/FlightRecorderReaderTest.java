package org.tracelake.jobs.readers.flightrecorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import net.razorvine.pickle.Unpickler;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.MultiTableRows;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.memory.PickleGuard;
import org.tracelake.jobs.readers.memory.PlainUnpickler;
import org.tracelake.jobs.source.FileOpening;
import org.tracelake.jobs.testing.InternalRows;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.schemas.TraceFileSchema;

/**
 * The Flight Recorder reader on its own (no Spark job): detection by name and content, hostile and truncated dumps
 * refused with a sentence, the JSON form read as the pickle is. Files go through {@link FileOpening}, the executor's
 * entry point, so detection and the registry are part of what is tested.
 */
class FlightRecorderReaderTest {
    @TempDir
    Path tmp;

    /** A callable the unpickler would build if it were ever asked for GLOBAL tracelake_test.fr_boom. */
    static final AtomicBoolean CONSTRUCTED = new AtomicBoolean();

    static {
        Unpickler.registerConstructor("tracelake_test", "fr_boom", args -> {
            CONSTRUCTED.set(true);
            return "constructed";
        });
    }

    static Path dump(String folder, int rank) {
        return TestArchive.shared("flight-recorder/" + folder + "/_dump_" + rank);
    }

    static FileTask task(Path file) throws IOException {
        return new FileTask(
                "w",
                file.toAbsolutePath().toUri().toString(),
                Files.size(file),
                0,
                null,
                0,
                InputLimits.defaults(),
                "test-run");
    }

    /** The file opened as ingest opens it, then drained: the envelopes and the report. */
    record Read(List<Row> entries, List<Row> groups, FileOpening.Outcome outcome) {
        String status() {
            return outcome.stream() != null ? outcome.stream().report().status : outcome.report().status;
        }

        String error() {
            return outcome.stream() != null ? outcome.stream().report().error : outcome.report().error;
        }
    }

    static Read read(Path file) throws IOException {
        FileOpening.Outcome o = FileOpening.open(task(file), new Configuration(), null);
        List<Row> entries = new ArrayList<>();
        List<Row> groups = new ArrayList<>();
        if (o.stream() != null) {
            try (var s = o.stream()) {
                for (Row env : InternalRows.drain(
                        s,
                        MultiTableRows.schema(ReaderRegistry.entry(TraceFormat.FLIGHT_RECORDER)
                                .outputs()))) {
                    if (env.getInt(0) == FlightRecorderReader.ENTRIES) entries.add(env.getStruct(1));
                    else groups.add(env.getStruct(2));
                }
            }
        }
        return new Read(entries, groups, o);
    }

    static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            else out.write((Integer) p);
        }
        return out.toByteArray();
    }

    @Test
    void namesAndContent() throws IOException {
        for (String n : List.of(
                "_dump_0",
                "_dump_15",
                "nccl_trace_rank_3",
                "job-nccl_trace_rank_3.pkl",
                "rank_7",
                "rank_7.json",
                "_dump_2.gz")) {
            assertEquals(TraceFormat.FLIGHT_RECORDER, FormatDetector.byName(n), n);
        }
        for (String n :
                List.of("rank_00_metrics.jsonl", "rank3_trace.json", "rank_3_trace.json", "memory.pickle", "dump")) {
            assertFalse(FormatDetector.byName(n) == TraceFormat.FLIGHT_RECORDER, n);
        }
        byte[] head = Files.readAllBytes(dump("nvrx-gpu-error-1st", 0));
        assertEquals(TraceFormat.FLIGHT_RECORDER, FormatDetector.byContent(Arrays.copyOf(head, 4096)));
        // A dump under a memory-snapshot name is still read as what it is.
        assertEquals(TraceFormat.FLIGHT_RECORDER, FormatDetector.resolve("snapshot.pickle", Arrays.copyOf(head, 4096)));
    }

    @Test
    void realDumpRows() throws IOException {
        // python3: d = pickle.load(open('_dump_12', 'rb')); len(d['entries']) = 27, len(d['pg_config']) = 13,
        // len(d['pg_status']) = 13, and every pg_status id is named by some entry of this rank except those whose
        // group has no entry here; entry 0 is record_id 90083.
        Read r = read(dump("nvrx-gpu-error-1st", 12));
        assertEquals(TraceFileSchema.STATUS_OK, r.status(), r.error());
        assertEquals(27, r.entries().size());
        assertEquals(12, r.entries().get(0).getInt(r.entries().get(0).fieldIndex("rank")));
        assertEquals(
                List.of(0L, 26L),
                List.of(r.entries().get(0).getLong(3), r.entries().get(26).getLong(3)));
        assertEquals(90109L, r.entries().get(26).getLong(r.entries().get(26).fieldIndex("record_id")));
        long statusRows = r.groups().stream()
                .filter(g -> !g.isNullAt(g.fieldIndex("last_enqueued_collective")))
                .count();
        assertEquals(13, statusRows);
        long named = r.groups().stream()
                .filter(g -> !g.isNullAt(g.fieldIndex("pg_name")))
                .map(g -> g.getString(g.fieldIndex("pg_name")))
                .distinct()
                .count();
        assertEquals(13, named); // every pg_config group appears once, linked or not
    }

    @Test
    void globalOpcodeIsRefusedAndNothingBuilt() throws IOException {
        // {'version': '2.9', 'pg_config': tracelake_test.fr_boom()} as protocol 2: PROTO 2, EMPTY_DICT, MARK,
        // BINUNICODE 'version', BINUNICODE '2.9', BINUNICODE 'pg_config', GLOBAL, EMPTY_TUPLE, REDUCE, SETITEMS, STOP;
        // GLOBAL at byte 2 + 1 + 1 + (1 + 4 + 7) + (1 + 4 + 3) + (1 + 4 + 9) = 38.
        byte[] hostile = bytes(
                0x80,
                2,
                "}(",
                "X",
                7,
                0,
                0,
                0,
                "version",
                "X",
                3,
                0,
                0,
                0,
                "2.9",
                "X",
                9,
                0,
                0,
                0,
                "pg_config",
                "ctracelake_test\nfr_boom\n)Ru.");
        Path f = tmp.resolve("_dump_3");
        Files.write(f, hostile);
        assertEquals(TraceFormat.FLIGHT_RECORDER, FormatDetector.byContent(hostile));
        Read r = read(f);
        assertNull(r.outcome().stream());
        assertEquals(TraceFileSchema.STATUS_ERROR, r.status());
        assertTrue(r.error().contains("refused pickle: opcode GLOBAL at byte 38"), r.error());
        assertTrue(r.error().contains("an NCCL Flight Recorder dump holds plain data only"), r.error());
        assertTrue(r.error().contains("nothing in this file was unpickled"), r.error());
        assertFalse(CONSTRUCTED.get());
        assertTrue(r.entries().isEmpty() && r.groups().isEmpty());
    }

    @Test
    void truncatedDumpIsReported() throws IOException {
        byte[] whole = Files.readAllBytes(dump("nvrx-gpu-error-1st", 12));
        Path f = tmp.resolve("_dump_12");
        Files.write(f, Arrays.copyOf(whole, whole.length / 2));
        Read r = read(f);
        assertEquals(TraceFileSchema.STATUS_ERROR, r.status());
        assertTrue(r.error().startsWith("truncated pickle"), r.error());
        assertTrue(r.entries().isEmpty() && r.groups().isEmpty());
    }

    @Test
    void rankWithoutEntriesKeepsItsStatus() throws IOException {
        // python3: lock-gil _dump_14 has entries [] and 13 pg_status ids, pg_status['5'] = 88683 / -1 / 88683.
        Read r = read(dump("nvrx-lock-gil-1st", 14));
        assertEquals(TraceFileSchema.STATUS_OK, r.status(), r.error());
        assertEquals(0, r.entries().size());
        Row five = r.groups().stream()
                .filter(g -> !g.isNullAt(g.fieldIndex("pg_id")) && g.getLong(g.fieldIndex("pg_id")) == 5L)
                .findFirst()
                .orElseThrow();
        assertEquals(14, five.getInt(five.fieldIndex("rank")));
        assertEquals(88683L, five.getLong(five.fieldIndex("last_enqueued_collective")));
        assertEquals(-1L, five.getLong(five.fieldIndex("last_started_collective")));
        assertEquals(88683L, five.getLong(five.fieldIndex("last_completed_collective")));
        assertTrue(five.isNullAt(five.fieldIndex("pg_name"))); // no entry of this rank says which group id 5 is
    }

    @Test
    void jsonFormReadsAsThePickle() throws IOException {
        byte[] pickle = Files.readAllBytes(dump("nvrx-gpu-error-1st", 13));
        PickleGuard.check(pickle, pickle.length, "_dump_13", "an NCCL Flight Recorder dump");
        Object graph = new PlainUnpickler().loadChecked(new ByteArrayInputStream(pickle));
        Path json = tmp.resolve("nccl_trace_rank_13.json");
        Files.write(
                json, new ObjectMapper().writeValueAsBytes(graph)); // tuples become lists, as in PyTorch's JSON dump
        Read fromPickle = read(dump("nvrx-gpu-error-1st", 13));
        Read fromJson = read(json);
        assertEquals(TraceFileSchema.STATUS_OK, fromJson.status(), fromJson.error());
        assertEquals(withoutSource(fromPickle.entries()), withoutSource(fromJson.entries()));
        assertEquals(withoutSource(fromPickle.groups()), withoutSource(fromJson.groups()));
        assertFalse(fromJson.entries().isEmpty());
    }

    private static List<String> withoutSource(List<Row> rows) {
        List<String> out = new ArrayList<>();
        for (Row r : rows) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length(); i++)
                if (!r.schema().fields()[i].name().equals("source_file"))
                    sb.append(r.get(i)).append('|');
            out.add(sb.toString());
        }
        assertNotNull(out);
        return out;
    }
}
