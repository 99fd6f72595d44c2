package org.tracelake.jobs.warehouse.columnar;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One leaf column of a Parquet file written a block at a time: the (repetition level, definition level, value) of
 * each of its entries go into the current data page, which is cut at a row boundary when its values reach the page
 * size, when the dictionary outgrows its limit, and at the end of every block; pages go to the row group's {@link
 * PageWriter} (which compresses them and keeps the column index) and the dictionary page at the row group's end.
 *
 * <p>The layout is what parquet-java's version 1 writer makes, so that any Parquet reader reads the file as one of
 * parquet-java's: levels RLE with their length in front ({@code BIT_PACKED}, i.e. nothing, for a maximum level of
 * 0), values PLAIN or, through the row group's {@link ValueDictionary}, as RLE/bit-packed dictionary indices
 * ({@code PLAIN_DICTIONARY}); a page without a value is PLAIN. The dictionary is kept for the row group only when the
 * first page with values is smaller with it than PLAIN (parquet-java's own test), and given up, for the rest of the
 * row group, once its page would pass {@code dictionaryPageSize}. Statistics (min, max, nulls) per page, or none for a
 * column written without them.
 */
abstract class LeafWriter {
    final ColumnDescriptor column;
    private final PrimitiveType type;
    private final int maxRl;
    private final int maxDl;
    private final boolean statistics;
    private final int pageSize;
    private final int dictionaryPageSize;
    private final ByteBufferAllocator allocator;
    /** Null for a column written without a dictionary. */
    private final ValueDictionary dictionary;

    private PageWriter pages;
    /** The row group's dictionary was given up (or never worth it): the rest of it is PLAIN. */
    private boolean plainOnly;
    /** Whether a page with values was written in this row group (the dictionary's test is on the first one). */
    private boolean firstValuesPageDone;

    // the page being built
    private final RunLengthBitPackingHybridEncoder rl;
    private final RunLengthBitPackingHybridEncoder dl;
    private final ByteSink plain = new ByteSink();
    /** The page's values by dictionary: each one's entry, and a number column's number (to rewrite it PLAIN). */
    private int[] entries = new int[1024];

    private long[] numbers = new long[1024];
    private int values;
    /** The PLAIN size of the page's values: what the dictionary must beat. */
    private long plainSize;

    private int levels;
    private int rows;
    private long nulls;
    // min/max: numbers as longs; binary values by dictionary entry, or as copies when written PLAIN
    private long min;
    private long max;
    private int minEntry;
    private int maxEntry;
    private byte[] minBytes;
    private byte[] maxBytes;
    private boolean anyValue;
    private int[] seenOnPage = new int[64];
    private int page = 1;

    LeafWriter(ColumnDescriptor column, Settings settings) {
        this.column = column;
        this.type = column.getPrimitiveType();
        this.maxRl = column.getMaxRepetitionLevel();
        this.maxDl = column.getMaxDefinitionLevel();
        String path = String.join(".", column.getPath());
        this.statistics = !settings.withoutStatistics().contains(path);
        this.pageSize = settings.pageSize();
        this.dictionaryPageSize = settings.dictionaryPageSize();
        this.allocator = settings.allocator();
        boolean dictionaryOn = !settings.withoutDictionary().contains(path);
        int width =
                switch (type.getPrimitiveTypeName()) {
                    case INT64 -> 8;
                    case INT32 -> 4;
                    case BINARY -> 0;
                    default -> throw new IllegalArgumentException(path + ": " + type + " is not written by blocks");
                };
        this.dictionary = dictionaryOn ? new ValueDictionary(width) : null;
        this.rl = maxRl > 0 ? levelEncoder(maxRl) : null;
        this.dl = maxDl > 0 ? levelEncoder(maxDl) : null;
    }

    /** What a file's columns are written with. */
    record Settings(
            java.util.List<String> withoutDictionary,
            java.util.List<String> withoutStatistics,
            int pageSize,
            int dictionaryPageSize,
            ByteBufferAllocator allocator) {}

    private RunLengthBitPackingHybridEncoder levelEncoder(int maxLevel) {
        return new RunLengthBitPackingHybridEncoder(
                BytesUtils.getWidthFromMaxInt(maxLevel), slab(), pageSize, allocator);
    }

    /** The first buffer of an encoder: 64 KiB, or the page size when pages are smaller. */
    private int slab() {
        return Math.min(64 * 1024, pageSize);
    }

    /** The row group's page writer: set before each row group's first block. */
    void startRowGroup(PageWriter pages) {
        this.pages = pages;
        this.plainOnly = dictionary == null;
        this.firstValuesPageDone = false;
        if (dictionary != null) dictionary.clear();
    }

    /** Every row of the block, in order, into this column's pages. */
    final void write(ColumnBlock block) throws IOException {
        writeRows(block);
        if (rows > 0) flushPage();
    }

    /** Each row's entries ({@link #level} and a value for each non-null one), then {@link #rowDone}. */
    abstract void writeRows(ColumnBlock block) throws IOException;

    /** Ends the row group: the last page, the dictionary page when a page used it. */
    void endRowGroup() throws IOException {
        if (rows > 0) flushPage();
        if (dictionary != null && dictionary.size() > 0) pages.writeDictionaryPage(dictionary.page());
    }

    /** One entry's levels; an entry defined below the maximum level is a null (no value follows). */
    final void level(int repetition, int definition) throws IOException {
        if (rl != null) rl.writeInt(repetition);
        if (dl != null) dl.writeInt(definition);
        levels++;
        if (definition < maxDl) nulls++;
    }

    /** A null in a flat column: a required column cannot hold one. */
    final void nullValue() throws IOException {
        if (maxDl == 0) throw new IllegalArgumentException("column " + column + " is null");
        level(0, 0);
    }

    /** The value of an INT64 or INT32 entry. */
    final void number(long v) {
        if (statistics) {
            if (!anyValue || v < min) min = v;
            if (!anyValue || v > max) max = v;
            anyValue = true;
        }
        if (plainOnly) {
            if (type.getPrimitiveTypeName() == PrimitiveTypeName.INT64) plain.putLong(v);
            else plain.putInt((int) v);
            return;
        }
        add(dictionary.ofNumber(v), v);
        plainSize += type.getPrimitiveTypeName() == PrimitiveTypeName.INT64 ? 8 : 4;
    }

    /** The value of a BINARY entry: a string of the block by its id. */
    final void string(int id, Utf8Strings strings) {
        if (plainOnly) {
            byte[] b = strings.utf8(id);
            plain.putBinary(b, 0, b.length);
            if (statistics) plainMinMax(b);
            return;
        }
        int entry = dictionary.ofString(id, strings);
        add(entry, 0);
        plainSize += 4 + dictionary.length(entry);
        if (statistics) entryMinMax(entry);
    }

    /** The value of a BINARY entry: a whole number's decimal digits. */
    final void digits(long v) {
        if (plainOnly) {
            byte[] b = Digits.of(v);
            plain.putBinary(b, 0, b.length);
            if (statistics) plainMinMax(b);
            return;
        }
        int entry = dictionary.ofNumber(v);
        add(entry, 0);
        plainSize += 4 + dictionary.length(entry);
        if (statistics) entryMinMax(entry);
    }

    /** After each row: the page is cut here when it is full or the dictionary has grown past its limit. */
    final void rowDone() throws IOException {
        rows++;
        // a dictionary index takes at most 4 bytes: a page of pageSize / 4 of them is full whatever their width
        if (plainOnly
                ? plain.length() >= pageSize
                : dictionary.byteSize() >= dictionaryPageSize || values >= pageSize / 4) {
            flushPage();
        }
    }

    private void add(int entry, long number) {
        if (values == entries.length) {
            entries = Arrays.copyOf(entries, values * 2);
            numbers = Arrays.copyOf(numbers, values * 2);
        }
        numbers[values] = number;
        entries[values++] = entry;
    }

    private void entryMinMax(int entry) {
        if (entry >= seenOnPage.length)
            seenOnPage = Arrays.copyOf(seenOnPage, Math.max(entry + 1, seenOnPage.length * 2));
        if (seenOnPage[entry] == page) return; // compared already on this page
        seenOnPage[entry] = page;
        byte[] b = dictionary.bytes();
        int off = dictionary.offset(entry);
        int len = dictionary.length(entry);
        if (!anyValue) {
            minEntry = maxEntry = entry;
            anyValue = true;
            return;
        }
        if (compare(b, off, len, dictionary.offset(minEntry), dictionary.length(minEntry)) < 0) minEntry = entry;
        if (compare(b, off, len, dictionary.offset(maxEntry), dictionary.length(maxEntry)) > 0) maxEntry = entry;
    }

    private static int compare(byte[] b, int off, int len, int otherOff, int otherLen) {
        return Arrays.compareUnsigned(b, off, off + len, b, otherOff, otherOff + otherLen);
    }

    private void plainMinMax(byte[] v) {
        if (!anyValue || Arrays.compareUnsigned(v, minBytes) < 0) minBytes = v.clone();
        if (!anyValue || Arrays.compareUnsigned(v, maxBytes) > 0) maxBytes = v.clone();
        anyValue = true;
    }

    private void flushPage() throws IOException {
        boolean byDictionary = !plainOnly && values > 0;
        BytesInput valueBytes = byDictionary ? indices() : plain.view();
        if (byDictionary && !firstValuesPageDone && valueBytes.size() + dictionary.byteSize() >= plainSize) {
            byDictionary = false; // the dictionary does not pay on the first page: PLAIN for the row group
            rewritePlain();
            valueBytes = plain.view();
        }
        if (values > 0) firstValuesPageDone = true;
        Encoding valueEncoding = byDictionary ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
        BytesInput page = BytesInput.concat(levelBytes(rl), levelBytes(dl), valueBytes);
        pages.writePage(
                page,
                levels,
                rows,
                pageStatistics(byDictionary),
                rl == null ? Encoding.BIT_PACKED : Encoding.RLE,
                dl == null ? Encoding.BIT_PACKED : Encoding.RLE,
                valueEncoding);
        if (!plainOnly && dictionary.byteSize() >= dictionaryPageSize) plainOnly = true;
        resetPage();
    }

    /** The first page's values again, PLAIN, and no dictionary for the rest of the row group. */
    private void rewritePlain() {
        plain.reset();
        for (int i = 0; i < values; i++) {
            int entry = entries[i];
            if (type.getPrimitiveTypeName() == PrimitiveTypeName.INT64) plain.putLong(numbers[i]);
            else if (type.getPrimitiveTypeName() == PrimitiveTypeName.INT32) plain.putInt((int) numbers[i]);
            else plain.putBinary(dictionary.bytes(), dictionary.offset(entry), dictionary.length(entry));
        }
        if (statistics && anyValue && type.getPrimitiveTypeName() == PrimitiveTypeName.BINARY) {
            minBytes = entryBytes(minEntry);
            maxBytes = entryBytes(maxEntry);
        }
        dictionary.clear();
        plainOnly = true;
    }

    private byte[] entryBytes(int entry) {
        int off = dictionary.offset(entry);
        return Arrays.copyOfRange(dictionary.bytes(), off, off + dictionary.length(entry));
    }

    /** The page's dictionary indices: their bit width, then RLE/bit-packed runs. */
    private BytesInput indices() throws IOException {
        int width = BytesUtils.getWidthFromMaxInt(dictionary.size() - 1);
        RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(width, slab(), pageSize, allocator);
        for (int i = 0; i < values; i++) encoder.writeInt(entries[i]);
        return BytesInput.concat(BytesInput.from(new byte[] {(byte) width}), encoder.toBytes());
    }

    /** A level column with its length in front, as a version 1 page has it; nothing for a maximum level of 0. */
    private static BytesInput levelBytes(RunLengthBitPackingHybridEncoder levels) throws IOException {
        if (levels == null) return BytesInput.empty();
        BytesInput encoded = levels.toBytes();
        return BytesInput.concat(BytesInput.fromInt(Math.toIntExact(encoded.size())), encoded);
    }

    private Statistics<?> pageStatistics(boolean byDictionary) {
        if (!statistics) return Statistics.noopStats(type);
        Statistics<?> s = Statistics.createStats(type);
        s.setNumNulls(nulls);
        if (!anyValue) return s;
        switch (type.getPrimitiveTypeName()) {
            case INT64 -> ((LongStatistics) s).setMinMax(min, max);
            case INT32 -> ((IntStatistics) s).setMinMax((int) min, (int) max);
            default -> {
                byte[] lo = byDictionary ? entryBytes(minEntry) : minBytes;
                byte[] hi = byDictionary ? entryBytes(maxEntry) : maxBytes;
                ((BinaryStatistics) s).setMinMaxFromBytes(lo, hi);
            }
        }
        return s;
    }

    private void resetPage() {
        if (rl != null) rl.reset();
        if (dl != null) dl.reset();
        plain.reset();
        values = 0;
        plainSize = 0;
        levels = 0;
        rows = 0;
        nulls = 0;
        anyValue = false;
        minBytes = maxBytes = null;
        page++;
    }

    void close() {
        if (rl != null) rl.close();
        if (dl != null) dl.close();
    }
}
