package org.tracelake.jobs.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.console.Progress;
import org.tracelake.schemas.CollectiveMemberSchema;
import org.tracelake.schemas.CollectiveSchema;
import org.tracelake.schemas.Tables;

/**
 * {@code report --trace}: one step (or a time window) of a workload as one Chrome trace-event JSON file, the format
 * Perfetto and chrome://tracing open — the way back from the tables to a timeline. Every rank is a process on the
 * workload's one aligned clock (events' {@code ts_ns}, µs from the first activity drawn); its GPU streams and CPU
 * threads are its threads, drawn from the {@code events} table as they are. A "collectives" thread per match key shows
 * each rank's part in each matched collective instance as the engine matched it ({@code collective_members}, the k-th
 * match, joined to {@code collectives}), and flow arrows (ph {@code s} / {@code f}) link an instance's first-arriving
 * rank to each other rank: one id per arrow, one start and one finish. The straggler rank ({@code straggler_lag}'s
 * {@code straggler_rank}, with its {@code last_arrival_share}) is named in its process name.
 *
 * <p>Nothing here matches, classifies or measures: instances, pairing, last arrivals and the straggler come from the
 * tables. The events never reach the driver: the JSON lines are made on the executors and written by one task, in
 * time order, as the file; the driver reads only counts and the step list.
 */
public final class ChromeTrace {
    /** At most this many activities are drawn by default (about 100 MB of JSON); the earliest are kept. */
    public static final long DEFAULT_MAX_EVENTS = 500_000;
    /** Thread ids: collectives lanes first, then GPU streams, then CPU threads (Perfetto sorts threads by these). */
    static final long COLLECTIVE_TID = 1;

    static final long GPU_TID = 1_000;
    static final long CPU_TID = 100_000;
    static final String FLOW_CAT = "collective";

    /** What to draw: one step, or the activities overlapping [fromMs, toMs) after the workload's first event. */
    public record Bounds(Long step, Double fromMs, Double toMs) {
        public static Bounds ofStep(long step) {
            return new Bounds(step, null, null);
        }

        public static Bounds ofWindow(double fromMs, double toMs) {
            return new Bounds(null, fromMs, toMs);
        }

        public String describe() {
            return step != null
                    ? "step " + step
                    : String.format(Locale.ROOT, "%.3f-%.3f ms after the workload's first event", fromMs, toMs);
        }
    }

    /** What was written: the file, the ranks drawn, activities kept of those in bounds, instances and arrows. */
    public record Written(String file, long ranks, long activities, long inBounds, long instances, long flows) {}

    private final SparkSession spark;
    private final ReportQueries queries;

    ChromeTrace(SparkSession spark, ReportQueries queries) {
        this.spark = spark;
        this.queries = queries;
    }

