package org.tracelake.jobs.warehouse;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Writes Spark rows of a flat table schema (strings, ints, longs, doubles, booleans, binaries, timestamps, arrays of
 * ints or longs) as Parquet
 * records, in the Parquet types Spark itself reads those columns from: strings as UTF-8 binary, timestamps as INT64
 * microseconds adjusted to UTC. Columns not written (a partition column) are left out of the file, as Spark leaves them out.
 */
final class RowWriteSupport extends WriteSupport<Row> {
    private final StructType schema;
    private final int[] columns;
    private final MessageType fileSchema;
    private RecordConsumer out;

    /** {@code schema} is the rows' schema; {@code partitionColumn} is not written. */
    RowWriteSupport(StructType schema, String partitionColumn) {
        this.schema = schema;
        List<Integer> kept = new ArrayList<>();
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (int i = 0; i < schema.fields().length; i++) {
            StructField f = schema.fields()[i];
            if (f.name().equals(partitionColumn)) continue;
            kept.add(i);
            message.addField(parquetType(f));
        }
        this.columns = kept.stream().mapToInt(Integer::intValue).toArray();
        this.fileSchema = message.named("spark_schema");
    }

    MessageType fileSchema() {
        return fileSchema;
    }

    private static Type parquetType(StructField f) {
        Type.Repetition repetition = f.nullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        DataType t = f.dataType();
        if (t.equals(DataTypes.StringType)) {
            return Types.primitive(PrimitiveTypeName.BINARY, repetition)
                    .as(LogicalTypeAnnotation.stringType())
                    .named(f.name());
        }
        if (t.equals(DataTypes.IntegerType))
            return Types.primitive(PrimitiveTypeName.INT32, repetition).named(f.name());
        if (t.equals(DataTypes.LongType))
            return Types.primitive(PrimitiveTypeName.INT64, repetition).named(f.name());
        if (t.equals(DataTypes.DoubleType))
            return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(f.name());
        if (t.equals(DataTypes.BooleanType))
            return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(f.name());
        if (t.equals(DataTypes.BinaryType))
            return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(f.name());
        if (t.equals(DataTypes.TimestampType)) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition)
                    .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                    .named(f.name());
        }
        if (t instanceof ArrayType a) return list(f, repetition, a);
        throw new IllegalArgumentException(
                "column " + f.name() + ": " + t.simpleString() + " is not a flat column type");
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(fileSchema, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.out = recordConsumer;
    }

    @Override
    public void write(Row row) {
        out.startMessage();
        for (int c = 0; c < columns.length; c++) {
            int i = columns[c];
            if (row.isNullAt(i)) {
                if (!schema.fields()[i].nullable()) {
                    throw new IllegalArgumentException("column " + schema.fields()[i].name() + " is null in " + row);
                }
                continue;
            }
            String name = schema.fields()[i].name();
            out.startField(name, c);
            DataType t = schema.fields()[i].dataType();
            if (t.equals(DataTypes.StringType)) out.addBinary(Binary.fromString(row.getString(i)));
            else if (t.equals(DataTypes.IntegerType)) out.addInteger(row.getInt(i));
            else if (t.equals(DataTypes.LongType)) out.addLong(row.getLong(i));
            else if (t.equals(DataTypes.DoubleType)) out.addDouble(row.getDouble(i));
            else if (t.equals(DataTypes.BooleanType)) out.addBoolean(row.getBoolean(i));
            else if (t.equals(DataTypes.BinaryType)) out.addBinary(Binary.fromConstantByteArray((byte[]) row.get(i)));
            else if (t instanceof ArrayType) writeList(row.getList(i));
            else out.addLong(micros(row.getTimestamp(i)));
            out.endField(name, c);
        }
        out.endMessage();
    }

    /**
     * An array of ints or longs (collective_hangs' rank lists), in Parquet's three-level LIST form, as Spark writes
     * arrays: {@code group (LIST) { repeated group list { element } }}.
     */
    private static Type list(StructField f, Type.Repetition repetition, ArrayType a) {
        PrimitiveTypeName element;
        if (a.elementType().equals(DataTypes.IntegerType)) element = PrimitiveTypeName.INT32;
        else if (a.elementType().equals(DataTypes.LongType)) element = PrimitiveTypeName.INT64;
        else
            throw new IllegalArgumentException(
                    "column " + f.name() + ": " + a.simpleString() + " is not an array of ints or longs");
        Type.Repetition elementRepetition = a.containsNull() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        return Types.list(repetition)
                .element(Types.primitive(element, elementRepetition).named("element"))
                .named(f.name());
    }

    private void writeList(List<Object> values) {
        out.startGroup();
        if (!values.isEmpty()) {
            out.startField("list", 0);
            for (Object v : values) {
                out.startGroup();
                if (v != null) {
                    out.startField("element", 0);
                    if (v instanceof Integer x) out.addInteger(x);
                    else out.addLong((Long) v);
                    out.endField("element", 0);
                }
                out.endGroup();
            }
            out.endField("list", 0);
        }
        out.endGroup();
    }

    private static long micros(Timestamp t) {
        return Math.addExact(Math.multiplyExact(Math.floorDiv(t.getTime(), 1000L), 1_000_000L), t.getNanos() / 1000);
    }
}
