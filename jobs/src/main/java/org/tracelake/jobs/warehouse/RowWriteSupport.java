package org.tracelake.jobs.warehouse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Writes rows in Spark's internal form ({@link InternalRow}, as the readers make them) as Parquet records laid out as
 * Spark itself writes them, so that Spark reads the files back as if it had written them: strings as UTF-8 binary,
 * timestamps as INT64 microseconds adjusted to UTC, arrays and maps in the standard three-level {@code LIST} and
 * {@code MAP} groups ({@code spark.sql.parquet.writeLegacyFormat=false}), and the Spark schema in the footer. A column
 * left out (a partition column) is left out of the file, as Spark leaves it out of each partition's files.
 *
 * <p>The row's values go to parquet-hadoop's column writers as they are: no projection into another row and no copy of
 * a string (a view of its bytes; the writers copy what they keep, such as dictionary entries and statistics).
 */
final class RowWriteSupport extends WriteSupport<InternalRow> {
    /** The footer key under which Spark keeps a file's Spark schema. */
    private static final String SPARK_SCHEMA_KEY = "org.apache.spark.sql.parquet.row.metadata";

    private final StructType written;
    private final int[] ordinals;
    private final ValueWriter[] writers;
    private final MessageType fileSchema;
    private RecordConsumer out;

    /** {@code schema} is the rows' schema; {@code partitionColumn} (or null) is not written. */
    RowWriteSupport(StructType schema, String partitionColumn) {
        List<Integer> kept = new ArrayList<>();
        StructType written = new StructType();
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (int i = 0; i < schema.fields().length; i++) {
            StructField f = schema.fields()[i];
            if (f.name().equals(partitionColumn)) continue;
            kept.add(i);
            // without the column's comment: the table's metadata documents its columns once, not every file's footer
            written = written.add(f.name(), f.dataType(), f.nullable());
            message.addField(parquetType(f.name(), f.dataType(), f.nullable()));
        }
        this.written = written;
        this.ordinals = kept.stream().mapToInt(Integer::intValue).toArray();
        this.writers = new ValueWriter[ordinals.length];
        for (int c = 0; c < ordinals.length; c++) writers[c] = writerOf(schema.fields()[ordinals[c]].dataType());
        this.fileSchema = message.named("spark_schema");
    }

    MessageType fileSchema() {
        return fileSchema;
    }

    /** The footer's key-value metadata: the Spark schema, as Spark's own writer leaves it. */
    Map<String, String> footer() {
        return Map.of(SPARK_SCHEMA_KEY, written.json());
    }

