package org.tracelake.jobs.readers.flightrecorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.memory.PickleGuard;
import org.tracelake.jobs.readers.memory.PlainUnpickler;
import org.tracelake.schemas.TraceFileSchema;

/**
 * Fuzz harness for the Flight Recorder reader: the 32 real dumps (and the JSON form of a few), mutated with a fixed
 * seed — truncated anywhere, bytes flipped, object-building opcodes written over plain ones, chunks of another dump
 * spliced in — each opened and drained through {@link org.tracelake.jobs.source.FileOpening}, as an executor does.
 * Whatever the bytes, nothing escapes as an exception, the file ends {@code ok} or {@code error} with a sentence,
 * rows carry the rank of the file name, and the unpickler is never asked for a class. A failing case prints its seed
 * and mutation so it can be replayed.
 */
class FlightRecorderFuzzTest {
    @TempDir
    Path tmp;

    static final long SEED = 0x15_f1_16_47L;
    static final int CASES = 600;
    /** Opcodes that import, call or construct: GLOBAL, REDUCE, BUILD, STACK_GLOBAL, NEWOBJ, INST, OBJ. */
    static final byte[] HOSTILE = {'c', 'R', 'b', (byte) 0x93, (byte) 0x81, 'i', 'o'};

    static List<byte[]> corpus() throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (String folder : List.of("nvrx-gpu-error-1st", "nvrx-lock-gil-1st")) {
            for (int r = 0; r < 16; r++) out.add(Files.readAllBytes(FlightRecorderReaderTest.dump(folder, r)));
        }
        ObjectMapper json = new ObjectMapper();
        for (int i = 0; i < 4; i++) {
            byte[] p = out.get(i * 5);
            PickleGuard.check(p, p.length, "seed", "an NCCL Flight Recorder dump");
            out.add(json.writeValueAsBytes(new PlainUnpickler().loadChecked(new ByteArrayInputStream(p))));
        }
        return out;
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void mutatedDumpsNeverEscapeAndNeverConstruct() throws IOException {
        List<byte[]> corpus = corpus();
        Random random = new Random(SEED);
        int ok = 0;
        int errors = 0;
        for (int c = 0; c < CASES; c++) {
            byte[] base = corpus.get(random.nextInt(corpus.size()));
            int kind = random.nextInt(5);
            byte[] mutated = mutate(base, kind, random, corpus);
            int rank = random.nextInt(64);
            Path file = tmp.resolve(c % 2 == 0 ? "_dump_" + rank : "nccl_trace_rank_" + rank);
            Files.write(file, mutated);
            String label = "case " + c + " (seed " + SEED + ", mutation " + kind + ", " + mutated.length + " bytes)";
            FlightRecorderReaderTest.Read read;
            try {
                read = FlightRecorderReaderTest.read(file);
            } catch (RuntimeException e) {
                throw new AssertionError(label + ": an exception escaped the reader", e);
            }
            String status = read.status();
            if (TraceFileSchema.STATUS_ERROR.equals(status)) {
                errors++;
                assertNotNull(read.error(), label);
                assertFalse(read.error().isBlank(), label);
            } else if (read.outcome().stream() != null) {
                ok++;
                assertEquals(TraceFileSchema.STATUS_OK, status, label);
                for (Row r : read.entries()) assertEquals(rank, r.getInt(r.fieldIndex("rank")), label);
                for (Row r : read.groups()) assertEquals(rank, r.getInt(r.fieldIndex("rank")), label);
            } else {
                // skipped: the mutation made it something no reader claims (e.g. the first bytes destroyed)
                assertEquals(TraceFileSchema.STATUS_SKIPPED, status, label);
            }
            assertFalse(FlightRecorderReaderTest.CONSTRUCTED.get(), label + ": the unpickler built an object");
            Files.delete(file);
        }
        // The harness exercises both outcomes, not only one of them.
        assertTrue(ok > CASES / 20, "ok: " + ok);
        assertTrue(errors > CASES / 5, "errors: " + errors);
    }

    static byte[] mutate(byte[] base, int kind, Random random, List<byte[]> corpus) {
        byte[] b = Arrays.copyOf(base, base.length);
        switch (kind) {
            case 0 -> { // truncated anywhere (also inside an opcode's argument)
                return Arrays.copyOf(b, random.nextInt(b.length));
            }
            case 1 -> { // a few random bytes
                int n = 1 + random.nextInt(4);
                for (int i = 0; i < n; i++) b[random.nextInt(b.length)] = (byte) random.nextInt(256);
                return b;
            }
            case 2 -> { // an object-building opcode over a plain one
                b[2 + random.nextInt(b.length - 2)] = HOSTILE[random.nextInt(HOSTILE.length)];
                return b;
            }
            case 3 -> { // a chunk of another dump spliced in
                byte[] other = corpus.get(random.nextInt(corpus.size()));
                int from = random.nextInt(other.length);
                int len = Math.min(other.length - from, 1 + random.nextInt(256));
                int at = random.nextInt(b.length);
                byte[] out = new byte[b.length + len];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(other, from, out, at, len);
                System.arraycopy(b, at, out, at + len, b.length - at);
                return out;
            }
            default -> { // a bit flipped in a length or a value: the same size, mostly still parseable
                int i = random.nextInt(b.length);
                b[i] ^= (byte) (1 << random.nextInt(8));
                return b;
            }
        }
    }
}
