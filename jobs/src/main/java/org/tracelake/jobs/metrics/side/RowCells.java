package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;

/**
 * Reads the cells of a side table's row in Spark's internal form, a null cell as Java's null: the families read their
 * rows as the workload task hands them (Spark's binary rows), with no conversion of the whole row to a
 * {@link org.apache.spark.sql.Row} first.
 */
final class RowCells {
    private RowCells() {}

    static Integer intOrNull(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getInt(i);
    }

    static Long longOrNull(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getLong(i);
    }

    static Double doubleOrNull(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getDouble(i);
    }

    static Boolean booleanOrNull(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getBoolean(i);
    }

    static String string(InternalRow r, int i) {
        return r.isNullAt(i) ? null : r.getUTF8String(i).toString();
    }

    /** An array of ints, null elements kept. */
    static List<Integer> ints(InternalRow r, int i) {
        if (r.isNullAt(i)) return null;
        ArrayData a = r.getArray(i);
        List<Integer> out = new ArrayList<>(a.numElements());
        for (int j = 0; j < a.numElements(); j++) out.add(a.isNullAt(j) ? null : a.getInt(j));
        return out;
    }

    /** The first element of an array of strings, in a list of one (or none when the array is empty). */
    static List<String> firstString(InternalRow r, int i) {
        if (r.isNullAt(i)) return null;
        ArrayData a = r.getArray(i);
        if (a.numElements() == 0) return List.of();
        return Collections.singletonList(
                a.isNullAt(0) ? null : a.getUTF8String(0).toString());
    }

    /** The first element of an array of arrays of longs (null elements kept), in a list of one (or none). */
    static List<List<Long>> firstLongs(InternalRow r, int i) {
        if (r.isNullAt(i)) return null;
        ArrayData a = r.getArray(i);
        if (a.numElements() == 0) return List.of();
        if (a.isNullAt(0)) return Collections.singletonList(null);
        ArrayData first = a.getArray(0);
        List<Long> out = new ArrayList<>(first.numElements());
        for (int j = 0; j < first.numElements(); j++) out.add(first.isNullAt(j) ? null : first.getLong(j));
        return Collections.singletonList(out);
    }

    /**
     * A map of strings to doubles, null values kept; a key the map holds twice has its last value, as Spark's
     * conversion of a map to a Java or Scala map gives it.
     */
    static Map<String, Double> stringToDouble(InternalRow r, int i) {
        if (r.isNullAt(i)) return null;
        MapData m = r.getMap(i);
        ArrayData keys = m.keyArray();
        ArrayData values = m.valueArray();
        Map<String, Double> out = new LinkedHashMap<>();
        for (int j = 0; j < m.numElements(); j++)
            out.put(keys.getUTF8String(j).toString(), values.isNullAt(j) ? null : values.getDouble(j));
        return out;
    }
}
