package org.tracelake.jobs.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.udfs.UdfRegistry;

/**
 * Runs SQL for the {@code sql} job: statements from an argument or a file, or an interactive prompt that reads
 * statements until {@code ;} and knows a few backslash commands ({@code \d}, {@code \d TABLE}, {@code \f},
 * {@code \m [METRIC]}, {@code \q}). Every statement that returns columns has its result printed, in the session's
 * format (the commands' listings too: JSON lines or CSV when asked); only the printed rows reach the driver.
 */
public final class SqlRunner {
    /** Signature and meaning of every udf, for {@code \f}. */
    static final Map<String, String> UDF_HELP = Map.ofEntries(
            Map.entry(
                    "activity_class",
                    "activity_class(cat, name, hlo_category) -> comm|memcpy|memset|sync|compute, null for non-GPU events"),
            Map.entry(
                    "kernel_category",
                    "kernel_category(activity_class, name) -> comm|memory|gemm|attention|softmax|normalization|elementwise|reduction|other"),
            Map.entry(
                    "collective_kind",
                    "collective_kind(collective_name_arg, kernel_name, launching_op) -> all_reduce|all_gather|reduce_scatter|all_to_all|broadcast|reduce|send_recv|barrier|other"),
            Map.entry("dtype_size", "dtype_size(dtype) -> bytes per element (Float 4, BFloat16 2, ...)"),
            Map.entry(
                    "dtype_from_kernel_name",
                    "dtype_from_kernel_name(name) -> dtype spelled in a kernel name (_bf16, _f32, half, ...)"),
            Map.entry("message_bytes", "message_bytes(nelems, dtype) -> nelems x dtype_size(dtype)"),
            Map.entry(
                    "bus_size_bytes",
                    "bus_size_bytes(kind, in_bytes, out_bytes) -> S of the nccl-tests convention (out for all_gather, in otherwise)"),
            Map.entry(
                    "busbw_factor",
                    "busbw_factor(kind, n) -> 2(n-1)/n all_reduce, (n-1)/n all_gather/reduce_scatter/all_to_all, 1 otherwise"),
            Map.entry("algbw_gbps", "algbw_gbps(size_bytes, dur_ns) -> size / dur in GB/s (1e9)"),
            Map.entry(
                    "size_bucket",
                    "size_bucket(size_bytes) -> the largest power of 2 not above the size (busbw by size), 0 for 0, null when unknown"),
            Map.entry("busbw_gbps", "busbw_gbps(kind, in_bytes, out_bytes, n, dur_ns) -> algbw x busbw_factor"),
            Map.entry("profiler_step", "profiler_step(name) -> N of 'ProfilerStep#N', else null"),
            Map.entry(
                    "rank_from_file_name",
                    "rank_from_file_name(file_name) -> rank3, rank-3, worker3, kineto_trace_3, _3.json ..."),
            Map.entry("is_gpu_activity", "is_gpu_activity(cat) -> kernel, gpu_memcpy, gpu_memset"),
            Map.entry(
                    "step_name_priority",
                    "step_name_priority(name) -> rank of a step annotation kind (1 ProfilerStep, 2 vLLM, 3 SGLang, 4 TPU vLLM), else -1"),
            Map.entry(
                    "step_priority",
                    "step_priority(cat, name) -> the step rule, lower wins: 0 for an XLA device Steps-line event (xla_step), 5 for a JAX StepTraceAnnotation (step_annotation), step_name_priority(name) for CPU-side annotations (user_annotation; python_function for TPU vLLM), else -1"),
            Map.entry(
                    "is_copy_kernel",
                    "is_copy_kernel(name) -> memcpy|memset|copy_kernel|..., any case (memory_transfer_overhead)"),
            Map.entry("is_moe_kernel", "is_moe_kernel(name) -> moe|expert|routing|gating|... (moe_fraction)"),
            Map.entry(
                    "xla_async_half",
                    "xla_async_half(name) -> start|done for an XLA async collective half (all-reduce-start.3, send.2, send-done.2), else ''"),
            Map.entry(
                    "xla_instruction",
                    "xla_instruction(name) -> the instruction both halves share (all-reduce-done.3 -> all-reduce.3), else the name"),
            Map.entry(
                    "is_ccl_bench_comm_name",
                    "is_ccl_bench_comm_name(name) -> CCL-Bench's nccl|allreduce|allgather|... kernel regex (memory_transfer_overhead, total_communication_time)"),
            Map.entry(
                    "is_ccl_bench_event_cat",
                    "is_ccl_bench_event_cat(cat) -> kernel, Op, gpu_op, device_op or absent: the events memory_transfer_overhead reads"),
            Map.entry(
                    "is_nccl_dev_kernel",
                    "is_nccl_dev_kernel(name) -> name starts with ncclDevKernel_, any case (straggler)"));

