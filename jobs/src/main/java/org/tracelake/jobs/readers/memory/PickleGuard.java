package org.tracelake.jobs.readers.memory;

import java.util.Locale;
import org.tracelake.jobs.readers.InputRefusedException;

/**
 * Walks a pickle's opcode stream — without building anything — and refuses every opcode that could name, import,
 * call or construct a Python object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4,
 * PERSID, BINPERSID), out-of-band buffers, the text opcodes of protocols 0–1 and anything unknown. What passes is
 * a protocol 2–5 stream of plain data (dicts, lists, tuples, sets, str, bytes, int, float, bool, None, memo
 * references), so the unpickler that runs afterwards can never be asked for a class.
 *
 * <p>The opcodes a CUDA memory snapshot (FORMATS.md §5) and an NCCL Flight Recorder dump (§9) use are a subset of
 * those allowed here; the refusals name the kind of file the reader expected.
 */
public final class PickleGuard {
    private PickleGuard() {}

    /** Arguments of an allowed opcode: fixed bytes, or a length prefix of 1, 4 or 8 bytes then that many bytes. */
    private static final int NONE = 0;

    private static final int[] FIXED = new int[256];
    private static final int[] LENGTH_PREFIX = new int[256];
    private static final boolean[] ALLOWED = new boolean[256];
    private static final String[] NAME = new String[256];

    private static void allow(int op, String name, int fixed, int lengthPrefix) {
        ALLOWED[op] = true;
        NAME[op] = name;
        FIXED[op] = fixed;
        LENGTH_PREFIX[op] = lengthPrefix;
    }

    private static void refuse(int op, String name) {
        ALLOWED[op] = false;
        NAME[op] = name;
    }

    static {
        allow(0x80, "PROTO", 1, NONE);
        allow(0x95, "FRAME", 8, NONE);
        allow('}', "EMPTY_DICT", 0, NONE);
        allow(']', "EMPTY_LIST", 0, NONE);
        allow(')', "EMPTY_TUPLE", 0, NONE);
        allow('(', "MARK", 0, NONE);
        allow(0x94, "MEMOIZE", 0, NONE);
        allow('u', "SETITEMS", 0, NONE);
        allow('s', "SETITEM", 0, NONE);
        allow('a', "APPEND", 0, NONE);
        allow('e', "APPENDS", 0, NONE);
        allow('t', "TUPLE", 0, NONE);
        allow(0x85, "TUPLE1", 0, NONE);
        allow(0x86, "TUPLE2", 0, NONE);
        allow(0x87, "TUPLE3", 0, NONE);
        allow(0x88, "NEWTRUE", 0, NONE);
        allow(0x89, "NEWFALSE", 0, NONE);
        allow('N', "NONE", 0, NONE);
        allow('.', "STOP", 0, NONE);
        allow('0', "POP", 0, NONE);
        allow('1', "POP_MARK", 0, NONE);
        allow('2', "DUP", 0, NONE);
        allow('l', "LIST", 0, NONE);
        allow('d', "DICT", 0, NONE);
        allow(0x8f, "EMPTY_SET", 0, NONE);
        allow(0x90, "ADDITEMS", 0, NONE);
        allow(0x91, "FROZENSET", 0, NONE);
        allow(0x8c, "SHORT_BINUNICODE", 0, 1);
        allow('X', "BINUNICODE", 0, 4);
        allow(0x8d, "BINUNICODE8", 0, 8);
        allow('C', "SHORT_BINBYTES", 0, 1);
        allow('B', "BINBYTES", 0, 4);
        allow(0x8e, "BINBYTES8", 0, 8);
        allow(0x96, "BYTEARRAY8", 0, 8);
        allow('U', "SHORT_BINSTRING", 0, 1);
        allow('T', "BINSTRING", 0, 4);
        allow('K', "BININT1", 1, NONE);
        allow('M', "BININT2", 2, NONE);
        allow('J', "BININT", 4, NONE);
        allow(0x8a, "LONG1", 0, 1);
        allow(0x8b, "LONG4", 0, 4);
        allow('G', "BINFLOAT", 8, NONE);
        allow('h', "BINGET", 1, NONE);
        allow('j', "LONG_BINGET", 4, NONE);
        allow('q', "BINPUT", 1, NONE);
        allow('r', "LONG_BINPUT", 4, NONE);

        // Opcodes that import, call or construct objects: never.
        refuse('c', "GLOBAL");
        refuse(0x93, "STACK_GLOBAL");
        refuse('R', "REDUCE");
        refuse('b', "BUILD");
        refuse('i', "INST");
        refuse('o', "OBJ");
        refuse(0x81, "NEWOBJ");
        refuse(0x92, "NEWOBJ_EX");
        refuse(0x82, "EXT1");
        refuse(0x83, "EXT2");
        refuse(0x84, "EXT4");
        refuse('P', "PERSID");
        refuse('Q', "BINPERSID");
        // Out-of-band buffers (protocol 5) and the newline-terminated text opcodes of protocols 0-1.
        refuse(0x97, "NEXT_BUFFER");
        refuse(0x98, "READONLY_BUFFER");
        refuse('I', "INT");
        refuse('L', "LONG");
        refuse('F', "FLOAT");
        refuse('S', "STRING");
        refuse('V', "UNICODE");
        refuse('g', "GET");
        refuse('p', "PUT");
    }

