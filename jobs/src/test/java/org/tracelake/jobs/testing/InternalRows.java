package org.tracelake.jobs.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.readers.EventStream;

/** Readers emit Spark's internal rows; tests look at them as external {@link Row}s, converted by Spark itself. */
public final class InternalRows {
    private InternalRows() {}

    public static Row toRow(StructType schema, InternalRow row) {
        return (Row) CatalystTypeConverters.createToScalaConverter(schema).apply(row);
    }

    /** Every row of the stream, converted; the stream's report is complete afterwards. */
    public static List<Row> drain(EventStream stream, StructType schema) {
        scala.Function1<Object, Object> convert = CatalystTypeConverters.createToScalaConverter(schema);
        List<Row> rows = new ArrayList<>();
        while (stream.hasNext()) rows.add((Row) convert.apply(stream.next()));
        return rows;
    }
}
