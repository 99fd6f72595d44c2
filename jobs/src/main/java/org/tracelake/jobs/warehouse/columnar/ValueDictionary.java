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

    private final LongIntMap byId = new LongIntMap();
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
        int at = byId.get(id);
        if (at >= 0) return at;
        byte[] utf8 = strings.utf8(id);
        at = addBinary(utf8, 0, utf8.length);
        byId.put(id, at);
        return at;
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
        byId.clear();
        byNumber.clear();
        plain.reset();
        size = 0;
    }
}