    /** Writes the trace of {@code workload} within {@code bounds} to {@code target}; at most {@code maxEvents} activities. */
    Written write(String workload, Bounds bounds, long maxEvents, String target) throws IOException {
        queries.forWorkload(Tables.EVENTS, workload).createOrReplaceTempView("_trace_ev");
        String inBounds;
        if (bounds.step() != null) {
            inBounds = "step = " + bounds.step();
        } else {
            Long first = spark.sql("SELECT min(ts_ns) AS first FROM _trace_ev")
                    .first()
                    .getAs("first");
            if (first == null) throw new IllegalArgumentException("workload " + workload + " has no timed events");
            long lo = first + Math.round(bounds.fromMs() * 1e6);
            long hi = first + Math.round(bounds.toMs() * 1e6);
            inBounds = "ts_ns < " + hi + " AND ts_ns + dur_ns >= " + lo;
        }
        // Complete events only (ph X; readers of formats without ph give null): what a timeline draws as slices.
        spark.sql("""
                SELECT rank, cat, name, pid, tid, device, stream, ts_ns, dur_ns, step, correlation, external_id,
                       activity_class, kernel_category, collective, in_bytes,
                       CASE WHEN activity_class IS NOT NULL THEN 1 ELSE 2 END AS lane_kind,
                       CASE WHEN activity_class IS NOT NULL THEN CAST(device AS STRING) ELSE pid END AS lane_a,
                       CASE WHEN activity_class IS NOT NULL THEN CAST(stream AS STRING) ELSE tid END AS lane_b
                FROM _trace_ev
                WHERE coalesce(ph, 'X') = 'X' AND rank IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
                  AND %s""".formatted(inBounds)).createOrReplaceTempView("_trace_all");
        Row extent = spark.sql("SELECT count(*) AS n, min(ts_ns) AS first FROM _trace_all")
                .first();
        long total = extent.getAs("n");
        if (total == 0)
            throw new IllegalArgumentException("workload " + workload + " has no activity in " + bounds.describe());
        long origin = extent.getAs("first");
        String kept = "_trace_all";
        if (total > maxEvents) {
            // the earliest maxEvents activities: a time cut from an approximate quantile, not a sort of them all
            double share = (double) maxEvents / total;
            long cut = spark.sql("SELECT percentile_approx(ts_ns, " + share + ", 1000000) AS cut FROM _trace_all")
                    .first()
                    .getAs("cut");
            spark.sql("SELECT * FROM _trace_all WHERE ts_ns <= " + cut).createOrReplaceTempView("_trace_kept");
            kept = "_trace_kept";
        } else {
            spark.sql("SELECT * FROM _trace_all").createOrReplaceTempView("_trace_kept");
        }
        long activities = kept.equals("_trace_all")
                ? total
                : spark.sql("SELECT count(*) AS n FROM _trace_kept").first().<Long>getAs("n");
        Progress.info(String.format(
                Locale.ROOT,
                "trace %s, %s: %,d activities%s",
                Progress.printable(workload),
                bounds.describe(),
                activities,
                activities < total ? String.format(Locale.ROOT, " (the earliest of %,d)", total) : ""));

        lanes();
        long instances = collectives(workload);
        long flows = spark.sql("SELECT count(*) AS n FROM _trace_inst WHERE arrival > 1")
                .first()
                .getAs("n");
        Progress.info(String.format(
                Locale.ROOT,
                "trace %s: %s on 2+ ranks, %s; writing the file (one Spark job over the kept activities)",
                Progress.printable(workload),
                Progress.count(instances, "collective instance"),
                Progress.count(flows, "flow arrow")));
        Row ranks = spark.sql("SELECT count(*) AS n, min(rank) AS first FROM _trace_ranks")
                .first();
        Dataset<Row> lines = metadata(workload, ranks.getAs("first"))
                .unionByName(slices(origin))
                .unionByName(memberSlices(origin))
                .unionByName(flowEvents(origin))
                .unionByName(headerAndFooter(workload, bounds, origin));
        String file = writeOneFile(lines, target);
        return new Written(file, ranks.getAs("n"), activities, total, instances, flows);
    }

    /** Thread ids of the GPU streams and CPU threads drawn (the same id for the same lane on every rank). */
    private void lanes() {
        spark.sql(String.format(Locale.ROOT, """
                SELECT lane_kind, lane_a, lane_b,
                       CASE lane_kind WHEN 1 THEN %d ELSE %d END - 1 + dense_rank() OVER (PARTITION BY lane_kind
                           ORDER BY try_cast(lane_a AS BIGINT) NULLS LAST, lane_a, try_cast(lane_b AS BIGINT) NULLS LAST, lane_b)
                         AS lane_tid
                FROM (SELECT DISTINCT lane_kind, lane_a, lane_b FROM _trace_kept)""", GPU_TID, CPU_TID)).createOrReplaceTempView("_trace_lanes");
        spark.sql("""
                SELECT s.*, l.lane_tid FROM _trace_kept s JOIN _trace_lanes l
                  ON s.lane_kind = l.lane_kind AND s.lane_a <=> l.lane_a AND s.lane_b <=> l.lane_b""").createOrReplaceTempView("_trace_sel");
        // every rank of the workload is a process, with or without activity in the bounds
        spark.sql("SELECT DISTINCT rank FROM _trace_ev WHERE rank IS NOT NULL").createOrReplaceTempView("_trace_ranks");
    }

