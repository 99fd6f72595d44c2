package org.tracelake.jobs.warehouse.columnar;

/**
 * Strings by int ids, as a reader holds them (a file's few thousand distinct names, categories and arg values, each
 * kept once): a {@link ColumnBlock}'s string columns hold ids, and the writer asks for a value's UTF-8 bytes only when
 * it first meets the id in a row group (its dictionary) or when a column is written plain.
 */
public interface Utf8Strings {
    /** The id of no string: a null value. */
    int NULL = -1;

    /** The UTF-8 bytes of the string with this id (not {@link #NULL}); the caller does not change them. */
    byte[] utf8(int id);

    /** The string with this id, or null for {@link #NULL}. */
    String text(int id);
}
