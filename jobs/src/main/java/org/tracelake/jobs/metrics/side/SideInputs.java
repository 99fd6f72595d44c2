package org.tracelake.jobs.metrics.side;

import java.util.Arrays;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;

/**
 * What every side family does to its input tables before it groups them: keep only the columns it reads, in the
 * order it reads them by position, with the workload first, so that the rows are grouped by their first column.
 */
final class SideInputs {
    private SideInputs() {}

    /** The workload of a row projected by {@link #project}: its first column. */
    static final MapFunction<Row, String> WORKLOAD = r -> r.getString(0);

    /** The rows with only these columns, in this order (the first one the workload). */
    static Dataset<Row> project(Dataset<Row> rows, String[] columns) {
        return rows.select(Arrays.stream(columns).map(functions::col).toArray(Column[]::new));
    }
}
