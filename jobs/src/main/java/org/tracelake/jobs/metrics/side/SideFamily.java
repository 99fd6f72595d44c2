package org.tracelake.jobs.metrics.side;

import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * A side-table family's work on one workload: it is handed the workload's rows of its tables in any order, then gives
 * its rows. A new side family implements this and takes one line in {@link SideRows#FAMILIES}.
 */
interface SideFamily {
    /** One row of one of its tables, in that table's columns: read at once (the caller may reuse the row). */
    void add(SideTable table, InternalRow row);

    /** Its metric rows of the workload (none when it was given no row), and any {@code collective_hangs} rows. */
    SideRows.Result compute(String workload);

    /** A side family as {@link SideRows} lists it: the tables it reads, and how to start one for a workload. */
    record Kind(String name, List<SideTable> tables, Supplier<SideFamily> start) {}
}