    private final SparkSession spark;
    private final ResultPrinter.Format format;
    private final int limit;
    private final PrintStream out;
    private final PrintStream err;
    private List<String> tables = List.of();
    /** The warehouse's views, kept up to date before each statement; null when the views are a server's (serve). */
    private WarehouseViews views;
    /** When the warehouse was last looked at for new tables (one listing per table; on an object store, requests). */
    private long viewsCheckedNanos;

    public SqlRunner(SparkSession spark, ResultPrinter.Format format, int limit, PrintStream out, PrintStream err) {
        this.spark = spark;
        this.format = format;
        this.limit = limit;
        this.out = out;
        this.err = err;
    }

    /**
     * Registers the warehouse's tables as views (and the metric reference); returns their names. The views read the
     * tables' files afresh at every query, and tables a refresh creates later get theirs before the next statement,
     * so a long-lived prompt keeps answering across refreshes, with the new rows.
     */
    public List<String> register(Warehouse warehouse) {
        return register(warehouse, null);
    }

    /** {@link #register(Warehouse)}, the tables as run {@code asOfRun} left them (null: as they are now). */
    public List<String> register(Warehouse warehouse, String asOfRun) {
        views = new WarehouseViews(spark, warehouse, WarehouseViews.Scope.SESSION);
        if (asOfRun != null) views.asOf(asOfRun);
        tables = views.refresh();
        viewsCheckedNanos = System.nanoTime();
        if (tables.isEmpty()) {
            err.println("no tables under " + warehouse.root() + ": run `tracelake refresh` (or ingest) first");
        }
        return tables;
    }

    /** Runs one statement and prints its result when it returns columns. */
    public void execute(String statement) {
        if (views != null && System.nanoTime() - viewsCheckedNanos > 2_000_000_000L) {
            tables = views.refresh(); // tables a refresh created since: at most every 2 s
            viewsCheckedNanos = System.nanoTime();
        }
        Dataset<Row> df = spark.sql(statement);
        if (df.columns().length > 0) ResultPrinter.print(df, format, limit, out);
    }

    /** Runs statements in order; stops at the first that fails. Returns false when one failed. */
    public boolean runAll(List<String> statements) {
        for (String s : statements) {
            try {
                execute(s);
            } catch (Exception e) {
                err.println("error: " + message(e));
                return false;
            }
        }
        return true;
    }

    /**
     * The interactive prompt: statements end with {@code ;} (and may span lines); a line starting with a backslash
     * is a command. Reads until {@code \q} or the end of the input; a last statement without {@code ;} still runs.
     * Returns false when any statement failed (each failure is printed and the prompt goes on).
     */
    public boolean interactive(BufferedReader in, boolean prompts) throws IOException {
        if (prompts) {
            out.println(
                    "tracelake sql: statements end with ';'.  \\d tables   \\d TABLE columns   \\f functions   \\m metrics   \\q quit");
        }
        boolean ok = true;
        StringBuilder buffer = new StringBuilder();
        while (true) {
            if (prompts) {
                out.print(SqlStatementSplitter.isBlank(buffer.toString()) ? "tracelake> " : "        -> ");
                out.flush();
            }
            String line = in.readLine();
            if (line == null) break;
            if (SqlStatementSplitter.isBlank(buffer.toString()) && line.strip().startsWith("\\")) {
                buffer.setLength(0);
                if (!command(line.strip())) return ok;
                continue;
            }
            buffer.append(line).append('\n');
            SqlStatementSplitter.Scan scan = SqlStatementSplitter.scan(buffer.toString());
            for (String s : scan.statements()) {
                try {
                    execute(s);
                } catch (Exception e) {
                    ok = false;
                    err.println("error: " + message(e));
                }
            }
            buffer.setLength(0);
            buffer.append(scan.rest());
        }
        if (!SqlStatementSplitter.isBlank(buffer.toString()))
            ok &= runAll(List.of(buffer.toString().strip()));
        return ok;
    }

    /** A backslash command; false for quit. */
    boolean command(String line) {
        String[] parts = line.split("\\s+");
        switch (parts[0]) {
            case "\\q", "\\quit" -> {
                return false;
            }
            case "\\d" -> {
                if (parts.length > 1) describe(parts[1]);
                else listTables();
            }
            case "\\f" -> listFunctions();
            case "\\m" -> metricReference(parts.length > 1 ? parts[1] : null);
            case "\\?", "\\h", "\\help" ->
                out.println(
                        "\\d            the tables\n\\d TABLE      a table's columns\n\\f            tracelake's SQL functions (udfs)\n"
                                + "\\m            the metrics: figure, unit, category (the metric_reference view)\n"
                                + "\\m METRIC     one metric: what it means, its unit, what it needs\n"
                                + "\\q            quit (or end of input)\nSQL           any Spark SQL statement, ended with ';'");
            default -> err.println("unknown command " + parts[0] + " (\\? lists them)");
        }
        return true;
    }

