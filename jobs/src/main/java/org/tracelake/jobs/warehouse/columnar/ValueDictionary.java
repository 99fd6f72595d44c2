package org.tracelake.jobs.warehouse.columnar;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;

/**
 * A column's dictionary for one row group, built from what the block already knows about each value: a string column
 * looks its values up by their ids (an int, where parquet-java would hash and compare every value's bytes), a number
 * column by the number itself. Holds the dictionary page's PLAIN bytes as entries arrive, and where each binary entry
 * sits in them (for min/max statistics, compared once per distinct value and page).
 */
final class ValueDictionary {
    /** The width of a number column's values (8 for INT64, 4 for INT32), or 0 for a binary column. */
    private final int numberWidth;

    /** The entry of each string id (+ 1; 0: none yet): ids are a file's small dense ints, so an array beats hashing. */
    private int[] byId = new int[256];

    private int largestId = -1;
    /** Ids below {@link Utf8Strings#NULL} (a file's strings past its table's bound) are few: hashed. */
    private final LongIntMap byLooseId = new LongIntMap();

    private final LongIntMap byNumber = new LongIntMap();
    private final ByteSink plain = new ByteSink();
    /** For a binary dictionary: entry i's bytes are plain[offsets[i], offsets[i] + lengths[i]). */
    private int[] offsets = new int[64];

    private int[] lengths = new int[64];
    private int size;

    ValueDictionary(int numberWidth) {
        this.numberWidth = numberWidth;
    }

    int size() {
        return size;
    }

    /** The dictionary page's size so far. */
    int byteSize() {
        return plain.length();
    }

    /** The entry of a string, by its id in {@code strings}. */
    int ofString(int id, Utf8Strings strings) {
        if (id < 0) {
            int at = byLooseId.get(id);
            if (at < 0) {
                at = addString(id, strings);
                byLooseId.put(id, at);
            }
            return at;
        }
        if (id < byId.length && byId[id] > 0) return byId[id] - 1;
        if (id >= byId.length) byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
        int at = addString(id, strings);
        byId[id] = at + 1;
        largestId = Math.max(largestId, id);
        return at;
    }

    private int addString(int id, Utf8Strings strings) {
        byte[] utf8 = strings.utf8(id);
        return addBinary(utf8, 0, utf8.length);
    }

    /** The entry of a whole number: the number itself in a number column, its decimal digits in a binary one. */
    int ofNumber(long v) {
        int at = byNumber.get(v);
        if (at >= 0) return at;
        if (numberWidth == 8) {
            plain.putLong(v);
            at = size++;
        } else if (numberWidth == 4) {
            plain.putInt((int) v);
            at = size++;
        } else {
            byte[] digits = Digits.of(v);
            at = addBinary(digits, 0, digits.length);
        }
        byNumber.put(v, at);
        return at;
    }

    private int addBinary(byte[] b, int from, int n) {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, size * 2);
            lengths = Arrays.copyOf(lengths, size * 2);
        }
        plain.putInt(n);
        offsets[size] = plain.length();
        lengths[size] = n;
        plain.put(b, from, n);
        return size++;
    }

    /** The bytes of binary entry {@code i}: {@link #bytes()} from {@link #offset}, {@link #length} long. */
    byte[] bytes() {
        return plain.array();
    }

    int offset(int i) {
        return offsets[i];
    }

    int length(int i) {
        return lengths[i];
    }

    /** The row group's dictionary page (PLAIN entries; PLAIN_DICTIONARY as a version 1 writer names it). */
    DictionaryPage page() {
        return new DictionaryPage(
                BytesInput.from(Arrays.copyOf(plain.array(), plain.length())), size, Encoding.PLAIN_DICTIONARY);
    }

    void clear() {
        if (largestId >= 0) Arrays.fill(byId, 0, largestId + 1, 0);
        largestId = -1;
        byLooseId.clear();
        byNumber.clear();
        plain.reset();
        size = 0;
    }
}
