package org.tracelake.jobs.export;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.metrics.MetricCatalog;
import org.tracelake.jobs.report.ReportFileWriter;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The leaderboard export, in the shape of CCL-Bench's {@code website/benchmark_data.json} (written there by
 * {@code website/generate_data.py}):
 * <pre>
 * {"generated_at": ISO-8601 time, "all_metrics": [sorted names], "metric_categories": [{id, label, description}],
 *  "metric_info": {name: {label, description, higher_is_better, unit, category}},
 *  "rows": [{"trace": workload, "metadata": {the card, flattened with CCL-Bench's keys}, "metrics": {name: value|null}}]}
 * </pre>
 * A metric's leaderboard value is its headline — the first figure of METRICS.md §5 (the catalog order) — at
 * workload scope. Where a workload's headline rows are a breakdown (several keys, e.g. busbw_gbps per collective
 * kind) each key is its own leaderboard metric {@code metric.key}. Values are rounded to 6 significant digits, as
 * CCL-Bench rounds its own; a value that cannot be computed is null (never -1 or NaN).
 */
public final class LeaderboardExport {
    /** Card facts in CCL-Bench's metadata order: key → (card path, or a workloads column after "col:"). */
    private static final String[][] METADATA = {
        {"description", "description"},
        {"hf_url", "hf_url"},
        {"trace_url", "trace_url"},
        {"model_family", "col:model_family"},
        {"phase", "col:phase"},
        {"precision", "col:precision"},
        {"moe", "workload.model.moe"},
        {"granularity", "workload.model.granularity"},
        {"epochs", "workload.model.epochs"},
        {"iteration", "col:iteration"},
        {"batch_size", "col:batch_size"},
        {"seq_len", "col:seq_len"},
        {"dataset", "col:dataset"},
        {"hardware_type", "col:xpu_type"},
        {"hardware_model", "col:xpu_model"},
        {"total_count", "col:device_count"},
        {"count_per_node", "col:count_per_node"},
        {"network_topology", "col:topology"},
        {"bandwidth_scaleout", "workload.hardware.network_topo.bandwidth_gbps[0]"},
        {"bandwidth_scaleup", "workload.hardware.network_topo.bandwidth_gbps[1]"},
        {"driver_version", "workload.hardware.driver_version"},
        {"framework", "col:framework"},
        {"compiler", "Model-executor.framework.compiler_tool_selection"},
        {"tp", "col:tp"},
        {"pp", "col:pp"},
        {"pp_mb", "col:pp_mb"},
        {"dp_replicate", "col:dp_replicate"},
        {"dp_shard", "col:dp_shard"},
        {"ep", "col:ep"},
        {"cp", "col:cp"},
        {"comm_library", "col:comm_library"},
        {"comm_library_ver", "col:comm_library_version"}
    };
    /** tracelake's extra facts, after CCL-Bench's. */
    private static final String[] EXTRA_COLUMNS = {
        "framework_version",
        "num_params",
        "num_params_embedding",
        "num_params_active",
        "num_layers",
        "num_heads",
        "head_dim",
        "input_len",
        "output_len",
        "card_hash"
    };

    private final SparkSession spark;
    private final Warehouse warehouse;
    private final WarehouseTables tables;

    public LeaderboardExport(WarehouseTables tables) {
        this.spark = tables.spark();
        this.warehouse = tables.warehouse();
        this.tables = tables;
    }

    /** The export of the given workloads (every workload with metrics when empty). */
    public Map<String, Object> build(Collection<String> only, OffsetDateTime generatedAt) {
        if (!warehouse.exists(Tables.METRICS))
            throw new IllegalStateException("no metrics table under " + warehouse.root());
        Dataset<Row> metrics = tables.live(Tables.METRICS).where(col("scope").equalTo(lit("workload")));
        if (!only.isEmpty()) metrics = metrics.where(col("workload").isin(only.toArray()));
        List<Row> rows = metrics.select("workload", "metric", "figure", "key", "value", "unit")
                .orderBy("workload", "metric", "figure", "key")
                .collectAsList();
        Map<String, Row> cards = new TreeMap<>();
        if (warehouse.exists(Tables.WORKLOADS)) {
            for (Row r : tables.live(Tables.WORKLOADS).collectAsList()) {
                cards.put(r.getAs("workload"), r);
            }
        }
        List<String> catalogOrder = catalogFigures();
        // workload → metric → rows of that metric
        Map<String, Map<String, List<Row>>> byWorkload = new TreeMap<>();
        for (Row r : rows) {
            byWorkload
                    .computeIfAbsent(r.getAs("workload"), w -> new TreeMap<>())
                    .computeIfAbsent(r.getAs("metric"), m -> new ArrayList<>())
                    .add(r);
        }
        // metric → its headline rows, per workload
        Map<String, Map<String, List<Row>>> headlines = new TreeMap<>();
        Set<String> breakdowns = new HashSet<>(); // metrics whose headline is a breakdown by key on some workload
        for (Map.Entry<String, Map<String, List<Row>>> w : byWorkload.entrySet()) {
            for (Map.Entry<String, List<Row>> m : w.getValue().entrySet()) {
                String headline = headlineFigure(m.getKey(), m.getValue(), catalogOrder);
                List<Row> hr = m.getValue().stream()
                        .filter(r -> Objects.equals(r.getAs("figure"), headline))
                        .toList();
                headlines.computeIfAbsent(w.getKey(), k -> new TreeMap<>()).put(m.getKey(), hr);
                if (hr.stream().filter(r -> r.getAs("key") != null).count() > 1) breakdowns.add(m.getKey());
            }
        }
        Map<String, Map<String, Double>> values = new TreeMap<>();
        Map<String, String> units = new TreeMap<>();
        Map<String, String[]> origin = new TreeMap<>(); // leaderboard name → (metric, figure, key)
        for (Map.Entry<String, Map<String, List<Row>>> w : headlines.entrySet()) {
            Map<String, Double> v = new TreeMap<>();
            for (Map.Entry<String, List<Row>> m : w.getValue().entrySet()) {
                List<Row> hr = m.getValue();
                String headline = hr.isEmpty() ? null : hr.get(0).getAs("figure");
                Row plain = hr.stream()
                        .filter(r -> r.getAs("key") == null)
                        .findFirst()
                        .orElse(null);
                // A workload without the inputs of a breakdown metric (e.g. busbw_gbps per collective kind, on a
                // trace with no sized communication) has one unkeyed row without a value: it adds no column of its
                // own, its per-key columns are simply null.
                if (plain != null && plain.getAs("value") == null && hr.size() == 1 && breakdowns.contains(m.getKey()))
                    continue;
                if (plain != null || hr.size() == 1) {
                    Row r = plain != null ? plain : hr.get(0);
                    put(v, units, origin, m.getKey(), r, headline);
                } else {
                    for (Row r : hr) put(v, units, origin, m.getKey() + "." + r.<String>getAs("key"), r, headline);
                }
            }
            values.put(w.getKey(), v);
        }
        TreeSet<String> all = new TreeSet<>();
        values.values().forEach(v -> all.addAll(v.keySet()));

        Map<String, Object> out = new LinkedHashMap<>();
        out.put(
                "generated_at",
                generatedAt.format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx", Locale.ROOT)));
        out.put("all_metrics", new ArrayList<>(all));
        out.put("metric_categories", LeaderboardCategories.CATEGORIES);
        Map<String, Object> info = new LinkedHashMap<>();
        for (String name : all) info.put(name, info(name, origin.get(name), units.get(name)));
        out.put("metric_info", info);
        List<Map<String, Object>> outRows = new ArrayList<>();
        for (Map.Entry<String, Map<String, Double>> w : values.entrySet()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("trace", w.getKey());
            row.put("metadata", metadata(w.getKey(), cards.get(w.getKey())));
            Map<String, Object> mv = new LinkedHashMap<>();
            for (String name : all) mv.put(name, w.getValue().get(name));
            row.put("metrics", mv);
            outRows.add(row);
        }
        out.put("rows", outRows);
        return out;
    }

    public String write(String target, Collection<String> only) throws IOException {
        Map<String, Object> doc = build(only, OffsetDateTime.now(ZoneOffset.UTC));
        String json = new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
        return ReportFileWriter.write(spark.sparkContext().hadoopConfiguration(), target, json);
    }

    private static void put(
            Map<String, Double> v,
            Map<String, String> units,
            Map<String, String[]> origin,
            String name,
            Row r,
            String figure) {
        Double value = r.getAs("value");
        String unit = r.getAs("unit");
        v.put(name, value == null ? null : round6(value));
        if (unit != null) units.putIfAbsent(name, unit);
        origin.putIfAbsent(name, new String[] {r.getAs("metric"), figure, r.getAs("key")});
    }

    /** Like CCL-Bench's {@code float(f"{val:.6g}")}; NaN and infinities are no value. */
    static Double round6(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return null;
        if (v == 0) return 0.0;
        return new BigDecimal(v).round(new MathContext(6)).doubleValue();
    }

    /** The first figure the catalog lists for the metric; else no figure when the rows have one such, else the first. */
    private static String headlineFigure(String metric, List<Row> rows, List<String> catalog) {
        String prefix = metric + ",";
        for (String entry : catalog) {
            if (entry.startsWith(prefix)) {
                String f = entry.substring(prefix.length());
                return f.isEmpty() ? null : f;
            }
        }
        TreeSet<String> figures = new TreeSet<>();
        for (Row r : rows) {
            String figure = r.getAs("figure");
            if (figure == null) return null;
            figures.add(figure);
        }
        return figures.first();
    }

    private static Map<String, Object> info(String name, String[] origin, String unit) {
        String metric = origin[0];
        MetricCatalog.Entry i = MetricCatalog.of(metric);
        String description = i == null ? "see METRICS.md: " + metric : i.description();
        if (origin[1] != null) description += " (figure " + origin[1] + ")";
        if (!name.equals(metric) && origin[2] != null) description += " — " + origin[2];
        String label =
                i == null ? name : i.label() + (name.equals(metric) || origin[2] == null ? "" : " · " + origin[2]);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", label);
        m.put("description", description);
        m.put("higher_is_better", i != null && i.higherIsBetter());
        m.put("unit", unit == null ? "" : unit);
        m.put("category", i == null ? "model_execution" : i.category());
        return m;
    }

    /** The card flattened with CCL-Bench's metadata keys ("" where the card says nothing), then tracelake's extras. */
    static Map<String, Object> metadata(String workload, Row w) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("workload_name", workload);
        if (w == null) return meta;
        Map<String, String> card = new TreeMap<>();
        if (!w.isNullAt(w.fieldIndex("card"))) {
            // scala.collection.Map stays qualified: Map here is java.util's.
            CollectionConverters.asJava(w.<scala.collection.Map<String, String>>getAs("card"))
                    .forEach((k, v) -> card.put(k, v));
        }
        for (String[] m : METADATA) {
            Object v;
            if (m[1].startsWith("col:")) {
                String column = m[1].substring(4);
                v = w.isNullAt(w.fieldIndex(column)) ? null : w.getAs(column);
            } else {
                v = typed(card.get(m[1]));
            }
            if (m[0].equals("moe") && v == null) v = false;
            meta.put(m[0], v == null ? "" : v instanceof String s ? s.strip() : v);
        }
        Map<String, String> env = new TreeMap<>();
        String envPrefix = "Model-executor.communication_library.env.";
        card.forEach((k, v) -> {
            if (k.startsWith(envPrefix)) env.put(k.substring(envPrefix.length()), v);
        });
        meta.put("comm_env", env);
        meta.put("protocol_selection", list(card, "Model-executor.protocol_selection"));
        meta.put("trace_types", list(card, "metric_source.traces"));
        meta.put("metric_traces", list(card, "metric_source.metrics_specific_trace"));
        for (String c : EXTRA_COLUMNS) {
            if (w.schema().getFieldIndex(c).isDefined() && !w.isNullAt(w.fieldIndex(c))) meta.put(c, w.getAs(c));
        }
        return meta;
    }

    /** {@code prefix[0]}, {@code prefix[1]}, … of the flattened card, in index order. */
    private static List<Object> list(Map<String, String> card, String prefix) {
        TreeMap<Integer, Object> items = new TreeMap<>();
        card.forEach((k, v) -> {
            if (k.startsWith(prefix + "[") && k.endsWith("]")) {
                try {
                    items.put(Integer.parseInt(k.substring(prefix.length() + 1, k.length() - 1)), typed(v));
                } catch (NumberFormatException ignored) {
                    // a nested key such as prefix[0].name: not a plain list item
                }
            }
        });
        return new ArrayList<>(items.values());
    }

    /** A card value as YAML would type it: integers, decimals and booleans as such, the rest as text. */
    static Object typed(String v) {
        if (v == null) return null;
        String s = v.strip();
        if (s.matches("-?[0-9]{1,18}")) return Long.parseLong(s);
        if (s.matches("-?[0-9]+\\.[0-9]+([eE][-+]?[0-9]+)?")) return Double.parseDouble(s);
        if (s.equals("true") || s.equals("false")) return Boolean.parseBoolean(s);
        return s;
    }

    /** The catalog's (metric, figure) pairs in order, "metric,figure" (figure empty for single-number metrics). */
    static List<String> catalogFigures() {
        List<String> out = new ArrayList<>();
        for (MetricCatalog.Entry e : MetricCatalog.entries())
            out.add(e.metric() + "," + (e.figure() == null ? "" : e.figure()));
        return out;
    }
}