    /**
     * The matched collective instances drawn: each rank's part ({@code collective_members}) inside the span its
     * drawn activities cover, of instances with at least two ranks drawn, joined to {@code collectives} for the
     * instance's kind, bytes, lag and last-arriving rank; {@code arrival} orders an instance's drawn ranks by start.
     */
    private long collectives(String workload) {
        Dataset<Row> members = queries.forWorkload(Tables.COLLECTIVE_MEMBERS, workload);
        Dataset<Row> instances = queries.forWorkload(Tables.COLLECTIVES, workload);
        if (members.columns().length == 0 || instances.columns().length == 0) {
            members = spark.createDataFrame(List.of(), CollectiveMemberSchema.SCHEMA);
            instances = spark.createDataFrame(List.of(), CollectiveSchema.SCHEMA);
        }
        members.createOrReplaceTempView("_trace_members");
        instances.createOrReplaceTempView("_trace_collectives");
        spark.sql("""
                SELECT m.workload, m.rank, m.match_key, m.k, m.ts_ns, m.end_ns, c.kind, c.bytes, c.group_size, c.lag_ns,
                       c.last_rank, c.min_start_ns,
                       count(*) OVER (PARTITION BY m.match_key, m.k) AS drawn,
                       row_number() OVER (PARTITION BY m.match_key, m.k ORDER BY m.ts_ns, m.rank) AS arrival
                FROM _trace_members m
                JOIN (SELECT rank, min(ts_ns) AS lo, max(ts_ns + dur_ns) AS hi FROM _trace_sel GROUP BY rank) b
                  ON b.rank = m.rank AND m.ts_ns >= b.lo AND m.ts_ns <= b.hi
                JOIN _trace_collectives c ON c.match_key = m.match_key AND c.k = m.k""").createOrReplaceTempView("_trace_drawn");
        spark.sql("SELECT * FROM _trace_drawn WHERE drawn >= 2").createOrReplaceTempView("_trace_inst");
        spark.sql(String.format(Locale.ROOT, """
                SELECT match_key, %d - 1 + dense_rank() OVER (PARTITION BY workload ORDER BY match_key) AS lane_tid
                FROM (SELECT DISTINCT workload, match_key FROM _trace_inst)""", COLLECTIVE_TID)).createOrReplaceTempView("_trace_coll_lanes");
        return spark.sql("SELECT count(DISTINCT match_key, k) AS n FROM _trace_inst")
                .first()
                .getAs("n");
    }

    private static String ts(String column, long origin) {
        return String.format(Locale.ROOT, "CAST((%s - %d) / 1000.0 AS DECIMAL(20, 3))", column, origin);
    }

    /**
     * Process and thread names and sort order; the straggler rank's process says so, with its last-arrival share.
     * Every line but the first starts with a comma (the first line of the array is the lowest rank's process_name).
     */
    private Dataset<Row> metadata(String workload, int lowestRank) {
        queries.forWorkload(Tables.METRICS, workload).createOrReplaceTempView("_trace_metrics");
        return spark.sql(String.format(Locale.ROOT, """
                WITH straggler AS (SELECT CAST(value AS INT) AS rank FROM _trace_metrics
                                   WHERE metric = 'straggler_lag' AND figure = 'straggler_rank' AND scope = 'workload'
                                     AND value IS NOT NULL),
                     share AS (SELECT rank, value AS share FROM _trace_metrics
                               WHERE metric = 'straggler_lag' AND figure = 'last_arrival_share' AND scope = 'rank'),
                     procs AS (SELECT r.rank, s.rank IS NOT NULL AS straggler, sh.share FROM _trace_ranks r
                               LEFT JOIN straggler s ON s.rank = r.rank LEFT JOIN share sh ON sh.rank = r.rank),
                     threads AS (SELECT DISTINCT s.rank, l.lane_tid, s.lane_kind, s.lane_a, s.lane_b FROM _trace_sel s
                                 JOIN _trace_lanes l ON s.lane_kind = l.lane_kind AND s.lane_a <=> l.lane_a AND s.lane_b <=> l.lane_b),
                     coll AS (SELECT DISTINCT i.rank, l.lane_tid, i.match_key FROM _trace_inst i
                              JOIN _trace_coll_lanes l ON l.match_key = i.match_key)
                SELECT 0 AS grp, CAST(rank AS BIGINT) AS o, 0 AS sub,
                       CASE WHEN rank = %d THEN '' ELSE ',' END || to_json(named_struct('ph', 'M', 'name', 'process_name',
                         'pid', rank, 'args', named_struct('name', 'rank ' || rank || CASE WHEN straggler
                           THEN ' (straggler: last to arrive in ' || format_number(100 * coalesce(share, 0), 1)
                                || '%% of its matched collectives)' ELSE '' END))) AS line
                FROM procs
                UNION ALL
                SELECT 0, CAST(rank AS BIGINT), 1, ',' || to_json(named_struct('ph', 'M', 'name', 'process_sort_index',
                         'pid', rank, 'args', named_struct('sort_index', rank))) FROM procs
                UNION ALL
                SELECT 0, CAST(rank AS BIGINT), 2, ',' || to_json(named_struct('ph', 'M', 'name', 'process_labels',
                         'pid', rank, 'args', named_struct('labels', 'straggler'))) FROM procs WHERE straggler
                UNION ALL
                SELECT 1, CAST(rank AS BIGINT), 0, ',' || to_json(named_struct('ph', 'M', 'name', 'thread_name',
                         'pid', rank, 'tid', lane_tid, 'args', named_struct('name',
                           CASE lane_kind WHEN 1 THEN 'GPU ' || coalesce(lane_a, '?') || ' stream ' || coalesce(lane_b, '?')
                           ELSE 'CPU pid ' || coalesce(lane_a, '?') || ' tid ' || coalesce(lane_b, '?') END)))
                FROM threads
                UNION ALL
                SELECT 1, CAST(rank AS BIGINT), 1, ',' || to_json(named_struct('ph', 'M', 'name', 'thread_sort_index',
                         'pid', rank, 'tid', lane_tid, 'args', named_struct('sort_index', lane_tid))) FROM threads
                UNION ALL
                SELECT 1, CAST(rank AS BIGINT), 0, ',' || to_json(named_struct('ph', 'M', 'name', 'thread_name',
                         'pid', rank, 'tid', lane_tid, 'args', named_struct('name', 'collectives ' || match_key))) FROM coll
                UNION ALL
                SELECT 1, CAST(rank AS BIGINT), 1, ',' || to_json(named_struct('ph', 'M', 'name', 'thread_sort_index',
                         'pid', rank, 'tid', lane_tid, 'args', named_struct('sort_index', lane_tid))) FROM coll
                """, lowestRank));
    }

