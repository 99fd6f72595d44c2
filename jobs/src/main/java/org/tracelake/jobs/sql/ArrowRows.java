package org.tracelake.jobs.sql;

import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.spark.connect.proto.DataType;
import scala.Tuple2;
import scala.collection.mutable.Builder;

/**
 * A query result decoded from the Arrow batches a Spark Connect server sends, as the values the Spark Connect JVM
 * client's {@code Row.get} gives (Long, Double, String, java.sql.Timestamp in the JVM's zone, …), so that
 * {@link ResultPrinter} prints them alike. Arrays, maps and structs become {@link Nested} values that print as the
 * client's Scala collections do ({@code [a, b]}, {@code {k -> v}}, {@code [a,b]}; inside another, {@code ArraySeq(…)},
 * {@code Map(…)}).
 */
final class ArrowRows {
    private String[] columns;
    private final List<Object[]> rows = new ArrayList<>();

    String[] columns() {
        return columns;
    }

    List<Object[]> rows() {
        return rows;
    }

    /** The column names from the result's schema (sent even when no row is). */
    void schema(DataType schema) {
        if (columns != null || !schema.hasStruct()) return;
        columns = schema.getStruct().getFieldsList().stream()
                .map(DataType.StructField::getName)
                .toArray(String[]::new);
    }

    void schema(VectorSchemaRoot root) {
        columns = root.getSchema().getFields().stream().map(Field::getName).toArray(String[]::new);
    }

    /** Every row of one loaded batch. */
    void add(VectorSchemaRoot root) {
        if (columns == null) schema(root);
        List<FieldVector> vectors = root.getFieldVectors();
        for (int i = 0; i < root.getRowCount(); i++) {
            Object[] row = new Object[vectors.size()];
            for (int c = 0; c < row.length; c++) row[c] = value(vectors.get(c), i);
            rows.add(row);
        }
    }

    private static Object value(ValueVector v, int i) {
        if (v.isNull(i)) return null;
        if (v instanceof VarCharVector s) return s.getObject(i).toString();
        if (v instanceof BitVector b) return b.getObject(i);
        if (v instanceof DateDayVector d) return java.sql.Date.valueOf(LocalDate.ofEpochDay(d.get(i)));
        if (v instanceof TimeStampMicroTZVector t) return timestamp(t.get(i));
        if (v instanceof MapVector m) { // a list of (key, value) structs; before ListVector, which it extends
            StructVector pairs = (StructVector) m.getDataVector();
            ValueVector keys = pairs.getChildByOrdinal(0);
            ValueVector values = pairs.getChildByOrdinal(1);
            // Built into a Scala immutable Map as the JVM client does, so that the entries print in its order (the
            // order of insertion up to 4 entries, of the keys' hashes beyond).
            Builder<Tuple2<Object, Object>, scala.collection.immutable.Map<Object, Object>> map =
                    scala.collection.immutable.Map$.MODULE$.newBuilder();
            for (int k = m.getElementStartIndex(i); k < m.getElementEndIndex(i); k++) {
                map.addOne(new Tuple2<>(value(keys, k), value(values, k)));
            }
            List<String> parts = new ArrayList<>();
            scala.collection.Iterator<Tuple2<Object, Object>> entries =
                    map.result().iterator();
            while (entries.hasNext()) {
                Tuple2<Object, Object> e = entries.next();
                parts.add(nested(e._1()) + " -> " + nested(e._2()));
            }
            return new Nested("{", "Map(", parts, ", ");
        }
        if (v instanceof ListVector l) {
            List<String> parts = new ArrayList<>();
            for (int k = l.getElementStartIndex(i); k < l.getElementEndIndex(i); k++)
                parts.add(nested(value(l.getDataVector(), k)));
            return new Nested("[", "ArraySeq(", parts, ", ");
        }
        if (v instanceof StructVector s) {
            List<String> parts = new ArrayList<>();
            for (int c = 0; c < s.size(); c++) parts.add(nested(value(s.getChildByOrdinal(c), i)));
            return new Nested("[", "[", parts, ",");
        }
        // numbers (Byte, Short, Integer, Long, Float, Double, BigDecimal), binary, timestamp without zone
        return v.getObject(i);
    }

    /** A timestamp in microseconds since the epoch, as the JVM client gives it (java.sql.Timestamp). */
    private static Timestamp timestamp(long micros) {
        Timestamp t = new Timestamp(Math.floorDiv(micros, 1000L));
        t.setNanos((int) Math.floorMod(micros, 1_000_000L) * 1000);
        return t;
    }

    private static String nested(Object value) {
        return value instanceof Nested n ? n.inside() : String.valueOf(value);
    }

    /**
     * An array, map or struct value: printed on its own as the JVM client's cell (ResultPrinter's mkString of a
     * Seq or Map, a Row's toString), inside another as Scala prints the collection.
     */
    record Nested(String open, String openInside, List<String> parts, String separator) {
        @Override
        public String toString() {
            return String.join(separator, parts).transform(s -> open + s + (open.equals("{") ? "}" : "]"));
        }

        String inside() {
            String close = openInside.equals("[") ? "]" : ")";
            return openInside + String.join(separator, parts) + close;
        }
    }
}