    /**
     * The metric reference (docs/METRICS-REFERENCE.md, from the metric catalog) through the {@code metric_reference}
     * view, so the prompt answers the same locally and through {@code serve}: every metric in short, or one in full.
     */
    private void metricReference(String metric) {
        try {
            if (metric == null) {
                ResultPrinter.print(
                        spark.sql(
                                "SELECT metric, figure, unit, category, label FROM " + WarehouseViews.METRIC_REFERENCE),
                        format,
                        ResultPrinter.ALL_ROWS,
                        out);
                return;
            }
            Dataset<Row> rows = spark.sql(
                    "SELECT metric, figure, unit, better, needs, description FROM " + WarehouseViews.METRIC_REFERENCE
                            + " WHERE lower(metric) = lower(" + WarehouseViews.literal(metric) + ")");
            if (rows.isEmpty()) {
                err.println("no metric " + metric + " (\\m lists them)");
                return;
            }
            ResultPrinter.print(rows, format, ResultPrinter.ALL_ROWS, out);
        } catch (Exception e) {
            err.println("error: " + message(e));
        }
    }

    private void listTables() {
        List<String> names = new ArrayList<>(tables);
        for (Row r : spark.sql("SHOW VIEWS").collectAsList()) {
            String name = r.getString(r.fieldIndex("viewName"));
            if (!names.contains(name)) names.add(name);
        }
        List<Object[]> rows = new ArrayList<>();
        for (String t : names) {
            Object cols;
            try {
                cols = spark.table(t).schema().fields().length;
            } catch (Exception e) { // a view of the session's own whose table is gone: listed, not fatal to \d
                cols = "?";
            }
            rows.add(new Object[] {
                t,
                cols,
                TableCatalog.of(t) != null
                        ? TableCatalog.of(t).doc()
                        : t.equals(WarehouseViews.METRIC_REFERENCE)
                                ? "every metric and figure: meaning, unit, what it needs (\\m)"
                                : t.equals(WarehouseViews.STRAGGLER_RUNS)
                                        ? "every run's straggler: rank, node, cause of its lateness (archive-wide)"
                                        : "(a view of this session)"
            });
        }
        listing(new String[] {"table", "columns", "about"}, rows);
    }

    private void describe(String table) {
        if (!spark.catalog().tableExists(table)) {
            err.println("no table " + table + " (\\d lists them)");
            return;
        }
        List<Object[]> rows = new ArrayList<>();
        for (StructField f : spark.table(table).schema().fields()) {
            rows.add(new Object[] {
                f.name(), f.dataType().simpleString() + (f.nullable() ? "" : " not null"), comment(table, f)
            });
        }
        listing(new String[] {"column", "type", "about"}, rows);
    }

    /**
     * What a column means: its comment in the table (the Iceberg column doc), else, for a warehouse table whose
     * metadata predates column docs, the comment of the table catalog's definition of the column.
     */
    private static String comment(String table, StructField f) {
        if (f.getComment().isDefined()) return f.getComment().get();
        TableCatalog.Table def = TableCatalog.of(table);
        if (def == null || !Arrays.asList(def.schema().fieldNames()).contains(f.name())) return "";
        StructField declared = def.schema().apply(f.name());
        return declared.getComment().isDefined() ? declared.getComment().get() : "";
    }

    private void listFunctions() {
        List<Object[]> rows = new ArrayList<>();
        for (String name : UdfRegistry.names()) rows.add(new Object[] {name, UDF_HELP.getOrDefault(name, "")});
        listing(new String[] {"function", "signature and meaning"}, rows);
    }

    /**
     * A listing of a backslash command in the session's format: for the table format, columns separated by two
     * spaces, as a person reads them (the first column's name starts each line, so a listing can be searched);
     * JSON lines and CSV for programs, like any query's result.
     */
    private void listing(String[] cols, List<Object[]> rows) {
        if (format != ResultPrinter.Format.TABLE) {
            ResultPrinter.print(cols, rows, format, out);
            return;
        }
        int[] width = new int[cols.length];
        for (int i = 0; i < cols.length; i++) width[i] = cols[i].length();
        for (Object[] r : rows)
            for (int i = 0; i < cols.length; i++)
                width[i] = Math.max(width[i], ResultPrinter.cell(r[i]).length());
        List<Object[]> all = new ArrayList<>();
        all.add(cols);
        all.addAll(rows);
        for (Object[] r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols.length; i++) {
                String c = ResultPrinter.cell(r[i]);
                boolean last = i == cols.length - 1;
                if (i > 0) line.append("  ");
                line.append(
                        r[i] instanceof Number ? " ".repeat(width[i] - c.length()) + c : last ? c : pad(c, width[i]));
            }
            out.println(line);
        }
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(Math.max(0, w - s.length()));
    }

    /** The first line of an error, which for Spark's analysis errors says what is wrong. */
    static String message(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