    /** The Parquet type Spark's schema converter gives a column of this Spark type. */
    private static Type parquetType(String name, DataType t, boolean nullable) {
        Type.Repetition repetition = nullable ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        if (t instanceof ArrayType a) {
            return Types.buildGroup(repetition)
                    .as(LogicalTypeAnnotation.listType())
                    .addField(Types.repeatedGroup()
                            .addField(parquetType("element", a.elementType(), a.containsNull()))
                            .named("list"))
                    .named(name);
        }
        if (t instanceof MapType m) {
            return Types.buildGroup(repetition)
                    .as(LogicalTypeAnnotation.mapType())
                    .addField(Types.repeatedGroup()
                            .addField(parquetType("key", m.keyType(), false))
                            .addField(parquetType("value", m.valueType(), m.valueContainsNull()))
                            .named("key_value"))
                    .named(name);
        }
        Types.PrimitiveBuilder<PrimitiveType> p;
        if (t.equals(DataTypes.StringType)) {
            p = Types.primitive(PrimitiveTypeName.BINARY, repetition);
            p = p.as(LogicalTypeAnnotation.stringType());
        } else if (t.equals(DataTypes.IntegerType)) {
            p = Types.primitive(PrimitiveTypeName.INT32, repetition);
        } else if (t.equals(DataTypes.LongType)) {
            p = Types.primitive(PrimitiveTypeName.INT64, repetition);
        } else if (t.equals(DataTypes.DoubleType)) {
            p = Types.primitive(PrimitiveTypeName.DOUBLE, repetition);
        } else if (t.equals(DataTypes.BooleanType)) {
            p = Types.primitive(PrimitiveTypeName.BOOLEAN, repetition);
        } else if (t.equals(DataTypes.BinaryType)) {
            p = Types.primitive(PrimitiveTypeName.BINARY, repetition);
        } else if (t.equals(DataTypes.TimestampType)) {
            p = Types.primitive(PrimitiveTypeName.INT64, repetition);
            p = p.as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS));
        } else {
            throw new IllegalArgumentException("column " + name + ": " + t.simpleString() + " is not a warehouse type");
        }
        return p.named(name);
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(fileSchema, footer());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.out = recordConsumer;
    }

    @Override
    public void write(InternalRow row) {
        out.startMessage();
        for (int c = 0; c < ordinals.length; c++) {
            int i = ordinals[c];
            if (row.isNullAt(i)) {
                if (fileSchema.getType(c).isRepetition(Type.Repetition.REQUIRED)) {
                    throw new IllegalArgumentException("column " + fileSchema.getFieldName(c) + " is null");
                }
                continue;
            }
            String name = fileSchema.getFieldName(c);
            out.startField(name, c);
            writers[c].write(out, row, i);
            out.endField(name, c);
        }
        out.endMessage();
    }

    /** Writes the value at an ordinal of a row or an array (both are {@code SpecializedGetters}) to the consumer. */
    private interface ValueWriter {
        void write(RecordConsumer out, SpecializedGetters from, int i);
    }

    private static ValueWriter writerOf(DataType t) {
        if (t.equals(DataTypes.StringType)) return (out, from, i) -> out.addBinary(binary(from.getUTF8String(i)));
        if (t.equals(DataTypes.IntegerType)) return (out, from, i) -> out.addInteger(from.getInt(i));
        if (t.equals(DataTypes.LongType) || t.equals(DataTypes.TimestampType)) {
            return (out, from, i) -> out.addLong(from.getLong(i)); // a timestamp is microseconds inside Spark
        }
        if (t.equals(DataTypes.DoubleType)) return (out, from, i) -> out.addDouble(from.getDouble(i));
        if (t.equals(DataTypes.BooleanType)) return (out, from, i) -> out.addBoolean(from.getBoolean(i));
        if (t.equals(DataTypes.BinaryType)) {
            return (out, from, i) -> out.addBinary(Binary.fromReusedByteArray(from.getBinary(i)));
        }
        if (t instanceof ArrayType a) {
            ValueWriter element = writerOf(a.elementType());
            return (out, from, i) -> writeList(out, from.getArray(i), element);
        }
        if (t instanceof MapType m) {
            ValueWriter key = writerOf(m.keyType());
            ValueWriter value = writerOf(m.valueType());
            return (out, from, i) -> writeMap(out, from.getMap(i), key, value);
        }
        throw new IllegalArgumentException(t.simpleString() + " is not a warehouse type");
    }

    /** {@code group (LIST) { repeated group list { element } }}: an empty list has no {@code list} field at all. */
    private static void writeList(RecordConsumer out, ArrayData array, ValueWriter element) {
        out.startGroup();
        int n = array.numElements();
        if (n > 0) {
            out.startField("list", 0);
            for (int j = 0; j < n; j++) {
                out.startGroup();
                if (!array.isNullAt(j)) {
                    out.startField("element", 0);
                    element.write(out, array, j);
                    out.endField("element", 0);
                }
                out.endGroup();
            }
            out.endField("list", 0);
        }
        out.endGroup();
    }

    /** {@code group (MAP) { repeated group key_value { key; value } }}. */
    private static void writeMap(RecordConsumer out, MapData map, ValueWriter key, ValueWriter value) {
        out.startGroup();
        int n = map.numElements();
        if (n > 0) {
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            out.startField("key_value", 0);
            for (int j = 0; j < n; j++) {
                out.startGroup();
                out.startField("key", 0);
                key.write(out, keys, j);
                out.endField("key", 0);
                if (!values.isNullAt(j)) {
                    out.startField("value", 1);
                    value.write(out, values, j);
                    out.endField("value", 1);
                }
                out.endGroup();
            }
            out.endField("key_value", 0);
        }
        out.endGroup();
    }

    /** A view of the string's UTF-8 bytes where they sit on the heap: no copy. */
    private static Binary binary(UTF8String s) {
        if (s.getBaseObject() instanceof byte[] bytes) {
            return Binary.fromReusedByteArray(
                    bytes, (int) (s.getBaseOffset() - Platform.BYTE_ARRAY_OFFSET), s.numBytes());
        }
        return Binary.fromReusedByteArray(s.getBytes());
    }
}