    /** The activities as they are in events: GPU kernels, copies and sets on their stream, CPU ops on their thread. */
    private Dataset<Row> slices(long origin) {
        return spark.sql("""
                SELECT 2 AS grp, ts_ns AS o, 0 AS sub, ',' || to_json(named_struct('ph', 'X', 'cat', cat, 'name', name,
                         'pid', rank, 'tid', lane_tid, 'ts', %s, 'dur', CAST(dur_ns / 1000.0 AS DECIMAL(20, 3)),
                         'args', named_struct('step', step, 'correlation', correlation, 'External id', external_id,
                           'device', device, 'stream', stream, 'activity_class', activity_class,
                           'kernel_category', kernel_category, 'collective', collective, 'in_bytes', in_bytes))) AS line
                FROM _trace_sel""".formatted(ts("ts_ns", origin)));
    }

    /** Each rank's part in each drawn instance, on its match key's collectives thread; the last to arrive says so. */
    private Dataset<Row> memberSlices(long origin) {
        return spark.sql("""
                SELECT 2 AS grp, i.ts_ns AS o, 0 AS sub, ',' || to_json(named_struct('ph', 'X', 'cat', '%s',
                         'name', coalesce(i.kind, 'unknown') || ' #' || i.k, 'pid', i.rank, 'tid', l.lane_tid,
                         'ts', %s, 'dur', CAST((i.end_ns - i.ts_ns) / 1000.0 AS DECIMAL(20, 3)),
                         'args', named_struct('match_key', i.match_key, 'k', i.k, 'arrival', i.arrival,
                           'ranks_drawn', i.drawn, 'group_size', i.group_size, 'bytes', i.bytes,
                           'instance_lag_us', CAST(i.lag_ns / 1000.0 AS DECIMAL(20, 3)),
                           'start_after_first_us', CAST((i.ts_ns - i.min_start_ns) / 1000.0 AS DECIMAL(20, 3)),
                           'last_to_arrive', i.last_rank = i.rank))) AS line
                FROM _trace_inst i JOIN _trace_coll_lanes l ON l.match_key = i.match_key""".formatted(FLOW_CAT, ts("i.ts_ns", origin)));
    }

