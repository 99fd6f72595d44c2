package org.tracelake.jobs.generate.formats;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Plain data as a pickle (protocol 2), the way Python's {@code pickle.dump} writes a dict of dicts, lists, tuples,
 * str, int, float, bool and None: a {@link Map} is a dict (in its iteration order), a {@link List} a list, an
 * {@code Object[]} a tuple. Only the opcodes of plain data are written, so the readers' {@code PickleGuard} lets the
 * result through as it lets PyTorch's own snapshots and Flight Recorder dumps through.
 */
final class PickleWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private PickleWriter() {}

    static byte[] dumps(Object value) {
        PickleWriter w = new PickleWriter();
        w.out.write(0x80); // PROTO 2
        w.out.write(2);
        w.write(value);
        w.out.write('.'); // STOP
        return w.out.toByteArray();
    }

    private void write(Object v) {
        if (v == null) {
            out.write('N');
        } else if (v instanceof Boolean b) {
            out.write(b ? 0x88 : 0x89);
        } else if (v instanceof String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.write('X'); // BINUNICODE
            out.writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(utf8.length)
                    .array());
            out.writeBytes(utf8);
        } else if (v instanceof Integer || v instanceof Long) {
            writeInt(((Number) v).longValue());
        } else if (v instanceof Double d) {
            out.write('G'); // BINFLOAT, big-endian
            out.writeBytes(ByteBuffer.allocate(8).putDouble(d).array());
        } else if (v instanceof Map<?, ?> m) {
            out.write('}');
            if (m.isEmpty()) return;
            out.write('(');
            for (Map.Entry<?, ?> e : m.entrySet()) {
                write(e.getKey());
                write(e.getValue());
            }
            out.write('u'); // SETITEMS
        } else if (v instanceof List<?> l) {
            out.write(']');
            if (l.isEmpty()) return;
            out.write('(');
            for (Object o : l) write(o);
            out.write('e'); // APPENDS
        } else if (v instanceof Object[] tuple) {
            out.write('(');
            for (Object o : tuple) write(o);
            out.write('t'); // TUPLE
        } else {
            throw new IllegalArgumentException(
                    "not plain pickle data: " + v.getClass().getName());
        }
    }

    /** BININT1/BININT2/BININT when it fits, else LONG1 (little-endian two's complement), as CPython picks. */
    private void writeInt(long n) {
        if (n >= 0 && n < 256) {
            out.write('K');
            out.write((int) n);
        } else if (n >= 0 && n < 65536) {
            out.write('M');
            out.write((int) (n & 0xff));
            out.write((int) (n >>> 8));
        } else if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
            out.write('J');
            out.writeBytes(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt((int) n)
                    .array());
        } else {
            byte[] big = BigInteger.valueOf(n).toByteArray(); // big-endian, minimal
            out.write(0x8a);
            out.write(big.length);
            for (int i = big.length - 1; i >= 0; i--) out.write(big[i]);
        }
    }
}
