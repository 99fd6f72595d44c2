package org.tracelake.jobs.readers;

import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Rows of a reader that writes several tables from one parse: each row is an envelope
 * {@code (table index, t0, t1, …)} with exactly one of the {@code t<i>} structs set. Ingest deals each row to its
 * table as it comes, so the file is parsed once; a data source read of one of the tables keeps that table's rows.
 */
public final class MultiTableRows {
    private MultiTableRows() {}

    public static final String INDEX = "_table";

    public static String column(int i) {
        return "t" + i;
    }

    public static StructType schema(List<ReaderRegistry.Output> outputs) {
        StructType s = new StructType().add(INDEX, DataTypes.IntegerType, false);
        for (int i = 0; i < outputs.size(); i++)
            s = s.add(column(i), outputs.get(i).schema(), true);
        return s;
    }

    /** Which output an envelope holds a row of. */
    public static int index(InternalRow envelope) {
        return envelope.getInt(0);
    }

    /** The row an envelope holds, of output {@link #index} whose schema has {@code width} columns. */
    public static InternalRow unwrap(InternalRow envelope, int width) {
        return envelope.getStruct(index(envelope) + 1, width);
    }

    /** The envelope of a row of output {@code index} out of {@code count}, in Spark's internal form. */
    public static InternalRow wrap(int index, int count, InternalRow row) {
        Object[] values = new Object[count + 1];
        values[0] = index;
        values[index + 1] = row;
        return new GenericInternalRow(values);
    }
}
