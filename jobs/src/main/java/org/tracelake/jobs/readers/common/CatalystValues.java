package org.tracelake.jobs.readers.common;

import java.sql.Timestamp;
import java.util.Collection;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Plain Java values in Spark's internal form, the form its Parquet writer consumes: strings as {@link UTF8String},
 * maps as {@link ArrayBasedMapData}, timestamps as microseconds. Readers build rows with these directly, so Spark
 * never converts an external {@code Row} again (a conversion of every value, which an ingest task would pay).
 */
public final class CatalystValues {
    private CatalystValues() {}

    public static UTF8String utf8(String s) {
        return s == null ? null : UTF8String.fromString(s);
    }

    /**
     * Any supported Java value as the internal value of a column of type {@code type}: numbers are widened or
     * narrowed to the column's type, so a builder may pass an Integer for a long column.
     */
    public static Object of(Object value, DataType type) {
        if (value == null) return null;
        if (value instanceof InternalRow || value instanceof UTF8String) return value;
        if (type instanceof StringType) return UTF8String.fromString(value.toString());
        if (type instanceof LongType) return ((Number) value).longValue();
        if (type instanceof IntegerType) return ((Number) value).intValue();
        if (type instanceof DoubleType) return ((Number) value).doubleValue();
        if (type instanceof BooleanType) return (Boolean) value;
        if (type instanceof TimestampType) return DateTimeUtils.fromJavaTimestamp((Timestamp) value);
        if (type instanceof MapType m) return map((Map<?, ?>) value, m);
        if (type instanceof ArrayType a) return array((Collection<?>) value, a.elementType());
        throw new IllegalArgumentException("no internal form for a "
                + value.getClass().getSimpleName() + " in a " + type.simpleString() + " column");
    }

    private static ArrayBasedMapData map(Map<?, ?> map, MapType type) {
        Object[] keys = new Object[map.size()];
        Object[] values = new Object[map.size()];
        int i = 0;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            keys[i] = of(e.getKey(), type.keyType());
            values[i++] = of(e.getValue(), type.valueType());
        }
        return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
    }

    private static GenericArrayData array(Collection<?> values, DataType elementType) {
        Object[] out = new Object[values.size()];
        int i = 0;
        for (Object v : values) out[i++] = of(v, elementType);
        return new GenericArrayData(out);
    }
}