    /**
     * One arrow per instance and rank after the first to arrive: its start ({@code s}) on the first rank's slice, its
     * finish ({@code f}, bound to the enclosing slice) on the other rank's. The id is in {@code args.flow_id} too, for
     * readers that keep only args.
     */
    private Dataset<Row> flowEvents(long origin) {
        spark.sql("""
                SELECT i.*, row_number() OVER (PARTITION BY i.workload ORDER BY i.min_start_ns, i.match_key, i.k, i.arrival) AS flow_id
                FROM _trace_inst i WHERE i.arrival > 1""").createOrReplaceTempView("_trace_flows");
        return spark.sql("""
                WITH f AS (SELECT f.*, s.rank AS from_rank, s.ts_ns AS from_ts, l.lane_tid,
                                  coalesce(f.kind, 'unknown') || ' #' || f.k AS flow_name
                           FROM _trace_flows f
                           JOIN _trace_inst s ON s.match_key = f.match_key AND s.k = f.k AND s.arrival = 1
                           JOIN _trace_coll_lanes l ON l.match_key = f.match_key)
                SELECT 2 AS grp, from_ts AS o, 1 AS sub, ',' || to_json(named_struct('ph', 's', 'cat', '%1$s',
                         'name', flow_name, 'id', flow_id, 'pid', from_rank, 'tid', lane_tid, 'ts', %2$s,
                         'args', named_struct('flow_id', flow_id, 'match_key', match_key, 'k', k, 'to_rank', rank))) AS line
                FROM f
                UNION ALL
                SELECT 2, ts_ns, 2, ',' || to_json(named_struct('ph', 'f', 'bp', 'e', 'cat', '%1$s',
                         'name', flow_name, 'id', flow_id, 'pid', rank, 'tid', lane_tid, 'ts', %3$s,
                         'args', named_struct('flow_id', flow_id, 'match_key', match_key, 'k', k, 'from_rank', from_rank)))
                FROM f""".formatted(FLOW_CAT, ts("from_ts", origin), ts("ts_ns", origin)));
    }

    /** The object around the array: what the file shows and where its clock starts. */
    private Dataset<Row> headerAndFooter(String workload, Bounds bounds, long origin) throws IOException {
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("tracelake_workload", workload);
        other.put("bounds", bounds.describe());
        other.put("origin_epoch_ns", origin);
        other.put("clock", "every rank on the workload's aligned clock (events.ts_ns); ts = µs after origin_epoch_ns");
        String head = "{\"displayTimeUnit\":\"ns\",\"otherData\":" + new ObjectMapper().writeValueAsString(other)
                + ",\"traceEvents\":[";
        StructType schema = new StructType()
                .add("grp", DataTypes.IntegerType)
                .add("o", DataTypes.LongType)
                .add("sub", DataTypes.IntegerType)
                .add("line", DataTypes.StringType);
        return spark.createDataFrame(
                List.of(RowFactory.create(-1, 0L, 0, head), RowFactory.create(9, 0L, 0, "]}")), schema);
    }

    /**
     * The lines, sorted (header, metadata, then activities and arrows in time order, a slice before the arrows that
     * bind to it), written by one task as a text file beside the target and renamed to it: the driver moves a file,
     * it never holds the events.
     */
    private String writeOneFile(Dataset<Row> lines, String target) throws IOException {
        Path out = new Path(target);
        FileSystem fs = out.getFileSystem(spark.sparkContext().hadoopConfiguration());
        Path qualified = fs.makeQualified(out);
        Path tmp = new Path(qualified.getParent(), "." + qualified.getName() + ".parts");
        fs.delete(tmp, true);
        lines.repartition(1)
                .sortWithinPartitions("grp", "o", "sub")
                .select("line")
                .write()
                .option("compression", "none")
                .text(tmp.toString());
        Path part = null;
        for (FileStatus f : fs.listStatus(tmp)) {
            if (f.getPath().getName().startsWith("part-")) part = f.getPath();
        }
        if (part == null) throw new IOException("the trace was not written: no part file in " + tmp);
        // on the local file system, the raw one: a checksummed rename would carry a .crc file beside the output
        FileSystem mover = fs instanceof ChecksumFileSystem c ? c.getRawFileSystem() : fs;
        if (mover.exists(qualified)) mover.delete(qualified, false);
        if (!mover.rename(part, qualified)) throw new IOException("could not rename " + part + " to " + qualified);
        fs.delete(tmp, true);
        // a local file as a plain path, as the other report outputs are named
        return "file".equals(qualified.toUri().getScheme()) ? qualified.toUri().getPath() : qualified.toString();
    }
}
