package org.tracelake.jobs.sql;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/** Prints a query result as an aligned table, JSON lines or CSV. Only the first {@code limit} rows travel. */
public final class ResultPrinter {
    public enum Format { TABLE, JSON, CSV }

    private ResultPrinter() {}

    public static void print(Dataset<Row> df, Format format, int limit, PrintStream out) {
        switch (format) {
            case JSON -> df.limit(limit).toJSON().collectAsList().forEach(out::println);
            case CSV -> printCsv(df, limit, out);
            case TABLE -> printTable(df, limit, out);
        }
    }

    private static void printTable(Dataset<Row> df, int limit, PrintStream out) {
        String[] cols = df.columns();
        List<Row> rows = df.limit(limit + 1).collectAsList();
        boolean more = rows.size() > limit;
        if (more) rows = rows.subList(0, limit);
        List<String[]> cells = new ArrayList<>();
        int[] width = new int[cols.length];
        for (int i = 0; i < cols.length; i++) width[i] = cols[i].length();
        for (Row r : rows) {
            String[] c = new String[cols.length];
            for (int i = 0; i < cols.length; i++) {
                c[i] = cell(r.get(i));
                width[i] = Math.max(width[i], c[i].length());
            }
            cells.add(c);
        }
        out.println(line(cols, width, rows, true));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < cols.length; i++) rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        out.println(rule);
        for (int k = 0; k < cells.size(); k++) out.println(line(cells.get(k), width, rows.subList(k, k + 1), false));
        out.println("(" + rows.size() + (more ? "+ rows; showing the first " + limit + ", raise --limit for more)" : rows.size() == 1 ? " row)" : " rows)"));
    }

    private static String line(String[] values, int[] width, List<Row> row, boolean header) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) sb.append(" | ");
            boolean numeric = !header && !row.isEmpty() && row.get(0).get(i) instanceof Number;
            String v = values[i];
            String pad = " ".repeat(width[i] - v.length());
            sb.append(numeric ? pad + v : v + (i == values.length - 1 ? "" : pad));
        }
        return sb.toString();
    }

    private static void printCsv(Dataset<Row> df, int limit, PrintStream out) {
        out.println(String.join(",", df.columns()));
        for (Row r : df.limit(limit).collectAsList()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length(); i++) {
                if (i > 0) sb.append(',');
                String v = r.isNullAt(i) ? "" : cell(r.get(i));
                sb.append(v.matches(".*[\",\\n].*") ? '"' + v.replace("\"", "\"\"") + '"' : v);
            }
            out.println(sb);
        }
    }

    /**
     * A double with at most 6 significant digits and no trailing zeros (2.25, 0.089, 20937965632.0 for whole
     * numbers so a double still reads as one); exponent notation outside [1e-4, 1e15).
     */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return Double.toString(d);
        if (d == 0) return "0.0";
        double a = Math.abs(d);
        if (d == Math.rint(d) && a < 1e15) return String.format(Locale.ROOT, "%.1f", d);
        if (a < 1e-4 || a >= 1e15) return String.format(Locale.ROOT, "%.5e", d).replaceAll("\\.?0+e", "e");
        String s = new java.math.BigDecimal(d).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    public static String cell(Object v) {
        if (v == null) return "NULL";
        if (v instanceof Double d) return number(d);
        if (v instanceof Float f) return number(f.doubleValue());
        if (v instanceof scala.collection.Map<?, ?> m) return m.mkString("{", ", ", "}");
        if (v instanceof scala.collection.Seq<?> s) return s.mkString("[", ", ", "]");
        return v.toString();
    }
}
