package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Number formatting and aligned text tables for the reports: Locale.ROOT everywhere, so the bytes never vary. */
public final class ReportFormatting {
    private ReportFormatting() {}

    /** A number for a person: integers with thousands separators, others with about four significant digits. */
    public static String num(Double v) {
        if (v == null) return "-";
        if (v.isNaN() || v.isInfinite()) return v.toString();
        double a = Math.abs(v);
        if (v == Math.rint(v) && a < 1e15) return String.format(Locale.ROOT, "%,d", v.longValue());
        if (a >= 1e15) return String.format(Locale.ROOT, "%.4e", v);
        if (a >= 1000) return String.format(Locale.ROOT, "%,.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.3f", v);
        if (a >= 1e-3) return String.format(Locale.ROOT, "%.5f", v);
        return String.format(Locale.ROOT, "%.4e", v);
    }

    public static String num(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    /**
     * A count and its noun, singular for one: "1 workload", "3 workloads", "0 files", "2 kernel categories",
     * "2 passes", "36 headline series".
     */
    public static String count(long n, String noun) {
        if (n == 1 || noun.endsWith("series")) return num(n) + " " + noun; // "36 headline series", not "seriess"
        if (noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh"))
            return num(n) + " " + noun + "es";
        boolean consonantY =
                noun.length() > 1 && noun.endsWith("y") && "aeiou".indexOf(noun.charAt(noun.length() - 2)) < 0;
        return num(n) + " " + (consonantY ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s");
    }

    public static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** Decimal bytes (1 kB = 1000 B), the unit of GB/s bandwidths. */
    public static String bytes(Long b) {
        if (b == null) return "-";
        double v = b;
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        int u = 0;
        while (Math.abs(v) >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return u == 0 ? b + " B" : String.format(Locale.ROOT, "%.2f %s", v, units[u]);
    }

    /** A power-of-2 message size bucket: "64 MiB", "512 B"; 0 and unknown spelled out. */
    public static String bucket(Long b) {
        if (b == null) return "unknown";
        if (b == 0) return "0 B";
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        long v = b;
        int u = 0;
        while (v >= 1024 && v % 1024 == 0 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v + " " + units[u];
    }

    /** A long name (a templated C++ kernel) cut to fit a text table: its first 80 characters and "…". */
    public static String shorten(String name) {
        if (name == null) return "-";
        return name.length() <= 80 ? name : name.substring(0, 79) + "…";
    }

    public static String ms(long ns) {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }

    /** An aligned table: text left, numbers (cells that look numeric) right; header, rule, rows. */
    public static final class Table {
        private final String[] headers;
        private final List<String[]> rows = new ArrayList<>();

        public Table(String... headers) {
            this.headers = headers;
        }

        public Table row(Object... cells) {
            String[] r = new String[headers.length];
            for (int i = 0; i < headers.length; i++) {
                Object c = i < cells.length ? cells[i] : "";
                r[i] = c == null ? "-" : c.toString();
            }
            rows.add(r);
            return this;
        }

        public boolean isEmpty() {
            return rows.isEmpty();
        }

        public String render(String indent) {
            int[] w = new int[headers.length];
            boolean[] numeric = new boolean[headers.length];
            for (int i = 0; i < headers.length; i++) {
                w[i] = headers[i].length();
                numeric[i] = !rows.isEmpty();
            }
            for (String[] r : rows) {
                for (int i = 0; i < r.length; i++) {
                    w[i] = Math.max(w[i], r[i].length());
                    if (!r[i].equals("-")
                            && !r[i].isEmpty()
                            && !r[i].matches("[-+]?[0-9][0-9,]*(\\.[0-9]+)?(e[-+]?[0-9]+)?%?( ?[a-zA-Z/µ]+)?")) {
                        numeric[i] = false;
                    }
                }
            }
            StringBuilder sb = new StringBuilder();
            line(sb, indent, headers, w, new boolean[headers.length]);
            StringBuilder rule = new StringBuilder(indent);
            for (int i = 0; i < w.length; i++) rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
            sb.append(rule).append('\n');
            for (String[] r : rows) line(sb, indent, r, w, numeric);
            return sb.toString();
        }

        private static void line(StringBuilder sb, String indent, String[] cells, int[] w, boolean[] right) {
            StringBuilder l = new StringBuilder(indent);
            for (int i = 0; i < cells.length; i++) {
                if (i > 0) l.append("  ");
                String pad = " ".repeat(w[i] - cells[i].length());
                l.append(right[i] ? pad + cells[i] : cells[i] + pad);
            }
            sb.append(l.toString().stripTrailing()).append('\n');
        }
    }
}
