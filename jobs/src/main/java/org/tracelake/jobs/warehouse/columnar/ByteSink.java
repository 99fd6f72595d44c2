package org.tracelake.jobs.warehouse.columnar;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/** A growable byte buffer for PLAIN-encoded values (little-endian, as Parquet lays them out), reused page after page. */
final class ByteSink {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes = new byte[1 << 12];
    private int length;

    int length() {
        return length;
    }

    byte[] array() {
        return bytes;
    }

    void reset() {
        length = 0;
    }

    void putLong(long v) {
        ensure(8);
        LONGS.set(bytes, length, v);
        length += 8;
    }

    void putInt(int v) {
        ensure(4);
        INTS.set(bytes, length, v);
        length += 4;
    }

    void put(byte[] b, int from, int n) {
        ensure(n);
        System.arraycopy(b, from, bytes, length, n);
        length += n;
    }

    /** A PLAIN binary value: its length, then its bytes. */
    void putBinary(byte[] b, int from, int n) {
        putInt(n);
        put(b, from, n);
    }

    /** A PLAIN binary value holding the decimal digits of {@code v} (as {@link Long#toString(long)} writes them). */
    void putDigits(long v) {
        byte[] digits = Digits.of(v);
        putBinary(digits, 0, digits.length);
    }

    /** The bytes so far, as a view (valid until the next write or reset). */
    BytesInput view() {
        return BytesInput.from(bytes, 0, length);
    }

    private void ensure(int n) {
        if (length + n > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
    }
}