    /** Opcodes that build objects from classes or callables: the reason a pickle can run code. */
    private static boolean constructs(String name) {
        return switch (name) {
            case "GLOBAL",
                    "STACK_GLOBAL",
                    "REDUCE",
                    "BUILD",
                    "INST",
                    "OBJ",
                    "NEWOBJ",
                    "NEWOBJ_EX",
                    "EXT1",
                    "EXT2",
                    "EXT4",
                    "PERSID",
                    "BINPERSID" -> true;
            default -> false;
        };
    }

    /** {@link #check(byte[], int, String, String)} for a CUDA memory snapshot. */
    public static long check(byte[] data, int length, String path) throws InputRefusedException {
        return check(data, length, path, "a CUDA memory snapshot");
    }

    /**
     * Checks {@code data[0, length)}; returns the number of opcodes up to and including STOP.
     *
     * @param what the kind of plain-data pickle expected ("a CUDA memory snapshot"), for the messages
     * @throws InputRefusedException naming the first refused opcode and its byte offset, or saying where the
     *     stream is truncated or malformed
     */
    public static long check(byte[] data, int length, String path, String what) throws InputRefusedException {
        if (length < 2 || (data[0] & 0xff) != 0x80) {
            throw new InputRefusedException(
                    "not a pickle of protocol 2-5 (it does not start with the PROTO opcode 0x80): " + path);
        }
        int version = data[1] & 0xff;
        if (version < 2 || version > 5) {
            throw new InputRefusedException("pickle protocol " + version + " is not supported (2-5 only): " + path);
        }
        long ops = 0;
        int pos = 0;
        while (pos < length) {
            int at = pos;
            int op = data[pos++] & 0xff;
            ops++;
            if (!ALLOWED[op]) {
                String name = NAME[op];
                if (name == null) {
                    throw new InputRefusedException(String.format(
                            Locale.ROOT,
                            "refused pickle: unknown opcode 0x%02x at byte %d; %s is plain data, so this "
                                    + "file is not one (or is corrupt): %s",
                            op,
                            at,
                            what,
                            path));
                }
                if (constructs(name)) {
                    throw new InputRefusedException("refused pickle: opcode " + name + " at byte " + at
                            + " would import, "
                            + "call or construct a Python object; " + what + " holds plain data only, so "
                            + "nothing in this file was unpickled (untrusted input is never executed): " + path);
                }
                throw new InputRefusedException("refused pickle: opcode " + name + " at byte " + at
                        + " is not a protocol " + "2-5 plain-data opcode; " + what + " never uses it: " + path);
            }
            if (op == '.') return ops; // STOP
            long skip = FIXED[op];
            int prefix = LENGTH_PREFIX[op];
            if (prefix > 0) {
                if (pos + prefix > length) throw truncated(at, path);
                long n = littleEndian(data, pos, prefix);
                pos += prefix;
                if (n < 0) {
                    throw new InputRefusedException(
                            "refused pickle: negative length for " + NAME[op] + " at byte " + at + ": " + path);
                }
                skip = n;
            }
            if (skip > length - pos) throw truncated(at, path);
            pos += (int) skip;
        }
        throw new InputRefusedException("truncated pickle: the opcode stream ends after " + length
                + " bytes without STOP (was the file cut short while copying?): " + path);
    }

    private static InputRefusedException truncated(int at, String path) {
        return new InputRefusedException("truncated pickle: the argument of the opcode at byte " + at
                + " runs past the end of the file: " + path);
    }

    /** Little-endian integer of 1, 2, 4 or 8 bytes; 4-byte lengths are signed (BINSTRING, LONG4) as in CPython. */
    private static long littleEndian(byte[] d, int pos, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) v = (v << 8) | (d[pos + i] & 0xffL);
        return n == 4 ? (long) (int) v : v; // a 4-byte length is signed: sign-extend it
    }
}
