package org.tracelake.jobs.rank;

/** Spark SQL's {@code CAST(string AS DOUBLE)} for the args the rules read: null for what is not a number. */
public final class SparkCasts {
    private SparkCasts() {}

    public static Double toDouble(String s) {
        if (s == null) return null;
        String t = s.trim();
        if (t.isEmpty()) return null;
        // Java also accepts type suffixes ("1d", "2f") and hexadecimal floats, which Spark does not.
        char last = t.charAt(t.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F' || t.contains("x") || t.contains("X")) return null;
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
