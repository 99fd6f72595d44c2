package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The {@code events} table: every trace event of every format, flattened (DESIGN.md). Readers fill the columns
 * in exactly this order; {@link #SCHEMA} is the one definition of it.
 */
public final class EventSchema {
    private EventSchema() {}

    public static final String WORKLOAD = "workload";
    public static final String RANK = "rank";
    public static final String SOURCE_FILE = "source_file";
    public static final String FORMAT = "format";
    /** Position of the event in its file (0-based), so ties in time still have a stable order. */
    public static final String ORDINAL = "ordinal";

    public static final String PID = "pid";
    public static final String TID = "tid";
    public static final String DEVICE = "device";
    public static final String STREAM = "stream";
    public static final String PH = "ph";
    public static final String CAT = "cat";
    public static final String NAME = "name";
    public static final String TS_NS = "ts_ns";
    public static final String DUR_NS = "dur_ns";
    public static final String STEP = "step";
    public static final String CORRELATION = "correlation";
    public static final String EXTERNAL_ID = "external_id";
    /** Start of the CPU runtime call that launched a GPU activity (joined on correlation), when known. */
    public static final String LAUNCH_TS_NS = "launch_ts_ns";

    public static final String ACTIVITY_CLASS = "activity_class";
    public static final String KERNEL_CATEGORY = "kernel_category";
    public static final String COLLECTIVE = "collective";
    public static final String IN_NELEMS = "in_nelems";
    public static final String OUT_NELEMS = "out_nelems";
    public static final String DTYPE = "dtype";
    public static final String IN_BYTES = "in_bytes";
    public static final String OUT_BYTES = "out_bytes";
    public static final String BYTES_SOURCE = "bytes_source";
    public static final String GROUP_SIZE = "group_size";
    public static final String PG_NAME = "pg_name";
    public static final String PG_RANKS = "pg_ranks";
    public static final String SEQ = "seq";
    public static final String ARGS = "args";

    /**
     * Columns (nearly) unique per row. Parquet's dictionary encoding tries every value of a column chunk before it
     * falls back to plain encoding, wasted work on columns like these: writers turn it off for them.
     */
    public static final List<String> NEAR_UNIQUE_COLUMNS =
            List.of(ORDINAL, TS_NS, DUR_NS, CORRELATION, EXTERNAL_ID, LAUNCH_TS_NS);

    /**
     * String columns written without min/max statistics. Parquet compares every value of a column with the chunk's
     * current min and max, byte by byte; for these long or free-form strings (a ~100-byte path on every row, kernel
     * names, args) that was about a fifth of the events write, and their min/max prunes nothing: a file is one row
     * group, so a file's min and max of names or args span nearly everything. Filters by rank, time or the
     * classification columns (short, kept) still skip what they can. Leaf paths as Parquet names them.
     */
    public static final List<String> UNPRUNED_COLUMNS = List.of(
            SOURCE_FILE, PID, TID, CAT, NAME, PG_NAME, PG_RANKS, ARGS + ".key_value.key", ARGS + ".key_value.value");

    public static final StructType SCHEMA = new StructType()
            .add(WORKLOAD, StringType, false)
            .add(RANK, IntegerType, true)
            .add(SOURCE_FILE, StringType, false)
            .add(FORMAT, StringType, false)
            .add(ORDINAL, LongType, false)
            .add(PID, StringType, true)
            .add(TID, StringType, true)
            .add(DEVICE, IntegerType, true)
            .add(STREAM, LongType, true)
            .add(PH, StringType, true)
            .add(CAT, StringType, true)
            .add(NAME, StringType, true)
            .add(TS_NS, LongType, true)
            .add(DUR_NS, LongType, true)
            .add(STEP, LongType, true)
            .add(CORRELATION, LongType, true)
            .add(EXTERNAL_ID, LongType, true)
            .add(LAUNCH_TS_NS, LongType, true)
            .add(ACTIVITY_CLASS, StringType, true)
            .add(KERNEL_CATEGORY, StringType, true)
            .add(COLLECTIVE, StringType, true)
            .add(IN_NELEMS, LongType, true)
            .add(OUT_NELEMS, LongType, true)
            .add(DTYPE, StringType, true)
            .add(IN_BYTES, LongType, true)
            .add(OUT_BYTES, LongType, true)
            .add(BYTES_SOURCE, StringType, true)
            .add(GROUP_SIZE, IntegerType, true)
            .add(PG_NAME, StringType, true)
            .add(PG_RANKS, StringType, true)
            .add(SEQ, LongType, true)
            .add(ARGS, DataTypes.createMapType(StringType, StringType, true), true);

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
