package org.tracelake.jobs.readers.common.json;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.warehouse.columnar.Utf8Strings;

/**
 * The strings of one file by small ids: a trace repeats a few thousand names, categories, thread ids and arg values
 * over millions of events, so each distinct value is decoded once and its events hold an int. Values are looked up by
 * their bytes as the scanner found them (no String made to look one up); those written with escapes, and texts a
 * reader builds, by their text. Bounded: once full, a new value is kept as it comes under an id of its own (negative,
 * below {@link #NULL}), so a file of unique values cannot grow the lookup without limit.
 */
public final class StringTable implements Utf8Strings {
    /** The id of no string (JSON null, an absent field). */
    public static final int NULL = -1;

    private final int maxEntries;
    private final long maxBytes;

    private String[] strings = new String[1024];
    private int size;

    /** Open addressing over ids + 1 (0: empty), hashed by the bytes of the value. */
    private int[] slots = new int[2048];

    private int[] hashes = new int[1024];
    private int[] offsets = new int[1024];
    private int[] lengths = new int[1024];
    private byte[] arena = new byte[1 << 14];
    private int arenaLength;

    private final Map<String, Integer> byText = new HashMap<>();
    /** Values met once the table was full, by {@code -2 - id}. */
    private final List<String> loose = new ArrayList<>();

    public StringTable() {
        this(1 << 20, 64L << 20);
    }

    StringTable(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The id of the UTF-8 text these bytes are, decoded (strictly) the first time. */
    public int intern(byte[] bytes, int from, int to, JsonScanner decoder) throws IOException {
        int h = hash(bytes, from, to);
        int mask = slots.length - 1;
        int length = to - from;
        for (int s = mix(h) & mask; ; s = (s + 1) & mask) {
            int id = slots[s] - 1;
            if (id < 0) {
                if (size >= maxEntries || arenaLength + (long) length > maxBytes) {
                    return looseId(decoded(bytes, from, to, decoder));
                }
                String text = decoded(bytes, from, to, decoder);
                id = add(text);
                hashes[id] = h;
                offsets[id] = store(bytes, from, length);
                lengths[id] = length;
                slots[s] = id + 1;
                if (size * 2 > slots.length) rehash();
                return id;
            }
            if (hashes[id] == h && lengths[id] == length && same(offsets[id], bytes, from, length)) return id;
        }
    }

    /** The id of a text (an escaped string decoded, a structure written out). */
    public int intern(String text) throws IOException {
        Integer known = byText.get(text);
        if (known != null) return known;
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int id;
        if (new String(utf8, StandardCharsets.UTF_8).equals(text)) {
            id = intern(utf8, 0, utf8.length, null); // the id the same text has when it comes as bytes
        } else { // a lone surrogate (an escape only can write one): no bytes are this text
            if (size >= maxEntries) return looseId(text);
            id = add(text);
            lengths[id] = -1; // never matched by bytes
        }
        if (id >= 0 && byText.size() < maxEntries) byText.put(text, id);
        return id;
    }

    @Override
    public String text(int id) {
        return get(id);
    }

    public String get(int id) {
        if (id >= 0) return strings[id];
        return id == NULL ? null : loose.get(-2 - id);
    }

    /**
     * The UTF-8 bytes of a value (a copy): those the file held, or, for a text no bytes are (a lone surrogate, which
     * only an escape can write), what Spark makes of the text, as the rows' strings have always been made.
     */
    @Override
    public byte[] utf8(int id) {
        if (id >= 0 && lengths[id] >= 0) return Arrays.copyOfRange(arena, offsets[id], offsets[id] + lengths[id]);
        return get(id).getBytes(StandardCharsets.UTF_8);
    }

    /** The text of bytes that are known to be UTF-8 (decoder null: they came from a String) or checked by it. */
    private static String decoded(byte[] bytes, int from, int to, JsonScanner decoder) throws IOException {
        return decoder == null
                ? new String(bytes, from, to - from, StandardCharsets.UTF_8)
                : decoder.utf8(bytes, from, to);
    }

    private int looseId(String text) {
        loose.add(text);
        return -1 - loose.size();
    }

    public int size() {
        return size;
    }

    private int add(String text) {
        if (size == strings.length) {
            int n = size * 2;
            strings = Arrays.copyOf(strings, n);
            hashes = Arrays.copyOf(hashes, n);
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        strings[size] = text;
        return size++;
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Eight bytes a step: kernel and op names run to hundreds of bytes, and every value of the file is hashed (a
     * byte-at-a-time hash was the largest cost of the scan).
     */
    private static int hash(byte[] b, int from, int to) {
        long h = (long) to - from;
        int i = from;
        for (; i + 8 <= to; i += 8) h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
        for (; i < to; i++) h = (h ^ b[i]) * 0x100000001B3L;
        return (int) (h ^ (h >>> 32));
    }

    /** Word by word, as {@link #hash}: a plain loop, where Arrays.equals' setup costs more than short values take. */
    private boolean same(int at, byte[] bytes, int from, int length) {
        byte[] a = arena;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            if ((long) LONGS.get(a, at + i) != (long) LONGS.get(bytes, from + i)) return false;
        }
        for (; i < length; i++) {
            if (a[at + i] != bytes[from + i]) return false;
        }
        return true;
    }

    private int store(byte[] bytes, int from, int length) {
        if (arenaLength + length > arena.length) {
            long grown = Math.max(arena.length * 2L, arenaLength + (long) length);
            arena = Arrays.copyOf(arena, (int) Math.min(Integer.MAX_VALUE - 8, grown));
        }
        System.arraycopy(bytes, from, arena, arenaLength, length);
        int at = arenaLength;
        arenaLength += length;
        return at;
    }

    private void rehash() {
        int[] grown = new int[slots.length * 2];
        int mask = grown.length - 1;
        for (int id = 0; id < size; id++) {
            if (lengths[id] < 0) continue;
            int s = mix(hashes[id]) & mask;
            while (grown[s] != 0) s = (s + 1) & mask;
            grown[s] = id + 1;
        }
        slots = grown;
    }

    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
