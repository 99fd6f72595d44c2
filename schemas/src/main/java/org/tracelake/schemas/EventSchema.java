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
            .add(WORKLOAD, StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    RANK,
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add(SOURCE_FILE, StringType, false, "the input file the row was read from, its path")
            .add(
                    FORMAT,
                    StringType,
                    false,
                    "the trace format that was read (trace_files.format: kineto, nsys_sqlite, xla, xplane, rocprof, …)")
            .add(
                    ORDINAL,
                    LongType,
                    false,
                    "the row's position in its file (0-based), so rows with equal times keep a stable order")
            .add(PID, StringType, true, "the process id as the trace writes it")
            .add(TID, StringType, true, "the thread id (or the GPU stream's track) as the trace writes it")
            .add(DEVICE, IntegerType, true, "the GPU or TPU device index the event ran on; null for CPU events")
            .add(STREAM, LongType, true, "the GPU stream (or XLA device line) of a GPU activity")
            .add(PH, StringType, true, "the Chrome trace phase (X complete, i instant, …), or the reader's equivalent")
            .add(
                    CAT,
                    StringType,
                    true,
                    "the event's category as the trace writes it (kernel, gpu_memcpy, cpu_op, user_annotation, cuda_runtime, …)")
            .add(NAME, StringType, true, "the event's name: kernel, op, annotation or runtime call")
            .add(
                    TS_NS,
                    LongType,
                    true,
                    "start, integer ns on the rank's clock (METRICS.md §1: microseconds parsed as decimals, plus baseTimeNanoseconds)")
            .add(DUR_NS, LongType, true, "duration in ns; null for instant events")
            .add(
                    STEP,
                    LongType,
                    true,
                    "the step (METRICS.md §1): of a GPU activity the step whose window holds its launch, else its own start; null outside every step")
            .add(CORRELATION, LongType, true, "the id joining a GPU activity to the runtime call that launched it")
            .add(EXTERNAL_ID, LongType, true, "Kineto's External id, joining a kernel or runtime call to its CPU op")
            .add(
                    LAUNCH_TS_NS,
                    LongType,
                    true,
                    "start of the CPU runtime call that launched a GPU activity (joined on correlation), when known")
            .add(
                    ACTIVITY_CLASS,
                    StringType,
                    true,
                    "the GPU activity's class (METRICS.md §2, udfs/ActivityClass): compute, comm, memcpy, memset, sync, …; null for CPU events")
            .add(
                    KERNEL_CATEGORY,
                    StringType,
                    true,
                    "the kernel's category (METRICS.md §2): gemm, attention, elementwise, …")
            .add(
                    COLLECTIVE,
                    StringType,
                    true,
                    "the collective kind of a communication activity (METRICS.md §2): all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send, recv, other")
            .add(IN_NELEMS, LongType, true, "In msg nelems: elements of the collective's input")
            .add(OUT_NELEMS, LongType, true, "Out msg nelems: elements of the collective's output")
            .add(DTYPE, StringType, true, "the element type of the message (Float, BFloat16, …)")
            .add(
                    IN_BYTES,
                    LongType,
                    true,
                    "input message bytes: in_nelems × the dtype's size (METRICS.md §2 Message size)")
            .add(
                    OUT_BYTES,
                    LongType,
                    true,
                    "output message bytes: out_nelems × the dtype's size (METRICS.md §2 Message size)")
            .add(
                    BYTES_SOURCE,
                    StringType,
                    true,
                    "where the message size came from: kernel_args, cpu_op_args, input_dims, et (a linked execution trace) or null")
            .add(
                    GROUP_SIZE,
                    IntegerType,
                    true,
                    "the collective's group size n: the Group size argument, else its process group's size, else the world size")
            .add(PG_NAME, StringType, true, "the collective's Process Group Name")
            .add(
                    PG_RANKS,
                    StringType,
                    true,
                    "the global ranks of the collective's process group, as the trace writes them")
            .add(
                    SEQ,
                    LongType,
                    true,
                    "the collective's sequence number within its process group (Seq, or record_param_comms' Concrete Inputs), which the cross-rank join matches on")
            .add(
                    ARGS,
                    DataTypes.createMapType(StringType, StringType, true),
                    true,
                    "every argument of the event as the trace writes it, by name (values as text)");

    public static int index(String column) {
        return SCHEMA.fieldIndex(column);
    }
}
