package org.tracelake.jobs.readers.memory;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracelake.udfs.Numbers;

/** Reads the plain values razorvine builds (Map, List, Object[], Integer, Long, BigInteger, Double, Boolean, String). */
public final class SnapshotValues {
    private SnapshotValues() {}

    static final int MAX_TEXT = 2000;

    public static String asText(Object v) {
        if (v == null) return null;
        String s;
        if (v instanceof String str) s = str;
        else if (v instanceof Object[] tuple) s = tupleText(tuple);
        else if (v instanceof Number || v instanceof Boolean) s = v.toString();
        else return null;
        return s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) + "…" : s;
    }

    public static Boolean asBool(Object v) {
        return v instanceof Boolean b ? b : null;
    }

    @SuppressWarnings("unchecked")
    public static Map<Object, Object> asMap(Object v) {
        return v instanceof Map<?, ?> m ? (Map<Object, Object>) m : null;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> asList(Object v) {
        if (v instanceof List<?> l) return (List<Object>) l;
        if (v instanceof Object[] a) return Collections.unmodifiableList(Arrays.asList(a)); // a tuple may hold None
        return null;
    }

    private static String tupleText(Object[] tuple) {
        StringBuilder sb = new StringBuilder();
        for (Object o : tuple) sb.append(sb.length() == 0 ? "" : ",").append(o);
        return sb.toString();
    }

    /**
     * One frame of a stack as "name file:line": the innermost frame in a Python file (the top of the Python stack:
     * where the program asked for the memory), else the first frame with a file name, else the first frame.
     */
    static String frameSummary(Object framesValue) {
        List<Object> frames = asList(framesValue);
        if (frames == null || frames.isEmpty()) return null;
        Map<Object, Object> chosen = null;
        Map<Object, Object> firstNamed = null;
        for (Object f : frames) {
            Map<Object, Object> m = asMap(f);
            if (m == null) continue;
            String file = asText(m.get("filename"));
            if (file != null && file.toLowerCase(Locale.ROOT).endsWith(".py")) {
                chosen = m;
                break;
            }
            if (firstNamed == null && file != null && !file.isEmpty() && !file.equals("??")) firstNamed = m;
        }
        if (chosen == null) chosen = firstNamed != null ? firstNamed : asMap(frames.get(0));
        if (chosen == null) return null;
        String text = asText(chosen.get("name")) + " " + asText(chosen.get("filename")) + ":"
                + Numbers.wholeNumber(chosen.get("line"));
        return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "…" : text;
    }
}
