package org.tracelake.jobs.readers.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.InputRefusedException;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * The opcode walker in front of the unpickler: hostile pickles are refused before anything is built. The byte
 * strings are what CPython writes (checked with python3: {@code pickle.dumps(len, 2)} gives
 * {@code b'\x80\x02c__builtin__\nlen\nq\x00.'}, {@code pickle.dumps(len, 4)} ends in STACK_GLOBAL, and
 * {@code pickle.dumps(collections.OrderedDict(), 2)} is GLOBAL, EMPTY_TUPLE, REDUCE).
 */
class PickleGuardTest {
    @TempDir
    Path tmp;

    /** A callable the unpickler would build if it ever got to see GLOBAL tracelake_test.boom. */
    static final AtomicBoolean CONSTRUCTED = new AtomicBoolean();

    static {
        Unpickler.registerConstructor("tracelake_test", "boom", args -> {
            CONSTRUCTED.set(true);
            return "constructed";
        });
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            if (p instanceof String s) out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            else if (p instanceof Character c) out.write(c);
            else out.write((Integer) p);
        }
        return out.toByteArray();
    }

    private static String refusal(byte[] pickle) {
        return assertThrows(InputRefusedException.class, () -> PickleGuard.check(pickle, pickle.length, "x.pickle"))
                .getMessage();
    }

    @Test
    void globalIsRefused() {
        // pickle.dumps(len, 2): PROTO 2, GLOBAL '__builtin__ len', BINPUT 0, STOP
        String why = refusal(bytes(0x80, 2, "c__builtin__\nlen\n", 'q', 0, "."));
        assertTrue(why.contains("GLOBAL at byte 2"), why);
        assertTrue(why.contains("nothing in this file was unpickled"), why);
    }

    @Test
    void reduceIsRefused() {
        // PROTO 4, EMPTY_LIST, EMPTY_TUPLE, REDUCE, STOP: REDUCE is the first refused opcode, at byte 4.
        String why = refusal(bytes(0x80, 4, "])R."));
        assertTrue(why.contains("REDUCE at byte 4"), why);
        // pickle.dumps(collections.OrderedDict(), 2): GLOBAL comes first and is refused there.
        assertTrue(refusal(bytes(0x80, 2, "ccollections\nOrderedDict\n", 'q', 0, ")R", 'q', 1, "."))
                .contains("GLOBAL at byte 2"));
    }

    @Test
    void everyConstructingOpcodeIsRefused() {
        Map<String, byte[]> cases = Map.of(
                "STACK_GLOBAL", bytes(0x80, 4, 0x8c, 1, "a", 0x8c, 1, "b", 0x93, "."),
                "BUILD", bytes(0x80, 4, "}}b."),
                "INST", bytes(0x80, 2, "(imod\nname\n."),
                "OBJ", bytes(0x80, 2, "(o."),
                "NEWOBJ", bytes(0x80, 2, "])", 0x81, "."),
                "NEWOBJ_EX", bytes(0x80, 4, "])}", 0x92, "."),
                "EXT1", bytes(0x80, 2, 0x82, 1, "."),
                "EXT2", bytes(0x80, 2, 0x83, 1, 0, "."),
                "EXT4", bytes(0x80, 2, 0x84, 1, 0, 0, 0, "."),
                "BINPERSID", bytes(0x80, 2, "NQ."));
        cases.forEach((name, pickle) -> assertTrue(refusal(pickle).contains("opcode " + name + " at byte"), name));
        assertTrue(refusal(bytes(0x80, 2, "Pid\n.")).contains("PERSID"));
    }

    @Test
    void plainDataPassesAndLoads() throws Exception {
        // {'segments': [], 'n': 300, 'big': 2**40, 'f': False} as CPython protocol 4 writes it (no FRAME for brevity).
        byte[] pickle = bytes(
                0x80,
                4,
                "}",
                0x94,
                "(",
                0x8c,
                8,
                "segments",
                0x94,
                "]",
                0x94,
                0x8c,
                1,
                "n",
                0x94,
                'M',
                0x2c,
                0x01,
                0x8c,
                3,
                "big",
                0x94,
                0x8a,
                6,
                0,
                0,
                0,
                0,
                0,
                1,
                0x8c,
                1,
                "f",
                0x94,
                0x89,
                "u.");
        assertEquals(19, PickleGuard.check(pickle, pickle.length, "x.pickle")); // 19 opcodes up to and including STOP
        Object root = new PlainUnpickler().loadChecked(new ByteArrayInputStream(pickle));
        Map<?, ?> m = (Map<?, ?>) root;
        assertEquals(List.of(), m.get("segments"));
        assertEquals(300L, org.tracelake.udfs.Numbers.wholeNumber(m.get("n")));
        assertEquals(1L << 40, org.tracelake.udfs.Numbers.wholeNumber(m.get("big")));
        assertEquals(Boolean.FALSE, m.get("f"));
    }

    @Test
    void truncatedAndForeignStreamsAreRefused() {
        assertTrue(refusal(bytes(0x80, 4, 0x8c, 8, "segm")).contains("truncated pickle"));
        assertTrue(refusal(bytes(0x80, 4, "}")).contains("without STOP"));
        assertTrue(refusal(bytes("(dp0\n.")).contains("not a pickle of protocol 2-5"));
        assertTrue(refusal(bytes(0x80, 2, "I42\n.")).contains("INT"));
        assertTrue(refusal(bytes(0x80, 4, 0xf0, ".")).contains("unknown opcode 0xf0"));
    }

    @Test
    void aPickleThatPopsWhatItNeverPushedIsDamagedNotABug() throws Exception {
        // Found by fuzzing (ReaderFuzzTestInputs/telemetryJsonl/crash-13cf…): PROTO 2, STOP on an empty stack, then
        // junk. The guard passes it (every opcode is plain), razorvine fails with an index error inside its stack.
        byte[] pickle = bytes(0x80, 2, ".", 0, 0, 0, 0xfb, '"');
        assertEquals(2, PickleGuard.check(pickle, pickle.length, "x.pickle"));
        PickleException e = assertThrows(
                PickleException.class, () -> new PlainUnpickler().loadChecked(new ByteArrayInputStream(pickle)));
        assertEquals(
                "a damaged pickle: the opcode before byte 3 does not fit the values before it"
                        + " (IndexOutOfBoundsException)",
                e.getMessage());
        // a dict's SETITEM on a list: razorvine casts
        byte[] setitemOnList = bytes(0x80, 2, "]", 0x4b, 1, 0x4b, 2, "s.");
        assertTrue(assertThrows(PickleException.class, () -> new PlainUnpickler()
                        .loadChecked(new ByteArrayInputStream(setitemOnList)))
                .getMessage()
                .startsWith("a damaged pickle: the opcode before byte 8"));
        // APPEND to a None (ReaderFuzzTestInputs/flightRecorderPickle/crash-9036…): razorvine dereferences it
        byte[] appendToNone = bytes(0x80, 2, "N", 0x4b, 1, "a.");
        assertEquals(
                "a damaged pickle: the opcode before byte 6 does not fit the values before it"
                        + " (NullPointerException)",
                assertThrows(PickleException.class, () -> new PlainUnpickler()
                                .loadChecked(new ByteArrayInputStream(appendToNone)))
                        .getMessage());
        // d = {}; d["a"] = d; d[d] = None (ReaderFuzzTestInputs/flightRecorderPickle/crash-a3bf…): hashing the key
        // d recurses through d["a"] forever; Python's own unpickler says "unhashable type: 'dict'"
        byte[] selfKey = bytes(0x80, 2, "}", 'q', 0, 'X', 1, 0, 0, 0, "a", 'h', 0, "s", 'h', 0, "Ns.");
        assertEquals(10, PickleGuard.check(selfKey, selfKey.length, "x.pickle")); // plain opcodes only: it passes
        assertEquals(
                "a damaged pickle: the opcode before byte 18 hashes a value that contains itself, or one nested"
                        + " too deeply to follow",
                assertThrows(PickleException.class, () -> new PlainUnpickler()
                                .loadChecked(new ByteArrayInputStream(selfKey)))
                        .getMessage());
    }

    @Test
    void theUnpicklerNeverSeesAClass() throws Exception {
        // GLOBAL tracelake_test.boom, EMPTY_TUPLE, REDUCE: razorvine alone would call the registered constructor.
        byte[] hostile = bytes(0x80, 2, "ctracelake_test\nboom\n)R.");
        Path file = tmp.resolve("rank0_memory_snapshot.pickle");
        Files.write(file, hostile);
        FileTask task = new FileTask(
                "w",
                file.toUri().toString(),
                hostile.length,
                0,
                TraceFormat.MEMORY_SNAPSHOT,
                0,
                InputLimits.defaults(),
                "run");
        InputRefusedException e = assertThrows(
                InputRefusedException.class, () -> new MemorySnapshotReader().open(task, new Configuration()));
        assertTrue(e.getMessage().contains("GLOBAL"), e.getMessage());
        assertFalse(CONSTRUCTED.get(), "the constructor of a pickled global must never run");
        // The second line of defence refuses the same stream at dispatch, should the walker ever let it through.
        assertThrows(PickleException.class, () -> new PlainUnpickler().loadChecked(new ByteArrayInputStream(hostile)));
        assertFalse(CONSTRUCTED.get());
    }
}
