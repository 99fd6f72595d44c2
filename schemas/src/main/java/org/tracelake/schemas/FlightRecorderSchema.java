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
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("ordinal", LongType, false)
            .add("record_id", LongType, true)
            .add("pg_id", LongType, true)
            .add("pg_name", StringType, true)
            .add("pg_desc", StringType, true)
            .add("collective_seq_id", LongType, true)
            .add("p2p_seq_id", LongType, true)
            .add("op_id", LongType, true)
            .add("op", StringType, true)
            .add("is_p2p", BooleanType, true)
            .add("input_sizes", SIZES, true)
            .add("input_dtypes", DataTypes.createArrayType(StringType, true), true)
            .add("output_sizes", SIZES, true)
            .add("output_dtypes", DataTypes.createArrayType(StringType, true), true)
            .add("state", StringType, true)
            .add("time_created_ns", LongType, true)
            .add("time_started_ns", LongType, true)
            .add("time_completed_ns", LongType, true)
            .add("retired", BooleanType, true)
            .add("timeout_ms", LongType, true)
            .add("thread_name", StringType, true)
            .add("thread_id", StringType, true);

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
            .add("workload", StringType, false)
            .add("rank", IntegerType, true)
            .add("source_file", StringType, false)
            .add("pg_id", LongType, true)
            .add("pg_name", StringType, true)
            .add("pg_desc", StringType, true)
            .add("pg_ranks", DataTypes.createArrayType(IntegerType, true), true)
            .add("last_enqueued_collective", LongType, true)
            .add("last_started_collective", LongType, true)
            .add("last_completed_collective", LongType, true);

    /**
     * {@code collective_hangs}: one row per stuck collective (METRICS.md §4 "Hangs"): a (process group, collective
     * sequence id) that some member rank never enqueued ({@code missing_ranks}, sorted) while another holds it in its
     * ring buffer. {@code is_root}: the first such collective in time ({@code created_ns}) of one of its missing
     * ranks. {@code member_ranks} / {@code holding_ranks}: the group's ranks that left a dump, and those whose
     * entries hold the collective.
     */
    public static final StructType HANGS = new StructType()
            .add("workload", StringType, false)
            .add("pg_name", StringType, true)
            .add("pg_desc", StringType, true)
            .add("pg_id", LongType, true)
            .add("collective_seq_id", LongType, false)
            .add("op", StringType, true)
            .add("input_size", StringType, true)
            .add("dtype", StringType, true)
            .add("created_ns", LongType, true)
            .add("missing_ranks", DataTypes.createArrayType(IntegerType, true), true)
            .add("holding_ranks", DataTypes.createArrayType(IntegerType, true), true)
            .add("is_root", BooleanType, false);
}
