package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.report.ReportModel.CommBucket;
import org.tracelake.jobs.report.ReportModel.KernelTime;
import org.tracelake.jobs.report.ReportModel.LagMap;
import org.tracelake.jobs.report.ReportModel.MetricRow;
import org.tracelake.jobs.report.ReportModel.RankLastArrivals;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.KernelTotalsSchema;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The Spark side of the reports: every query filters one workload (by the Column API: a workload name is never
 * spliced into SQL text), aggregates on the executors, and brings back only small results — metric rows,
 * per-rank and per-step summaries, per-(kind, size) buckets, at most {@link #LAG_INSTANCE_CAP} collective
 * instances and one step's timeline capped at {@code timelineCap} activities.
 */
public final class ReportQueries {
    public static final int DEFAULT_TIMELINE_CAP = 4000;
    public static final int LAG_INSTANCE_CAP = 300;
    public static final int STEP_ROW_CAP = 20000;
    public static final int MEMORY_POINTS = 600;
    public static final int TOP_KERNELS = 15;

    /** Card columns that are not facts to show (maps, bookkeeping). */
    private static final List<String> CARD_SKIP =
            List.of("workload", "card", "field_sources", "status", "error", "ingest_run_id", "card_path", "card_hash");

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;

    public ReportQueries(WarehouseTables tables) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
    }

    /** The workloads that have metrics, sorted. */
    public List<String> workloads() {
        if (!warehouse.exists(Tables.METRICS)) return List.of();
        List<String> out = new ArrayList<>();
        for (Row r : table(Tables.METRICS)
                .select("workload")
                .distinct()
                .orderBy("workload")
                .collectAsList()) {
            out.add(r.getAs("workload"));
        }
        return out;
    }

    public boolean hasWorkload(String workload) {
        return warehouse.exists(Tables.METRICS)
                && !forWorkload(Tables.METRICS, workload).limit(1).isEmpty();
    }

    /** Every workload-scope metric row of a workload, ordered (for comparisons and exports). */
    public List<MetricRow> workloadMetrics(String workload) {
        if (!warehouse.exists(Tables.METRICS)) return List.of();
        return metricRows(
                forWorkload(Tables.METRICS, workload).where(col("scope").equalTo(lit("workload"))));
    }

    /** The workload-scope rows one earlier run of the workload recorded (metrics_history); empty when none. */
    public List<MetricRow> historyMetrics(String workload, String runId) {
        if (!warehouse.exists(Tables.METRICS_HISTORY)) return List.of();
        return metricRows(forWorkload(Tables.METRICS_HISTORY, workload)
                .where(col("run_id").equalTo(lit(runId)).and(col("scope").equalTo(lit("workload")))));
    }

    public ReportModel build(String workload, Long step, int timelineCap) {
        if (!warehouse.exists(Tables.METRICS)) {
            throw new IllegalStateException("no metrics under " + warehouse.root() + ": run `tracelake refresh` first");
        }
        // events only for the timeline (drawn, not counted); every figure comes from the engine's tables. An archive
        // of Flight Recorder dumps alone has metrics and no events table: its timeline is empty.
        forWorkload(Tables.EVENTS, workload).createOrReplaceTempView("_report_events");
        kernelTotals(workload);
        Dataset<Row> metrics = forWorkload(Tables.METRICS, workload);
        LinkedHashMap<String, Object> card = new LinkedHashMap<>();
        String runId = null;
        if (warehouse.exists(Tables.WORKLOADS)) {
            List<Row> w = forWorkload(Tables.WORKLOADS, workload).collectAsList();
            if (!w.isEmpty()) {
                Row r = w.get(0);
                runId = r.getAs("ingest_run_id");
                // scala.collection.Map stays qualified: Map here is java.util's.
                Map<?, ?> cardMap = r.isNullAt(r.fieldIndex("card"))
                        ? Map.of()
                        : CollectionConverters.asJava(r.<scala.collection.Map<Object, Object>>getAs("card"));
                Object description = cardMap.get("description");
                if (description != null)
                    card.put("description", description.toString().strip());
                for (StructField f : r.schema().fields()) {
                    if (CARD_SKIP.contains(f.name())) continue;
                    Object v = r.get(r.fieldIndex(f.name()));
                    if (v != null) card.put(f.name(), v);
                }
            }
        }
        // a line per stage with its counts (stderr, as refresh's progress): a report of a large workload takes minutes
        String name = Progress.printable(workload);
        ReportModel.Files files = files(workload);
        Progress.info(String.format(
                Locale.ROOT,
                "report %s: card, %s (%,d ok), %s",
                name,
                ReportFormatting.count(files.total(), "trace file"),
                files.ok(),
                ReportFormatting.count(files.events(), "event")));
        List<MetricRow> workloadRows = metricRows(metrics.where(col("scope").equalTo(lit("workload"))));
        List<MetricRow> rankRows = metricRows(metrics.where(col("scope").equalTo(lit("rank"))));
        List<MetricRow> keyRows = metricRows(
                metrics.where(col("scope").equalTo(lit("key")).and(col("rank").isNull())));
        List<MetricRow> steps = stepMeans(metrics);
        Progress.info(String.format(
                Locale.ROOT,
                "report %s: metrics, %,d workload-scope, %,d per rank, %,d by key, %,d step means",
                name,
                workloadRows.size(),
                rankRows.size(),
                keyRows.size(),
                steps.size()));
        List<CommBucket> buckets = commBuckets(metrics);
        List<RankLastArrivals> arrivals = lastArrivals(workload);
        LagMap lag = lagMap(workload);
        Progress.info(String.format(
                Locale.ROOT,
                "report %s: communication, %s, %s (lag map of %,d)",
                name,
                ReportFormatting.count(buckets.size(), "kind and size bucket"),
                ReportFormatting.count(lag.totalInstances(), "matched collective instance"),
                lag.instances().size()));
        ReportModel.Timeline timeline = new TimelineQuery(spark)
                .timeline(step, timelineCap, card.get("count_per_node") instanceof Number n ? n.longValue() : null);
        Progress.info(String.format(
                Locale.ROOT,
                "report %s: timeline of %s, %,d activities (%,d drawn)",
                name,
                timeline.step() == null ? "no step" : "step " + timeline.step(),
                timeline.totalSpans(),
                timeline.spans().size()));
        List<KernelTime> categories = categoryByRank();
        List<KernelTime> top = topKernels();
        ReportModel.Memory memory = new MemoryQuery(tables).series(workload, MEMORY_POINTS);
        ReportModel.Hang hang = new HangQuery(tables).hang(workload);
        ReportModel.AllToAll allToAll = new AllToAllQuery(tables).allToAll(workload, metrics);
        SideTableQueries side = new SideTableQueries(tables, this);
        ReportModel.Telemetry telemetry = side.telemetry(workload, Tables.ITERATION_TELEMETRY);
        ReportModel.ExecutionTrace executionTrace = side.executionTrace(workload, Tables.ET_NODES);
        Progress.info(String.format(
                Locale.ROOT,
                "report %s: kernels (%s), memory (%s), hangs (%s), all-to-all (%s), telemetry (%s), execution trace (%s)",
                name,
                ReportFormatting.count(categories.size(), "rank and category row"),
                ReportFormatting.count(memory.series().size(), "device"),
                ReportFormatting.count(hang.rows().size(), "stuck collective"),
                ReportFormatting.count(allToAll.instances().size(), "instance"),
                ReportFormatting.count(telemetry.steps().size(), "step"),
                ReportFormatting.count(executionTrace.nodes(), "node")));
        return new ReportModel(
                workload,
                runId,
                card,
                files,
                workloadRows,
                rankRows,
                keyRows,
                steps,
                buckets,
                arrivals,
                lag,
                timeline,
                categories,
                top,
                memory,
                hang,
                allToAll,
                telemetry,
                executionTrace,
                findings(workload));
    }

    /** The workload's findings, most severe first (a few rows: one per rule and rank at most). */
    List<ReportModel.Finding> findings(String workload) {
        List<ReportModel.Finding> out = new ArrayList<>();
        if (!warehouse.exists(Tables.FINDINGS)) return out;
        for (Row r : forWorkload(Tables.FINDINGS, workload).collectAsList()) {
            out.add(new ReportModel.Finding(
                    r.getAs("severity"),
                    r.getAs("rule"),
                    r.getAs("rank"),
                    r.getAs("value"),
                    r.getAs("threshold"),
                    r.getAs("unit"),
                    r.getAs("cause"),
                    r.getAs("evidence"),
                    r.getAs("message")));
        }
        out.sort(java.util.Comparator.comparingInt((ReportModel.Finding f) -> switch (f.severity()) {
                    case "critical" -> 0;
                    case "warning" -> 1;
                    default -> 2;
                })
                .thenComparing(ReportModel.Finding::rule));
        return out;
    }

    /**
     * What {@code report --compare} puts side by side for one workload: its ranks, collectives by kind and size
     * bucket (as the workload page has them), and GPU time per rank by kernel category and by kernel name.
     */
    public ComparedRun comparedRun(String workload) {
        if (!warehouse.exists(Tables.KERNEL_TOTALS)) return new ComparedRun(0, List.of(), List.of(), List.of());
        kernelTotals(workload);
        long ranks = spark.sql("SELECT count(DISTINCT rank) AS ranks FROM _report_kernels")
                .first()
                .getAs("ranks");
        return new ComparedRun(
                ranks,
                commBuckets(forWorkload(Tables.METRICS, workload)),
                gpuTime("coalesce(kernel_category, 'other')", Integer.MAX_VALUE),
                gpuTime("name", COMPARED_KERNEL_NAMES));
    }

    /** The kernels of a run the comparison looks at by name: its most time-consuming ones. */
    static final int COMPARED_KERNEL_NAMES = 500;

    /** One workload's figures for the comparison's breakdown. */
    public record ComparedRun(
            long ranks, List<CommBucket> collectives, List<KernelTime> byCategory, List<KernelTime> byName) {}

    /** GPU activity time (and count) grouped by an expression of kernel_totals (the view _report_kernels), largest first. */
    private List<KernelTime> gpuTime(String groupBy, int limit) {
        List<KernelTime> out = new ArrayList<>();
        for (Row r : spark.sql(String.format(Locale.ROOT, """
                SELECT %s AS g, min(coalesce(kernel_category, 'other')) AS category, sum(calls) AS calls,
                       sum(dur_ns) AS t
                FROM _report_kernels
                GROUP BY 1 ORDER BY t DESC, g LIMIT %d""", groupBy, limit)).collectAsList()) {
            out.add(new KernelTime(null, r.getAs("category"), r.getAs("g"), r.getAs("calls"), r.getAs("t")));
        }
        return out;
    }

    /** The workload's kernel_totals rows as the view _report_kernels (empty when the table does not exist). */
    private void kernelTotals(String workload) {
        Dataset<Row> t = warehouse.exists(Tables.KERNEL_TOTALS)
                ? forWorkload(Tables.KERNEL_TOTALS, workload)
                : spark.createDataFrame(new ArrayList<Row>(), KernelTotalsSchema.SCHEMA);
        t.createOrReplaceTempView("_report_kernels");
    }

    Warehouse warehouse() {
        return warehouse;
    }

    Dataset<Row> table(String name) {
        return tables.live(name);
    }

    SparkSession spark() {
        return spark;
    }

    /** One workload's rows of a table; empty, with the table's columns, when nothing was committed to it. */
    Dataset<Row> forWorkload(String name, String workload) {
        return table(name).where(col("workload").equalTo(lit(workload)));
    }

    private ReportModel.Files files(String workload) {
        if (!warehouse.exists(Tables.TRACE_FILES)) return new ReportModel.Files(0, 0, 0, 0, 0, 0, 0, List.of());
        Dataset<Row> tf = forWorkload(Tables.TRACE_FILES, workload);
        tf.createOrReplaceTempView("_report_files");
        Row r = spark.sql("""
                SELECT count(*) AS files, count_if(status = 'ok') AS ok, count_if(status = 'skipped') AS skipped,
                       count_if(status = 'error') AS errors, coalesce(sum(events_read), 0) AS events_read,
                       coalesce(sum(events_dropped), 0) AS events_dropped
                FROM _report_files WHERE %s""".formatted(traceFilesOnly())).first();
        long ranks =
                spark.sql("""
                SELECT count(DISTINCT r) AS ranks FROM _report_files LATERAL VIEW OUTER explode(%s) x AS r
                WHERE status = 'ok' AND %s""".formatted(RANKS_HELD, traceFilesOnly())).first().getAs("ranks");
        List<String> errors = new ArrayList<>();
        for (Row e : spark.sql("""
                SELECT element_at(split(path, '/'), -1) AS file, error FROM _report_files
                WHERE status = 'error' ORDER BY path LIMIT 20""").collectAsList()) {
            errors.add(e.<String>getAs("file") + ": " + e.<String>getAs("error"));
        }
        return new ReportModel.Files(
                r.getAs("files"),
                r.getAs("ok"),
                r.getAs("skipped"),
                r.getAs("errors"),
                ranks,
                r.getAs("events_read"),
                r.getAs("events_dropped"),
                errors);
    }

    /**
     * The ranks a trace_files row's events carry: its rank, or for a file of several devices without one (an
     * XSpace, an Nsight report) the device ranks the reader listed in metadata {@code ranks} ("[0, 1]"). The run
     * summary counts the same ranks.
     */
    private static final String RANKS_HELD = "CASE WHEN rank IS NOT NULL THEN array(rank) ELSE"
            + " transform(split(regexp_replace(try_element_at(metadata, 'ranks'), '[\\\\[\\\\] ]', ''), ','),"
            + " x -> try_cast(x AS INT)) END";

    /** trace_files rows that are traces: not the workload card, not a torchtitan config (issue 14 item 10). */
    private static String traceFilesOnly() {
        StringBuilder notTraces = new StringBuilder();
        for (String f : TraceFormat.NOT_TRACES)
            notTraces
                    .append(notTraces.length() == 0 ? "" : ", ")
                    .append('\'')
                    .append(f)
                    .append('\'');
        return "(format IS NULL OR format NOT IN (" + notTraces + "))";
    }

    private static List<MetricRow> metricRows(Dataset<Row> df) {
        if (df.columns().length == 0) return List.of();
        List<MetricRow> out = new ArrayList<>();
        for (Row r : df.select("metric", "figure", "key", "rank", "step", "value", "unit", "status", "reason")
                .orderBy(
                        col("metric"),
                        col("figure").asc_nulls_first(),
                        col("key").asc_nulls_first(),
                        col("rank").asc_nulls_first(),
                        col("step").asc_nulls_first())
                .limit(STEP_ROW_CAP)
                .collectAsList()) {
            out.add(new MetricRow(
                    r.getAs("metric"),
                    r.getAs("figure"),
                    r.getAs("key"),
                    r.getAs("rank"),
                    r.getAs("step"),
                    r.getAs("value"),
                    r.getAs("unit"),
                    r.getAs("status"),
                    r.getAs("reason")));
        }
        return out;
    }

    /** Step-scope metrics averaged over ranks: one row per (metric, figure, key, step); rank = ranks averaged. */
    private List<MetricRow> stepMeans(Dataset<Row> metrics) {
        if (metrics.columns().length == 0) return List.of();
        metrics.where(col("scope").equalTo(lit("step"))).createOrReplaceTempView("_report_step_metrics");
        List<MetricRow> out = new ArrayList<>();
        for (Row r : spark.sql("""
                SELECT metric, figure, key, CAST(count(value) AS INT) AS ranks, step, avg(value) AS value, first(unit) AS unit
                FROM _report_step_metrics WHERE step IS NOT NULL
                GROUP BY metric, figure, key, step
                ORDER BY metric, figure NULLS FIRST, key NULLS FIRST, step""").limit(STEP_ROW_CAP).collectAsList()) {
            out.add(new MetricRow(
                    r.getAs("metric"),
                    r.getAs("figure"),
                    r.getAs("key"),
                    r.getAs("ranks"),
                    r.getAs("step"),
                    r.getAs("value"),
                    r.getAs("unit"),
                    "ok",
                    null));
        }
        return out;
    }

    /**
     * Communication by collective kind and power-of-2 message size (METRICS.md §2: S and busbw): calls, bytes and time
     * from kernel_totals, the median bus bandwidth of each bucket from its busbw_gbps row in metrics.
     */
    private List<CommBucket> commBuckets(Dataset<Row> metrics) {
        Map<String, Double> medians = new HashMap<>();
        if (metrics.columns().length > 0) {
            for (Row r : metrics.where(
                            col("metric").equalTo("busbw_gbps").and(col("scope").equalTo("key")))
                    .select("key", "value")
                    .collectAsList()) {
                medians.put(r.getAs("key"), r.getAs("value"));
            }
        }
        List<CommBucket> out = new ArrayList<>();
        for (Row r : spark.sql("""
                SELECT collective, size_bucket, sum(calls) AS calls, sum(bytes) AS bytes, sum(dur_ns) AS dur_ns,
                       sum(busbw_samples) AS samples
                FROM _report_kernels WHERE activity_class = 'comm'
                GROUP BY 1, 2 ORDER BY coalesce(collective, 'unknown'), size_bucket NULLS FIRST""").collectAsList()) {
            String kind = r.getAs("collective");
            Long bucket = r.getAs("size_bucket");
            long samples = r.getAs("samples");
            // the family keys a bucket's median by the kind as it is (null included) and the bucket
            Double busbw = samples > 0 ? medians.get(kind + " bytes>=" + bucket) : null;
            out.add(new CommBucket(
                    kind == null ? "unknown" : kind,
                    bucket,
                    r.getAs("calls"),
                    r.getAs("bytes"),
                    r.isNullAt(r.fieldIndex("dur_ns")) ? 0L : r.<Long>getAs("dur_ns"),
                    samples,
                    busbw));
        }
        return out;
    }

    /** Per rank, from the collectives table: instances matched and instances where it started last. */
    private List<RankLastArrivals> lastArrivals(String workload) {
        if (!warehouse.exists(Tables.COLLECTIVES)) return List.of();
        forWorkload(Tables.COLLECTIVES, workload).createOrReplaceTempView("_report_collectives");
        long total = spark.sql("SELECT count(*) AS n FROM _report_collectives")
                .first()
                .getAs("n");
        List<RankLastArrivals> out = new ArrayList<>();
        for (Row r : spark.sql("""
                SELECT r.rank, coalesce(l.n, 0) AS last FROM (SELECT DISTINCT rank FROM _report_kernels
                                                      WHERE rank IS NOT NULL AND activity_class = 'comm') r
                LEFT JOIN (SELECT last_rank, count(*) AS n FROM _report_collectives GROUP BY last_rank) l
                  ON l.last_rank = r.rank
                ORDER BY r.rank""").collectAsList()) {
            out.add(new RankLastArrivals(r.getAs("rank"), total, r.getAs("last")));
        }
        return out;
    }

    /**
     * Each rank's start offset in the first {@link #LAG_INSTANCE_CAP} collective instances (time order), from the
     * collectives table and its members (collective_members: the ranks of each instance, as the metrics job matched
     * them), joined on the executors.
     */
    private LagMap lagMap(String workload) {
        if (!warehouse.exists(Tables.COLLECTIVES) || !warehouse.exists(Tables.COLLECTIVE_MEMBERS)) {
            return new LagMap(List.of(), List.of(), List.of(), 0);
        }
        forWorkload(Tables.COLLECTIVE_MEMBERS, workload).createOrReplaceTempView("_report_members");
        long total = spark.sql("SELECT count(*) AS n FROM _report_collectives")
                .first()
                .getAs("n");
        // The first instances in time: a top-k (each task keeps its first few), not a row_number over the whole table,
        // which would move every instance into one partition (Spark's "No Partition Defined for Window" warning).
        List<Row> rows =
                spark.sql(String.format(Locale.ROOT, """
                WITH i AS (SELECT match_key, k, kind, min_start_ns FROM _report_collectives
                           ORDER BY min_start_ns, match_key, k LIMIT %d)
                SELECT i.min_start_ns, i.match_key, i.kind, i.k, m.rank, CAST(m.ts_ns - i.min_start_ns AS DOUBLE) / 1e3 AS offset_us
                FROM i JOIN _report_members m ON m.match_key = i.match_key AND m.k = i.k
                ORDER BY i.min_start_ns, i.match_key, i.k, m.rank""", LAG_INSTANCE_CAP)).collectAsList();
        // rows come in instance order: an instance's index is the number of instances seen before it
        List<String> instances = new ArrayList<>();
        List<Integer> rowInstance = new ArrayList<>();
        String previous = null;
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Row r : rows) {
            String id = r.<Long>getAs("min_start_ns") + "\u0000" + r.<String>getAs("match_key") + "\u0000" + k(r);
            String kind = r.getAs("kind");
            if (!id.equals(previous)) instances.add((kind == null ? "unknown" : kind) + " #" + k(r));
            previous = id;
            rowInstance.add(instances.size() - 1);
            ranks.add(r.getAs("rank"));
        }
        List<Integer> rankList = new ArrayList<>(ranks);
        List<double[]> cells = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            cells.add(new double[] {
                rowInstance.get(i),
                rankList.indexOf(rows.get(i).<Integer>getAs("rank")),
                rows.get(i).<Double>getAs("offset_us")
            });
        }
        return new LagMap(instances, rankList, cells, total);
    }

    private List<KernelTime> categoryByRank() {
        List<KernelTime> out = new ArrayList<>();
        for (Row r : spark.sql("""
                SELECT rank, coalesce(kernel_category, 'other') AS category, sum(calls) AS calls, sum(dur_ns) AS t
                FROM _report_kernels
                WHERE rank IS NOT NULL
                GROUP BY 1, 2 ORDER BY 1, 2""").collectAsList()) {
            out.add(new KernelTime(r.getAs("rank"), r.getAs("category"), null, r.getAs("calls"), r.getAs("t")));
        }
        return out;
    }

    private List<KernelTime> topKernels() {
        return gpuTime("name", TOP_KERNELS);
    }

    /** An instance's k, whatever integer type the table gives it. */
    private static long k(Row r) {
        return r.<Number>getAs("k").longValue();
    }

    static List<String> columns(Dataset<Row> df) {
        return Arrays.asList(df.columns());
    }
}
