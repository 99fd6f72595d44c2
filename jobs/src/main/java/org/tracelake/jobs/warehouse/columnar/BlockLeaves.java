package org.tracelake.jobs.warehouse.columnar;

import java.io.IOException;
import org.apache.parquet.column.ColumnDescriptor;

/** The leaf writers of a block's column kinds: a flat number, a flat string, a string map's keys and its values. */
final class BlockLeaves {
    private BlockLeaves() {}

    /** The leaf of a flat {@code bigint} or {@code int} column. */
    static final class Numbers extends LeafWriter {
        private final int position;

        Numbers(ColumnDescriptor column, Settings settings, int position) {
            super(column, settings);
            this.position = position;
        }

        @Override
        void writeRows(ColumnBlock block) throws IOException {
            LongColumn c = block.longs(position);
            int maxDl = column.getMaxDefinitionLevel();
            for (int row = 0; row < block.size(); row++) {
                if (c.nulls[row]) {
                    nullValue();
                } else {
                    level(0, maxDl);
                    number(c.values[row]);
                }
                rowDone();
            }
        }
    }

    /** The leaf of a flat {@code string} column. */
    static final class Strings extends LeafWriter {
        private final int position;

        Strings(ColumnDescriptor column, Settings settings, int position) {
            super(column, settings);
            this.position = position;
        }

        @Override
        void writeRows(ColumnBlock block) throws IOException {
            int[] ids = block.strings(position).ids;
            Utf8Strings strings = block.strings();
            int maxDl = column.getMaxDefinitionLevel();
            for (int row = 0; row < block.size(); row++) {
                int id = ids[row];
                if (id == Utf8Strings.NULL) {
                    nullValue();
                } else {
                    level(0, maxDl);
                    string(id, strings);
                }
                rowDone();
            }
        }
    }

    /**
     * A {@code map<string,string>}'s {@code key_value.key} or {@code key_value.value} leaf: a row without entries is
     * a null map (repetition 0, definition 0); each entry repeats the row from its second on (repetition 1), its key
     * defined to the key's maximum level, its value one level less when null.
     */
    static final class MapEntries extends LeafWriter {
        private final int position;
        private final boolean keys;

        MapEntries(ColumnDescriptor column, Settings settings, int position, boolean keys) {
            super(column, settings);
            this.position = position;
            this.keys = keys;
        }

        @Override
        void writeRows(ColumnBlock block) throws IOException {
            StringMapColumn m = block.map(position);
            Utf8Strings strings = block.strings();
            int maxDl = column.getMaxDefinitionLevel();
            for (int row = 0; row < block.size(); row++) {
                int from = m.start(row);
                int to = m.end(row);
                if (from == to) level(0, 0);
                for (int e = from; e < to; e++) {
                    int repetition = e == from ? 0 : 1;
                    if (keys) {
                        level(repetition, maxDl);
                        string(m.keys[e], strings);
                    } else if (m.kinds[e] == StringMapColumn.NULL) {
                        level(repetition, maxDl - 1);
                    } else {
                        level(repetition, maxDl);
                        if (m.kinds[e] == StringMapColumn.LONG) digits(m.values[e]);
                        else string((int) m.values[e], strings);
                    }
                }
                rowDone();
            }
        }
    }
}
