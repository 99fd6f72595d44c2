package org.tracelake.jobs.readers.common;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * One row of a table being filled column by column, by name, then taken as an {@link InternalRow}: readers never
 * depend on the order of a schema's columns, and a misspelt column fails at once with its name.
 */
public final class RowBuilder {
    private final StructType schema;
    private final Map<String, Integer> positions = new HashMap<>();
    private final DataType[] types;
    private Object[] values;

    public RowBuilder(StructType schema) {
        this.schema = schema;
        this.types = new DataType[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            positions.put(schema.fields()[i].name(), i);
            types[i] = schema.fields()[i].dataType();
        }
        this.values = new Object[schema.size()];
    }

    public StructType schema() {
        return schema;
    }

    /** Sets a column from a plain Java value (String, Number, Boolean, Timestamp, Map, List, or an internal value). */
    public RowBuilder set(String column, Object value) {
        int i = position(column);
        values[i] = CatalystValues.of(value, types[i]);
        return this;
    }

    /** The row filled so far; the builder starts a new, empty one. */
    public InternalRow build() {
        InternalRow row = new GenericInternalRow(values);
        values = new Object[types.length];
        return row;
    }

    private int position(String column) {
        Integer i = positions.get(column);
        if (i == null) throw new IllegalArgumentException("no column " + column + " in " + schema.simpleString());
        return i;
    }
}
