package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Flat JSON arrays of integers as the traces write them ({@code Process Group Ranks} "[0, 1, 2, 3]", {@code In split
 * size} "[768, 13312]"), read as Spark's {@code from_json(text, 'array<bigint>')} would: null for anything that is not
 * such an array.
 */
final class JsonArrays {
    private JsonArrays() {}

    static List<Long> longs(String text) {
        if (text == null) return null;
        String t = text.strip();
        if (t.length() < 2 || t.charAt(0) != '[' || t.charAt(t.length() - 1) != ']') return null;
        String body = t.substring(1, t.length() - 1).strip();
        List<Long> out = new ArrayList<>();
        if (body.isEmpty()) return out;
        for (String item : body.split(",", -1)) {
            String s = item.strip();
            if (s.equals("null")) {
                out.add(null);
                continue;
            }
            try {
                out.add(Long.parseLong(s));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
    }

    /** As {@code from_json(text, 'array<int>')}: an element beyond int range makes the whole array null. */
    static List<Integer> ints(String text) {
        List<Long> longs = longs(text);
        if (longs == null) return null;
        List<Integer> out = new ArrayList<>(longs.size());
        for (Long v : longs) {
            if (v != null && (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE)) return null;
            out.add(v == null ? null : v.intValue());
        }
        return out;
    }
}
