package org.tracelake.schemas;

import static org.apache.spark.sql.types.DataTypes.BooleanType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.LongType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The tables of PyTorch NCCL Flight Recorder dumps (FORMATS.md §9) and the hang attribution computed from them
 * (METRICS.md §4 "Hangs"): {@link #ENTRIES} ({@code flight_recorder}), {@link #GROUPS}
 * ({@code process_group_status}), both written by the reader, and {@link #HANGS} ({@code collective_hangs}),
 * written by the metrics phase.
 */
public final class FlightRecorderSchema {
    private FlightRecorderSchema() {}

    /**
     * {@code flight_recorder}: one row per entry of a rank's ring buffer, in dump order ({@code ordinal}, oldest
     * first). {@code pg_name}/{@code pg_desc} from the entry's {@code process_group} tuple, {@code pg_id} the
     * rank-local id, {@code op} = {@code profiling_name} as written ("nccl:all_to_all", "nccl:send 0->3"),
     * {@code input_sizes}/{@code output_sizes} the dims of each tensor ([[4096, 5120]]) with their dtypes beside;
     * times in epoch ns as written (the started/completed ones null when timing was off); {@code timeout_ms} per entry.
     */
    private static final DataType SIZES = DataTypes.createArrayType(DataTypes.createArrayType(LongType, true), true);

    public static final StructType ENTRIES = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add(
                    "ordinal",
                    LongType,
                    false,
                    "the row's position in its file (0-based), so rows with equal times keep a stable order")
            .add("record_id", LongType, true, "the entry's record id in the ring buffer")
            .add("pg_id", LongType, true, "the rank-local id of the process group")
            .add(
                    "pg_name",
                    StringType,
                    true,
                    "the process group's name (from the entry's process_group tuple, or pg_config)")
            .add("pg_desc", StringType, true, "the process group's description (default_pg, …)")
            .add("collective_seq_id", LongType, true, "the collective's sequence id within its process group")
            .add("p2p_seq_id", LongType, true, "the point-to-point sequence id")
            .add("op_id", LongType, true, "the op id")
            .add("op", StringType, true, "profiling_name as written (nccl:all_to_all, nccl:send 0->3)")
            .add("is_p2p", BooleanType, true, "whether the entry is a point-to-point operation")
            .add("input_sizes", SIZES, true, "the dims of each input tensor ([[4096, 5120]])")
            .add("input_dtypes", DataTypes.createArrayType(StringType, true), true, "the dtype of each input tensor")
            .add("output_sizes", SIZES, true, "the dims of each output tensor")
            .add("output_dtypes", DataTypes.createArrayType(StringType, true), true, "the dtype of each output tensor")
            .add("state", StringType, true, "the entry's state as the dump writes it")
            .add("time_created_ns", LongType, true, "when the entry was created, epoch ns as written")
            .add("time_started_ns", LongType, true, "when it started, epoch ns; null when timing was off")
            .add("time_completed_ns", LongType, true, "when it completed, epoch ns; null when timing was off")
            .add("retired", BooleanType, true, "whether the entry was retired")
            .add("timeout_ms", LongType, true, "the entry's timeout, ms")
            .add("thread_name", StringType, true, "the thread that enqueued the entry")
            .add("thread_id", StringType, true, "the id of that thread");

    /**
     * {@code process_group_status}: one row per process group a rank's dump knows, from its {@code pg_config} (keyed
     * by group name: {@code pg_name}, {@code pg_desc}, {@code pg_ranks} = the global ranks) and its
     * {@code pg_status} (keyed by the rank-local {@code pg_id}: the last enqueued/started/completed collective
     * sequence ids; started is -1 when timing was off). The two are joined within the dump through the
     * {@code (pg_id, process_group)} pairs its entries carry; a status no entry of this rank names keeps only its
     * {@code pg_id} (a rank with no entries, e.g. one stuck holding the GIL, still says how far each group got), a
     * group no entry names keeps only its name. The attribution resolves such ids across ranks.
     */
    public static final StructType GROUPS = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "rank",
                    IntegerType,
                    true,
                    "the global rank (METRICS.md §1): distributedInfo.rank, a rank marker in the file name, else the file's place in sorted order; null when not known")
            .add("source_file", StringType, false, "the input file the row was read from, its path")
            .add("pg_id", LongType, true, "the rank-local id of the process group")
            .add(
                    "pg_name",
                    StringType,
                    true,
                    "the process group's name (from the entry's process_group tuple, or pg_config)")
            .add("pg_desc", StringType, true, "the process group's description (default_pg, …)")
            .add("pg_ranks", DataTypes.createArrayType(IntegerType, true), true, "the group's global ranks (pg_config)")
            .add(
                    "last_enqueued_collective",
                    LongType,
                    true,
                    "the sequence id of the last collective the rank enqueued in the group")
            .add(
                    "last_started_collective",
                    LongType,
                    true,
                    "the sequence id of the last one started; -1 when timing was off")
            .add("last_completed_collective", LongType, true, "the sequence id of the last one completed");

    /**
     * {@code collective_hangs}: one row per stuck collective (METRICS.md §4 "Hangs"): a (process group, collective
     * sequence id) that some member rank never enqueued ({@code missing_ranks}, sorted) while another holds it in its
     * ring buffer. {@code is_root}: the first such collective in time ({@code created_ns}) of one of its missing
     * ranks. {@code member_ranks} / {@code holding_ranks}: the group's ranks that left a dump, and those whose
     * entries hold the collective.
     */
    public static final StructType HANGS = new StructType()
            .add("workload", StringType, false, "the workload: its folder's name in the archive (the partition column)")
            .add(
                    "pg_name",
                    StringType,
                    true,
                    "the process group's name (from the entry's process_group tuple, or pg_config)")
            .add("pg_desc", StringType, true, "the process group's description (default_pg, …)")
            .add("pg_id", LongType, true, "the rank-local id of the process group")
            .add("collective_seq_id", LongType, false, "the collective's sequence id within its process group")
            .add("op", StringType, true, "profiling_name as written (nccl:all_to_all, nccl:send 0->3)")
            .add("input_size", StringType, true, "the input size of the stuck collective's first holder")
            .add("dtype", StringType, true, "the input dtype of the stuck collective's first holder")
            .add(
                    "created_ns",
                    LongType,
                    true,
                    "when the collective was first created on a rank that holds it, epoch ns")
            .add(
                    "missing_ranks",
                    DataTypes.createArrayType(IntegerType, true),
                    true,
                    "the member ranks that never enqueued the collective, sorted")
            .add(
                    "holding_ranks",
                    DataTypes.createArrayType(IntegerType, true),
                    true,
                    "the ranks whose entries hold the collective")
            .add(
                    "is_root",
                    BooleanType,
                    false,
                    "whether this is the first stuck collective in time (created_ns) of one of its missing ranks");
}
