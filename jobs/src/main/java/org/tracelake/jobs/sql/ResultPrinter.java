package org.tracelake.jobs.sql;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Prints a query result as an aligned table, JSON lines or CSV. Only the first {@code limit} rows travel. The table
 * rounds doubles to 6 significant digits for the eye; JSON and CSV are for programs and print every value as stored
 * (a double as the shortest decimal that reads back as the same double).
 */
public final class ResultPrinter {
    public enum Format {
        TABLE,
        JSON,
        CSV
    }

    /** The limit that prints every row (the metric reference at the prompt). */
    public static final int ALL_ROWS = Integer.MAX_VALUE;

    private ResultPrinter() {}

    /**
     * The rows to fetch for a table of at most {@code limit}: one more, which says there are more; no more than
     * {@link #ALL_ROWS} ({@code limit + 1} would overflow to a negative limit, which Spark refuses).
     */
    static int oneMore(int limit) {
        return limit >= ALL_ROWS ? ALL_ROWS : limit + 1;
    }

    public static void print(Dataset<Row> df, Format format, int limit, PrintStream out) {
        switch (format) {
            case JSON -> df.limit(limit).toJSON().collectAsList().forEach(out::println);
            case CSV -> printCsv(df, limit, out);
            case TABLE -> printTable(df, limit, out);
        }
    }

    private static void printTable(Dataset<Row> df, int limit, PrintStream out) {
        printTable(df.columns(), values(df.limit(oneMore(limit)).collectAsList()), limit, out);
    }

    /**
     * The aligned table of {@code rows} (each a row's values, as {@link Row#get} gives them), at most {@code limit};
     * a last row beyond the limit says there are more. The thin Spark Connect client ({@link ConnectSql}) prints
     * through here too, so both ways print the same table.
     */
    static void printTable(String[] cols, List<Object[]> rows, int limit, PrintStream out) {
        boolean more = rows.size() > limit;
        if (more) rows = rows.subList(0, limit);
        List<String[]> cells = new ArrayList<>();
        int[] width = new int[cols.length];
        for (int i = 0; i < cols.length; i++) width[i] = cols[i].length();
        for (Object[] r : rows) {
            String[] c = new String[cols.length];
            for (int i = 0; i < cols.length; i++) {
                c[i] = cell(r[i]);
                width[i] = Math.max(width[i], c[i].length());
            }
            cells.add(c);
        }
        out.println(line(cols, width, null));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < cols.length; i++) rule.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        out.println(rule);
        for (int k = 0; k < cells.size(); k++) out.println(line(cells.get(k), width, rows.get(k)));
        out.println("(" + rows.size()
                + (more
                        ? "+ rows; showing the first " + limit + ", raise --limit for more)"
                        : rows.size() == 1 ? " row)" : " rows)"));
    }

    /**
     * Rows made on the driver (the prompt's listings of tables, columns and functions) in a format for programs: JSON
     * lines (an object per row, null values left out, as Spark's {@code toJSON} writes them) or CSV.
     */
    static void print(String[] cols, List<Object[]> rows, Format format, PrintStream out) {
        switch (format) {
            case CSV -> printCsv(cols, rows, out);
            case TABLE -> printTable(cols, rows, ALL_ROWS, out);
            case JSON -> {
                for (Object[] r : rows) {
                    StringBuilder sb = new StringBuilder("{");
                    for (int i = 0; i < cols.length; i++) {
                        if (r[i] == null) continue;
                        if (sb.length() > 1) sb.append(',');
                        sb.append(jsonString(cols[i])).append(':');
                        sb.append(r[i] instanceof Number ? exactCell(r[i]) : jsonString(cell(r[i])));
                    }
                    out.println(sb.append('}'));
                }
            }
        }
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    static String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    /** One line of the table; numbers (of {@code row}, null for the header) are aligned right. */
    private static String line(String[] values, int[] width, Object[] row) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) sb.append(" | ");
            boolean numeric = row != null && row[i] instanceof Number;
            String v = values[i];
            String pad = " ".repeat(width[i] - v.length());
            sb.append(numeric ? pad + v : v + (i == values.length - 1 ? "" : pad));
        }
        return sb.toString();
    }

    private static void printCsv(Dataset<Row> df, int limit, PrintStream out) {
        printCsv(df.columns(), values(df.limit(limit).collectAsList()), out);
    }

    /** CSV: a header, then every row with every value as stored (nulls empty). */
    static void printCsv(String[] cols, List<Object[]> rows, PrintStream out) {
        out.println(String.join(",", cols));
        for (Object[] r : rows) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                if (i > 0) sb.append(',');
                String v = r[i] == null ? "" : exactCell(r[i]);
                sb.append(v.matches(".*[\",\\n].*") ? '"' + v.replace("\"", "\"\"") + '"' : v);
            }
            out.println(sb);
        }
    }

    private static List<Object[]> values(List<Row> rows) {
        List<Object[]> values = new ArrayList<>(rows.size());
        for (Row r : rows) {
            Object[] v = new Object[r.length()];
            for (int i = 0; i < v.length; i++) v[i] = r.get(i);
            values.add(v);
        }
        return values;
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
        String s = new java.math.BigDecimal(d)
                .round(new java.math.MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    /**
     * A double as stored: the shortest decimal that parses back to the same double (87.412863 stays 87.412863), in
     * plain notation with ".0" on whole numbers, in E notation outside [1e-6, 1e21) (where JavaScript switches too); Java, Python and JavaScript read both.
     * JDK 17's Double.toString is not always the shortest (JDK-4511638), hence the search.
     */
    static String exact(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return Double.toString(d);
        if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
        java.math.BigDecimal full = new java.math.BigDecimal(d);
        java.math.BigDecimal shortest = full;
        for (int digits = 1; digits <= 17; digits++) {
            java.math.BigDecimal b = full.round(new java.math.MathContext(digits, java.math.RoundingMode.HALF_EVEN));
            if (b.doubleValue() == d) {
                shortest = b;
                break;
            }
        }
        shortest = shortest.stripTrailingZeros();
        double a = Math.abs(d);
        if (a >= 1e-6 && a < 1e21) {
            String s = shortest.toPlainString();
            return s.contains(".") ? s : s + ".0";
        }
        String s = shortest.unscaledValue().abs().toString();
        int exponent = s.length() - 1 - shortest.scale();
        String mantissa = s.length() == 1 ? s + ".0" : s.charAt(0) + "." + s.substring(1);
        return (d < 0 ? "-" : "") + mantissa + "E" + exponent;
    }

    /** A float as stored: the shortest decimal that reads back as the same float. */
    static String exact(float f) {
        if (Float.isNaN(f) || Float.isInfinite(f)) return Float.toString(f);
        for (int digits = 1; digits <= 9; digits++) {
            java.math.BigDecimal b = new java.math.BigDecimal(f).round(new java.math.MathContext(digits));
            if (b.floatValue() == f) return exact(b.doubleValue());
        }
        return exact((double) f);
    }

    /** A cell for CSV: numbers exactly as stored, the rest as the table shows it. */
    static String exactCell(Object v) {
        if (v instanceof Double d) return exact(d);
        if (v instanceof Float f) return exact(f.floatValue());
        return cell(v);
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
